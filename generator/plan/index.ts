/**
 * @module plan — turns a checked pin into a plain, serialisable description of what to emit: the schema
 * document the emitters compile, the validators to export, and one record per method with everything the
 * dispatch table and the typed maps need. No code is produced here.
 */
import { fail, pointer } from '../errors.ts';
import type { LoadedPin } from '../load/index.ts';
import type { Direction, ManifestRoute } from '../load/manifest.ts';
import { deref, parseSchemaRef, resolveSchemaRef, type Draft, type JsonObject, type SchemaRef } from '../load/schema.ts';
import { packageVersion } from '../load/version.ts';
import { planWireOrder, type WireOrder } from './wire-order.ts';

const isJsonObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ValidatorPlan {
  /** Exported name in validators.js. */
  readonly name: string;
  readonly ref: SchemaRef;
  /** The TypeScript type the validator narrows to. */
  readonly type: string;
  /** The property names `ref` leads through from its definition (its `allOf/<n>` steps left out): what `type` indexes. */
  readonly path: readonly string[];
}

/** The type at `path` inside the type `root`: indexed access types, each non-null (a member may be optional). */
export function typeAt(root: string, path: readonly string[]): string {
  return path.reduce((t, n) => `NonNullable<${t}[${JSON.stringify(n)}]>`, root);
}

export interface CapabilityGate {
  /** Whose capabilities: `server`, `client` (MCP) or `agent` (A2A AgentCapabilities). */
  readonly side: 'server' | 'client' | 'agent';
  readonly path: readonly string[];
}

export interface MethodPlan {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: Direction;
  /** The whole message's $def (MCP). */
  readonly message?: string;
  readonly params?: ValidatorPlan;
  /** Whether `params` must be present on the wire (from the message's `required`). */
  readonly paramsRequired: boolean;
  /**
   * Whether a caller of the generated client may leave params out (they default to `{}`): there are none, or
   * nothing in them is required but `_meta`, which the MCP client adds itself. Not the negation of
   * `paramsRequired`, the wire's rule: MCP 2026-07-28's `tools/list` must carry params, but only their `_meta`.
   */
  readonly paramsOptional: boolean;
  readonly result?: ValidatorPlan;
  readonly capabilities: readonly CapabilityGate[];
  readonly cacheable: boolean;
  readonly inputRequired: boolean;
  readonly taskAugmented: boolean;
  readonly embedded: boolean;
  readonly streaming: boolean;
  readonly mcpName?: string;
  readonly http: readonly ManifestRoute[];
}

export interface PinPlan {
  readonly id: string;
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  readonly packageName: string;
  readonly version: string;
  readonly draft: Draft;
  readonly defsKey: '$defs' | 'definitions';
  /** `$id` the compiled document carries (refs resolve against it). */
  readonly schemaId: string;
  readonly defs: Readonly<Record<string, JsonObject>>;
  /** Keywords only the validators apply, by definition (see SchemaBundle.validationOnly). */
  readonly validationOnly?: Readonly<Record<string, JsonObject>>;
  /** Where the inputs came from, for headers and package metadata. */
  readonly sources: readonly string[];
  readonly license: string;
  readonly validators: readonly ValidatorPlan[];
  readonly methods: readonly MethodPlan[];
  /** ProtoJSON member order (pins with a proto: A2A). */
  readonly wireOrder?: WireOrder;
}

function planRef(loaded: LoadedPin, text: string, where: string): ValidatorPlan {
  const ref = parseSchemaRef(text);
  if (ref.tokens.length === 0) return { name: ref.def, ref, type: ref.def, path: [] };
  // Only `#/properties/a/properties/b` chains map onto TypeScript indexed access types; an `allOf/<n>` step
  // may come between (a member's properties are the intersection's: an extension's GetTaskRequest params).
  const names: string[] = [];
  for (let i = 0; i < ref.tokens.length; i += 2) {
    if (ref.tokens[i] === 'allOf' && /^\d+$/.test(ref.tokens[i + 1] ?? '')) continue;
    if (ref.tokens[i] !== 'properties' || ref.tokens[i + 1] === undefined)
      fail({ file: loaded.manifest.file, pointer: where, message: `${text}: only #/properties/<name> pointers are supported` });
    names.push(ref.tokens[i + 1]!);
  }
  return { name: [ref.def, ...names].join('_'), ref, type: typeAt(ref.def, names), path: names };
}

export function planPin(loaded: LoadedPin): PinPlan {
  const { pin, bundle, manifest } = loaded;
  const validators = new Map<string, ValidatorPlan>();
  for (const name of Object.keys(bundle.defs).sort()) validators.set(name, { name, ref: { def: name, tokens: [] }, type: name, path: [] });

  const methods: MethodPlan[] = [];
  for (const [method, entry] of Object.entries(manifest.methods)) {
    const at = (field: string) => pointer('methods', method, field);
    const use = (text: string | undefined, field: string): ValidatorPlan | undefined => {
      if (text === undefined) return undefined;
      const v = planRef(loaded, text, at(field));
      const existing = validators.get(v.name);
      if (existing && JSON.stringify(existing.ref) !== JSON.stringify(v.ref))
        fail({
          file: manifest.file,
          pointer: at(field),
          message: `${text} would export validator ${v.name}, which is already the name of ${bundle.defSource[v.name] ?? v.name}`,
        });
      validators.set(v.name, v);
      return v;
    };
    const message = entry.message ? bundle.defs[entry.message] : undefined;
    // Required members, of the message or of its allOf parts (an extension's message over the JSON-RPC envelope).
    const parts = Array.isArray(message?.['allOf']) ? message['allOf'] : [];
    const required = [message, ...parts].flatMap((m) => (isJsonObject(m) && Array.isArray(m['required']) ? m['required'] : []));
    const caps = entry.capability === undefined ? [] : typeof entry.capability === 'string' ? [entry.capability] : entry.capability;
    const params = use(entry.params, 'params');
    const result = use(entry.result, 'result');
    const paramsSchema = params ? deref(bundle, resolveSchemaRef(bundle, params.ref)) : undefined;
    const requiredParams = Array.isArray(paramsSchema?.['required']) ? paramsSchema['required'].filter((f) => f !== '_meta') : [];
    methods.push({
      method,
      kind: entry.kind,
      direction: entry.direction,
      ...(entry.message ? { message: entry.message } : {}),
      ...(params ? { params } : {}),
      paramsRequired: required.includes('params'),
      paramsOptional: requiredParams.length === 0,
      ...(result ? { result } : {}),
      capabilities: caps.map((c) => {
        const [side, ...path] = c.split('.');
        return { side: side as CapabilityGate['side'], path };
      }),
      cacheable: entry.cacheable ?? false,
      inputRequired: entry.inputRequired ?? false,
      taskAugmented: entry.taskAugmented ?? false,
      embedded: entry.embedded ?? false,
      streaming: entry.streaming ?? false,
      ...(entry.mcpName !== undefined ? { mcpName: entry.mcpName } : {}),
      http: entry.http ?? [],
    });
  }

  const sources = pin.files
    .filter((f) => f.path === pin.schema || f.path === pin.proto)
    .map((f) => `${pin.source.repository} ${f.original.split(' ')[0]}@${f.commit ?? f.tag ?? pin.source.commit ?? pin.source.tag}`);
  return {
    id: pin.id,
    protocol: pin.protocol,
    revision: pin.revision,
    packageName: `@wiregen/${pin.id}`,
    version: packageVersion(pin),
    draft: bundle.draft,
    defsKey: bundle.defsKey,
    schemaId: `urn:wiregen:${pin.id}`,
    defs: bundle.defs,
    ...(bundle.validationOnly ? { validationOnly: bundle.validationOnly } : {}),
    sources,
    license: pin.source.license,
    validators: [...validators.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    methods,
    ...(loaded.proto ? { wireOrder: planWireOrder(loaded.proto) } : {}),
  };
}
