/**
 * @module emit/types — types.ts: one TypeScript type per definition (json-schema-to-typescript, doc
 * comments from the schema descriptions) and the method maps derived from the manifest
 * (templates/types-maps.ts.hbs).
 */
import { compile, type Options as TsOptions } from 'json-schema-to-typescript';
import { deref, isObject, mapSchema, refName, type Json, type JsonObject } from '../load/schema.ts';
import type { MethodPlan, PinPlan } from '../plan/index.ts';
import { applyEdits, declarationNamed, docCommentsOf, parseModule, type Edit } from './js-edit.ts';
import { render } from './templates.ts';

const ROOT = 'WiregenRoot__';

/**
 * The json-schema-to-typescript options every emitted type uses (here and in emit/spec-module.ts): no banner,
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
  return withoutScaffolding(ts);
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

/** A2A has no message definitions: its JSON-RPC request is the envelope around the params message. */
function messageType(m: MethodPlan): string {
  if (m.message) return m.message;
  const params = m.params ? m.params.type : 'undefined';
  return m.kind === 'request'
    ? `{ jsonrpc: "2.0"; id: string | number; method: ${q(m.method)}; params${m.paramsRequired ? '' : '?'}: ${params} }`
    : `{ jsonrpc: "2.0"; method: ${q(m.method)}; params${m.paramsRequired ? '' : '?'}: ${params} }`;
}

/** The method maps (templates/types-maps.ts.hbs): `Methods`, its helpers and, for MCP, the envelope types. */
function methodMaps(plan: PinPlan, rename: ReadonlyMap<string, string>): string {
  const env = envelopeOf(plan);
  return render('types-maps.ts', {
    mcp: plan.protocol === 'mcp',
    title: `${plan.protocol.toUpperCase()} ${plan.revision}`,
    envelope: { params: union(env.params), result: union(env.result), cache: union(env.cache) },
    methods: plan.methods.map((m) => ({
      method: m.method,
      kind: m.kind,
      direction: m.direction,
      message: messageType(m),
      params: m.params ? m.params.type : 'undefined',
      result: m.result ? m.result.type : 'never',
      handlerParams: handlerParams(plan, m),
      handlerResult: handlerResult(plan, m),
      callResult: callResult(plan, m),
    })),
    resultRenamed: rename.get('Result') === 'ResultBase',
    anyNotification: plan.methods.some((m) => m.kind === 'notification'),
  });
}

/**
 * What json-schema-to-typescript writes that types.ts leaves out, found in the parsed declarations
 * (emit/js-edit.ts): the root interface the definitions were handed over in, and the paragraph it adds to
 * every definition's comment ("This interface was referenced by `<root>`'s JSON-Schema via the `definition`
 * …"); a comment that held only that paragraph goes with it.
 */
function withoutScaffolding(declarations: string): string {
  const source = parseModule(declarations, 'types.ts', 'ts');
  const root = declarationNamed(source, ROOT);
  if (!root) throw new Error(`json-schema-to-typescript declared no ${ROOT}`);
  const end = declarations[root.getEnd()] === '\n' ? root.getEnd() + 1 : root.getEnd();
  const edits: Edit[] = [{ start: root.getStart(source), end, text: '' }];
  const first = ` * This interface was referenced by \`${ROOT}\`'s JSON-Schema`;
  for (const statement of source.statements)
    for (const comment of docCommentsOf(source, statement)) {
      const lines = comment.text.split('\n');
      const at = lines.indexOf(first);
      if (at < 0 || !lines[at + 1]?.startsWith(' * via the `definition` ')) continue;
      const kept = [...lines.slice(0, at > 1 && lines[at - 1] === ' * ' ? at - 1 : at), ...lines.slice(at + 2)];
      const only = kept.length === 2; // `/**` and ` */`
      const after = only && declarations[comment.end] === '\n' ? comment.end + 1 : comment.end;
      edits.push({ start: comment.start, end: after, text: only ? '' : kept.join('\n') });
    }
  return applyEdits(declarations, edits);
}

export async function emitTypes(plan: PinPlan): Promise<string> {
  const rename = renames(plan);
  return `${await defTypes(plan, rename)}\n${methodMaps(plan, rename)}`;
}
