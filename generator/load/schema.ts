/**
 * @module load/schema — the normalised form every later pass reads: one JSON Schema document with its
 * draft, and its definitions by name; and the one way the generator walks, rebuilds and resolves schemas
 * ({@link walkSchema}, {@link mapSchema}, {@link resolveSchemaRef}, {@link deref}), so every pass agrees on
 * which keywords hold subschemas and which hold data.
 */
import { fail, pointer, unescapePointerToken } from '../errors.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type Draft = 'draft-07' | '2020-12';

/** A loaded schema: definitions by name, ready for the checker, the type and the validator emitters. */
export interface SchemaBundle {
  /** Display path of the source file. */
  readonly file: string;
  readonly draft: Draft;
  /** `definitions` (draft-07) or `$defs` (2020-12): where `#/<defsKey>/<Name>` refs point. */
  readonly defsKey: 'definitions' | '$defs';
  readonly defs: Readonly<Record<string, JsonObject>>;
  /**
   * Keywords the validators apply to a definition but its type leaves out, by definition name: merged into
   * the definition by the validation document (arrays appended, objects joined). A2A keeps the proto's
   * oneofs and ProtoJSON's snake_case aliases here, so the type emitter needs no knowledge of them.
   */
  readonly validationOnly?: Readonly<Record<string, JsonObject>>;
  /** For diagnostics: the JSON pointer in the source file each definition came from. */
  readonly defSource: Readonly<Record<string, string>>;
}

/** The `$schema` URI each supported draft is written with. */
export const SCHEMA_URI: Readonly<Record<Draft, string>> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

const DRAFTS: Record<string, Draft> = {
  [SCHEMA_URI['draft-07']]: 'draft-07',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  [SCHEMA_URI['2020-12']]: '2020-12',
};

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The draft a `$schema` value names, or undefined when it names none the generator reads. */
export function draftNamed(declared: Json | undefined): Draft | undefined {
  return typeof declared === 'string' && Object.hasOwn(DRAFTS, declared) ? DRAFTS[declared] : undefined;
}

/** Reads the draft a schema document declares in `$schema`; anything else is an error naming the file. */
export function draftOf(doc: JsonObject, file: string): Draft {
  const declared = doc['$schema'];
  const draft = draftNamed(declared);
  if (!draft)
    fail({
      file,
      pointer: '/$schema',
      message: `unsupported or missing $schema ${JSON.stringify(declared)}; expected one of ${Object.keys(DRAFTS).join(', ')}`,
    });
  return draft;
}

/** Builds a bundle from an MCP-style schema: a root whose `definitions`/`$defs` hold every type. */
export function bundleFromDocument(doc: unknown, file: string): SchemaBundle {
  if (!isObject(doc)) fail({ file, pointer: '', message: 'a schema document must be a JSON object' });
  const draft = draftOf(doc, file);
  const defsKey = draft === '2020-12' ? '$defs' : 'definitions';
  const defs = doc[defsKey];
  if (!isObject(defs) || Object.keys(defs).length === 0)
    fail({ file, pointer: `/${defsKey}`, message: `expected a non-empty "${defsKey}" object (the ${draft} container of definitions)` });
  const out: Record<string, JsonObject> = {};
  const defSource: Record<string, string> = {};
  for (const [name, schema] of Object.entries(defs)) {
    if (!isObject(schema)) fail({ file, pointer: `/${defsKey}/${name}`, message: 'a definition must be a JSON object' });
    out[name] = schema;
    defSource[name] = `/${defsKey}/${name}`;
  }
  checkLocalRefs(out, defsKey, file, defSource);
  return { file, draft, defsKey, defs: out, defSource };
}

/** Keywords whose value maps names (of properties, definitions, dependencies) to subschemas. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords whose value is data, never a schema. Every other object or array value is searched for subschemas. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'required']);

/** Calls `visit` for every subschema reachable through schema keywords (not through property names). */
export function walkSchema(node: Json, visit: (schema: JsonObject, path: readonly string[]) => void, path: string[] = []): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkSchema(item, visit, [...path, String(i)]));
    return;
  }
  if (!isObject(node)) return;
  visit(node, path);
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) walkSchema(sub, visit, [...path, key, name]);
    } else if (DATA_KEYWORDS.has(key)) {
    } else if (isObject(value) || Array.isArray(value)) {
      walkSchema(value, visit, [...path, key]);
    }
  }
}

/**
 * Rebuilds a schema bottom-up, reaching subschemas as {@link walkSchema} does: each is rebuilt first, then
 * `post` gets a fresh object holding the schema's keywords with the rebuilt subschemas (its own to change)
 * and returns what takes its place. Data (`enum`, `const` …) is shared, not copied; the input is not changed.
 */
export function mapSchema(node: Json, post: (schema: JsonObject) => Json): Json {
  if (Array.isArray(node)) return node.map((item) => mapSchema(item, post));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const inner: JsonObject = {};
      for (const [name, sub] of Object.entries(value)) inner[name] = mapSchema(sub, post);
      out[key] = inner;
    } else out[key] = DATA_KEYWORDS.has(key) ? value : mapSchema(value, post);
  }
  return post(out);
}

/** `schema` without the keywords `drop` names (itself when it has none of them). */
export function withoutKeywords(schema: JsonObject, drop: ReadonlySet<string>): JsonObject {
  if (!Object.keys(schema).some((k) => drop.has(k))) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) if (!drop.has(k)) out[k] = v;
  return out;
}

/** Every `$ref` must be local (`#/<defsKey>/<Name>`) and name an existing definition. */
function checkLocalRefs(defs: Record<string, JsonObject>, defsKey: string, file: string, defSource: Record<string, string>): void {
  const prefix = `#/${defsKey}/`;
  for (const [name, schema] of Object.entries(defs)) {
    walkSchema(schema, (node, path) => {
      const ref = node['$ref'];
      if (typeof ref !== 'string') return;
      const target = ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
      if (target === undefined || !(target in defs))
        fail({
          file,
          pointer: `${defSource[name] + pointer(...path)}/$ref`,
          message: `unresolved reference ${JSON.stringify(ref)}`,
        });
    });
  }
}

/** The name a local `$ref` points at, or undefined. */
export function refName(schema: Json | undefined): string | undefined {
  if (!isObject(schema) || typeof schema['$ref'] !== 'string') return undefined;
  const ref = schema['$ref'];
  const m = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  return m ? m[1] : undefined;
}

/** A manifest's reference to a schema: `Name` or `Name#/json/pointer` into that definition. */
export interface SchemaRef {
  readonly def: string;
  /** Reference tokens below the definition (empty for the definition itself). */
  readonly tokens: readonly string[];
}

export function parseSchemaRef(text: string): SchemaRef {
  const [def, frag] = text.split('#', 2) as [string, string | undefined];
  const tokens = frag ? frag.slice(1).split('/').map(unescapePointerToken) : [];
  return { def, tokens };
}

/** Resolves a schema reference in the bundle; undefined when the definition or the pointer is missing. */
export function resolveSchemaRef(bundle: Pick<SchemaBundle, 'defs'>, ref: SchemaRef): JsonObject | undefined {
  let node: Json | undefined = bundle.defs[ref.def];
  for (const t of ref.tokens) node = isObject(node) ? node[t] : Array.isArray(node) ? node[Number(t)] : undefined;
  return isObject(node) ? node : undefined;
}

/** Follows `$ref` chains (local definitions only) to the schema that carries the constraints. */
export function deref(bundle: Pick<SchemaBundle, 'defs'>, schema: JsonObject | undefined, depth = 0): JsonObject | undefined {
  const target = refName(schema);
  if (target === undefined || depth > 32) return schema;
  return deref(bundle, bundle.defs[target], depth + 1);
}
