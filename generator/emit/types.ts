/**
 * @module emit/types — types.ts: one TypeScript type per definition (json-schema-to-typescript, doc
 * comments from the schema descriptions) and the method maps derived from the manifest.
 */
import { compile, type Options as TsOptions } from 'json-schema-to-typescript';
import { deref, isObject, mapSchema, refName, type Json, type JsonObject } from '../load/schema.ts';
import type { MethodPlan, PinPlan } from '../plan/index.ts';

const ROOT = 'WiregenRoot__';

/**
 * The json-schema-to-typescript options every emitted type uses (here and in emit/fixture.ts): no banner,
 * no formatting (prettier runs last), closed objects unless a schema says otherwise, referenced types
 * declared, and no reference resolved outside the document.
 */
export const TS_OPTIONS: Partial<TsOptions> = {
  bannerComment: '',
  format: false,
  additionalProperties: false,
  declareExternallyReferenced: true,
  $refOptions: { resolve: { external: false } } as never,
};

/**
 * json-schema-to-typescript declares a fresh copy of a referenced type wherever a `$ref` has sibling
 * keywords (`{"$ref": "#/$defs/Annotations", "description": …}` becomes `Annotations1`). Every local
 * reference is therefore replaced by `tsType: <Name>`, naming the type the definition itself declares,
 * while the siblings (the property's description) stay and become its doc comment.
 */
function forTypes(node: Json, rename: ReadonlyMap<string, string>): Json {
  return mapSchema(node, (schema) => {
    if (!('$ref' in schema)) return schema;
    const target = refName(schema);
    if (target === undefined) throw new Error(`non-local $ref ${JSON.stringify(schema['$ref'])} reached the type emitter`);
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref') out['tsType'] = rename.get(target) ?? target;
      else out[k] = v;
    }
    return out;
  });
}

/** Names the method maps below declare; a definition may not take one (except Result, see RENAMED). */
const HELPERS = [
  'Methods',
  'Method',
  'RequestMethod',
  'NotificationMethod',
  'ClientRequestMethod',
  'ServerRequestMethod',
  'ClientNotificationMethod',
  'ServerNotificationMethod',
  'Params',
  'Result',
  'HandlerResult',
  'HandlerParams',
  'CallParams',
  'CallResult',
  'ParamsEnvelope',
  'ResultEnvelope',
  'CacheEnvelope',
  'KnownKeys',
  'WithOptional',
  'WithPartial',
  'AnyRequest',
  'AnyNotification',
  'MessageOf',
];
/**
 * MCP defines `Result`, and `Result<'tools/call'>` is the method map's. The definition's type is declared
 * as `ResultBase`, and `Result` with no type argument resolves to it, so both read naturally.
 */
const RENAMED: ReadonlyMap<string, string> = new Map([['Result', 'ResultBase']]);

function renames(plan: PinPlan): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of Object.keys(plan.defs)) {
    const to = RENAMED.get(name);
    if (to !== undefined) {
      if (to in plan.defs) throw new Error(`${plan.id}: both ${name} and ${to} are definitions; extend RENAMED in generator/emit/types.ts`);
      out.set(name, to);
    } else if (HELPERS.includes(name)) throw new Error(`${plan.id}: definition ${name} collides with a method-map helper of generator/emit/types.ts`);
  }
  return out;
}

async function defTypes(plan: PinPlan, rename: ReadonlyMap<string, string>): Promise<string> {
  const defs: JsonObject = {};
  for (const [name, schema] of Object.entries(plan.defs)) defs[rename.get(name) ?? name] = forTypes(schema, rename) as JsonObject;
  const root: JsonObject = { title: ROOT, type: 'object', properties: {}, additionalProperties: false, [plan.defsKey]: defs };
  const ts = await compile(root as never, ROOT, {
    ...TS_OPTIONS,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    // minItems/maxItems stay in the validators; as tuple types they would only make arrays awkward to build.
    ignoreMinAndMaxItems: true,
  });
  return ts
    .replace(new RegExp(`^export interface ${ROOT} \\{\\s*\\}\\n`, 'm'), '')
    .replace(/^ \* \n \* This interface was referenced by `[^`]+`'s JSON-Schema\n \* via the `[^`]+` "[^"]+".\n/gm, '')
    .replace(/^\/\*\*\n \* This interface was referenced by `[^`]+`'s JSON-Schema\n \* via the `[^`]+` "[^"]+".\n \*\/\n/gm, '');
}

const q = (s: string) => JSON.stringify(s);

/**
 * The envelope of an MCP pin: the fields the runtime writes into messages itself, read off the schema's base
 * definitions (never listed per method). `params`: the properties of `RequestParams` (2025-11-25 and later),
 * or of the `params` of `Request` (older revisions) — `_meta`. `result`: the properties of `Result` —
 * `_meta`, and 2026-07-28's `resultType`. `cache`: what `CacheableResult` adds to `Result` — `ttlMs`,
 * `cacheScope` — on the results of the methods the manifest marks `cacheable`. A2A has no envelope.
 */
export interface Envelope {
  readonly params: readonly string[];
  readonly result: readonly string[];
  readonly cache: readonly string[];
}

function propertyNames(plan: PinPlan, schema: JsonObject | undefined): string[] {
  const resolved = deref(plan, schema);
  const props = resolved?.['properties'];
  return isObject(props) ? Object.keys(props).sort() : [];
}

export function envelopeOf(plan: PinPlan): Envelope {
  if (plan.protocol !== 'mcp') return { params: [], result: [], cache: [] };
  const request = plan.defs['Request']?.['properties'];
  const requestParams = plan.defs['RequestParams'] ?? (isObject(request) && isObject(request['params']) ? request['params'] : undefined);
  const result = propertyNames(plan, plan.defs['Result']);
  const cacheable = plan.methods.filter((m) => m.cacheable);
  if (cacheable.length && !plan.defs['CacheableResult'])
    throw new Error(`${plan.id}: ${cacheable[0]!.method} is cacheable, but the schema has no CacheableResult definition`);
  const cache = propertyNames(plan, plan.defs['CacheableResult']).filter((k) => !result.includes(k));
  return { params: propertyNames(plan, requestParams), result, cache };
}

const union = (keys: readonly string[]) => (keys.length ? keys.map((k) => q(k)).join(' | ') : 'never');

/** The result alternatives the manifest allows beside the result itself (input_required, a task). */
function alternatives(plan: PinPlan, m: MethodPlan, forHandler: boolean): string[] {
  const out: string[] = [];
  if (forHandler && m.inputRequired) out.push('InputRequiredResult');
  if (m.taskAugmented) out.push('CreateTaskResult');
  for (const a of out) if (!(a in plan.defs)) throw new Error(`${plan.id}: ${m.method} may answer ${a}, which the schema does not define`);
  return out;
}

/** The result of `m` with its envelope fields optional (MCP), as a handler returns it and a caller receives it. */
function eraNeutral(plan: PinPlan, m: MethodPlan): string {
  const type = m.result!.type;
  if (plan.protocol !== 'mcp') return type;
  return `WithOptional<${type}, ResultEnvelope${m.cacheable ? ' | CacheEnvelope' : ''}>`;
}

/**
 * What a handler for `m` returns: its result without what the runtime adds (MCP: the envelope optional), or an
 * alternative the manifest allows (input_required, a task), or a stream of results (A2A).
 */
function handlerResult(plan: PinPlan, m: MethodPlan): string {
  if (m.kind === 'notification' || !m.result) return 'void';
  if (m.streaming) return `AsyncIterable<${m.result.type}>`;
  return [eraNeutral(plan, m), ...alternatives(plan, m, true)].join(' | ');
}

/** What a call of `m` resolves to in either era: the result, its envelope optional (input_required rounds are the client's). */
function callResult(plan: PinPlan, m: MethodPlan): string {
  if (m.kind === 'notification' || !m.result) return 'never';
  if (m.streaming) return `AsyncIterable<${m.result.type}>`;
  return [eraNeutral(plan, m), ...alternatives(plan, m, false)].join(' | ');
}

/** The params of `m` as a handler sees them and a caller writes them (MCP: the params envelope optional and partial). */
function handlerParams(plan: PinPlan, m: MethodPlan): string {
  if (!m.params) return 'undefined';
  return plan.protocol === 'mcp' ? `WithPartial<${m.params.type}, ParamsEnvelope>` : m.params.type;
}

/** The envelope unions and the two helpers that apply them (MCP pins). */
function envelopeTypes(plan: PinPlan): string[] {
  const env = envelopeOf(plan);
  return [
    '/**',
    ' * The envelope: fields the runtime writes into messages itself, so handlers and callers may leave them out.',
    ' * Read off the schema by the generator: `ParamsEnvelope` is the properties of the `RequestParams` definition',
    " * (or of `Request`'s params), `ResultEnvelope` those of `Result`, `CacheEnvelope` what `CacheableResult`",
    ' * adds to `Result`, on the results of the methods the manifest marks `cacheable`.',
    ' */',
    `export type ParamsEnvelope = ${union(env.params)};`,
    '/** See {@link ParamsEnvelope}. */',
    `export type ResultEnvelope = ${union(env.result)};`,
    '/** See {@link ParamsEnvelope}. */',
    `export type CacheEnvelope = ${union(env.cache)};`,
    '/** The keys of `T` that are not index signatures. */',
    'export type KnownKeys<T> = keyof { [P in keyof T as string extends P ? never : number extends P ? never : P]: 0 };',
    '/** `T` (each member of a union) with its keys in `K` optional; index signatures and the other keys as they are. */',
    'export type WithOptional<T, K extends PropertyKey> = T extends unknown',
    '  ? [Extract<KnownKeys<T>, K>] extends [never]',
    '    ? T',
    '    : { [P in keyof T as P extends K ? never : P]: T[P] } & { [P in keyof T as P extends K ? P : never]?: T[P] }',
    '  : never;',
    '/** `T` (each member of a union) with its keys in `K` optional and partial (`_meta` without the keys the runtime adds). */',
    'export type WithPartial<T, K extends PropertyKey> = T extends unknown',
    '  ? [Extract<KnownKeys<T>, K>] extends [never]',
    '    ? T',
    '    : { [P in keyof T as P extends K ? never : P]: T[P] } & { [P in keyof T as P extends K ? P : never]?: Partial<NonNullable<T[P]>> }',
    '  : never;',
    '',
  ];
}

/** A2A has no message definitions: its JSON-RPC request is the envelope around the params message. */
function messageType(m: MethodPlan): string {
  if (m.message) return m.message;
  const params = m.params ? m.params.type : 'undefined';
  return m.kind === 'request'
    ? `{ jsonrpc: "2.0"; id: string | number; method: ${q(m.method)}; params${m.paramsRequired ? '' : '?'}: ${params} }`
    : `{ jsonrpc: "2.0"; method: ${q(m.method)}; params${m.paramsRequired ? '' : '?'}: ${params} }`;
}

function methodMaps(plan: PinPlan, rename: ReadonlyMap<string, string>): string {
  const title = `${plan.protocol.toUpperCase()} ${plan.revision}`;
  const lines: string[] = plan.protocol === 'mcp' ? envelopeTypes(plan) : [];
  lines.push(
    `/**`,
    ` * Every method of ${title}, from the method manifest: kind, direction, and the message, params,`,
    ` * result, handler and caller types. Use the helpers below rather than indexing this directly.`,
    ` */`,
  );
  lines.push('export interface Methods {');
  for (const m of plan.methods) {
    lines.push(`  ${q(m.method)}: {`);
    lines.push(`    kind: ${q(m.kind)};`, `    direction: ${q(m.direction)};`);
    lines.push(`    message: ${messageType(m)};`);
    lines.push(`    params: ${m.params ? m.params.type : 'undefined'};`);
    lines.push(`    result: ${m.result ? m.result.type : 'never'};`);
    lines.push(`    handlerParams: ${handlerParams(plan, m)};`);
    lines.push(`    handlerResult: ${handlerResult(plan, m)};`);
    lines.push(`    callResult: ${callResult(plan, m)};`);
    lines.push('  };');
  }
  lines.push('}', '');
  const pick = (cond: string) => `{ [M in Method]: ${cond} ? M : never }[Method]`;
  lines.push(
    '/** Every method name. */',
    'export type Method = keyof Methods;',
    '/** Methods answered with a result. */',
    `export type RequestMethod = ${pick('Methods[M]["kind"] extends "request"')};`,
    '/** Methods never answered. */',
    `export type NotificationMethod = ${pick('Methods[M]["kind"] extends "notification"')};`,
    '/** Requests a client sends (a server handles). */',
    `export type ClientRequestMethod = ${pick('Methods[M] extends { kind: "request"; direction: "client-to-server" | "both" }')};`,
    '/** Requests a server sends (a client handles). */',
    `export type ServerRequestMethod = ${pick('Methods[M] extends { kind: "request"; direction: "server-to-client" | "both" }')};`,
    '/** Notifications a client sends. */',
    `export type ClientNotificationMethod = ${pick('Methods[M] extends { kind: "notification"; direction: "client-to-server" | "both" }')};`,
    '/** Notifications a server sends. */',
    `export type ServerNotificationMethod = ${pick('Methods[M] extends { kind: "notification"; direction: "server-to-client" | "both" }')};`,
    '/** The params of method `M` (`Params<"tools/call">`). */',
    'export type Params<M extends Method> = Methods[M]["params"];',
  );
  if (rename.get('Result') === 'ResultBase')
    lines.push(
      '/**',
      ' * `Result<M>` is the result of request method `M` (`Result<"tools/call">`); plain `Result` is the',
      " * schema's `Result` definition (declared above as `ResultBase`).",
      ' */',
      'export type Result<M extends RequestMethod = never> = [M] extends [never] ? ResultBase : Methods[M]["result"];',
    );
  else lines.push('/** The result of request method `M`. */', 'export type Result<M extends RequestMethod> = Methods[M]["result"];');
  const neutral = plan.protocol === 'mcp' ? ' in either era: the envelope (see ParamsEnvelope) optional' : '';
  lines.push(
    `/** The params of \`M\` as a handler receives them${neutral}${plan.protocol === 'mcp' ? ' and partial' : ''}. */`,
    'export type HandlerParams<M extends Method> = Methods[M]["handlerParams"];',
    ...(plan.protocol === 'mcp'
      ? [
          '/** The params of `M` as a caller writes them: the same as a handler sees them (the client adds the envelope). */',
          'export type CallParams<M extends Method> = HandlerParams<M>;',
        ]
      : []),
    `/** What a handler for \`M\` returns${neutral}; or an alternative the manifest allows (input_required, a task, a stream). */`,
    'export type HandlerResult<M extends Method> = Methods[M]["handlerResult"];',
    `/** What a call of request \`M\` resolves to${neutral} (a task where the manifest allows one). */`,
    'export type CallResult<M extends RequestMethod> = Methods[M]["callResult"];',
    '/** The whole wire message of method `M`. */',
    'export type MessageOf<M extends Method> = Methods[M]["message"];',
    '/** Union of every request message. */',
    'export type AnyRequest = Methods[RequestMethod]["message"];',
    '/** Union of every notification message. */',
    `export type AnyNotification = ${plan.methods.some((m) => m.kind === 'notification') ? 'Methods[NotificationMethod]["message"]' : 'never'};`,
    '',
  );
  return lines.join('\n');
}

export async function emitTypes(plan: PinPlan): Promise<string> {
  const rename = renames(plan);
  return `${await defTypes(plan, rename)}\n${methodMaps(plan, rename)}`;
}
