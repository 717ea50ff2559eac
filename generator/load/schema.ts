/**
 * @module load/schema — the normalised form every later pass reads: one JSON Schema document with its
 * draft, and its definitions by name.
 */
import { fail } from '../errors.ts';

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
  /** For diagnostics: the JSON pointer in the source file each definition came from. */
  readonly defSource: Readonly<Record<string, string>>;
}

const DRAFTS: Record<string, Draft> = {
  'http://json-schema.org/draft-07/schema#': 'draft-07',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the draft a schema document declares in `$schema`; anything else is an error naming the file. */
export function draftOf(doc: JsonObject, file: string): Draft {
  const declared = doc['$schema'];
  const draft = typeof declared === 'string' ? DRAFTS[declared] : undefined;
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
    fail({ file, pointer: '/' + defsKey, message: `expected a non-empty "${defsKey}" object (the ${draft} container of definitions)` });
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

/** Calls `visit` for every subschema reachable through schema keywords (not through property names). */
export function walkSchema(node: Json, visit: (schema: JsonObject, path: readonly string[]) => void, path: string[] = []): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkSchema(item, visit, [...path, String(i)]));
    return;
  }
  if (!isObject(node)) return;
  visit(node, path);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions' || key === 'dependentSchemas') {
      if (isObject(value)) for (const [name, sub] of Object.entries(value)) walkSchema(sub, visit, [...path, key, name]);
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'required') {
      continue; // values, not schemas
    } else if (isObject(value) || Array.isArray(value)) {
      walkSchema(value, visit, [...path, key]);
    }
  }
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
          pointer: defSource[name] + path.map((t) => '/' + t).join('') + '/$ref',
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
  const tokens = frag ? frag.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')) : [];
  return { def, tokens };
}

/** Resolves a schema reference in the bundle; undefined when the definition or the pointer is missing. */
export function resolveSchemaRef(bundle: SchemaBundle, ref: SchemaRef): JsonObject | undefined {
  let node: Json | undefined = bundle.defs[ref.def];
  for (const t of ref.tokens) node = isObject(node) ? node[t] : Array.isArray(node) ? node[Number(t)] : undefined;
  return isObject(node) ? node : undefined;
}

/** Follows `$ref` chains (local definitions only) to the schema that carries the constraints. */
export function deref(bundle: SchemaBundle, schema: JsonObject | undefined, depth = 0): JsonObject | undefined {
  const target = refName(schema);
  if (target === undefined || depth > 32) return schema;
  return deref(bundle, bundle.defs[target], depth + 1);
}
