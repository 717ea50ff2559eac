/**
 * @module spec/tool-types — what json-schema-to-typescript is given for a tool's inputSchema or outputSchema
 * (emit/spec-module.ts typeOf), so that the type it writes admits every value the schema's validator accepts and
 * compiles under a strict tsconfig beside the other tools' types:
 *
 * - every `$ref` is resolved here, as JSON Schema resolves it (against the base URI `$id`s set; a JSON
 *   pointer, an `$anchor` — draft-07: an `$id` `#name` —, or a schema's `$id`), and each schema a reference
 *   reaches becomes a type of its own, named after the tool's type (`AddArgsPoint`) through the caller's
 *   `allocate`, so two tools' `$defs/point` cannot collide; a reference that reaches nothing here (another
 *   document, `$dynamicRef`) is `unknown`;
 * - 2020-12 tuples (`prefixItems`, then `items` for the rest) are written as the draft-07 tuples the tool
 *   understands (`items: [...]`, `additionalItems`), and a draft-07 tuple without `additionalItems` admits
 *   more items, as the dialect does;
 * - properties no keyword names may be anything unless `additionalProperties` says otherwise (with
 *   `patternProperties`, the tool would give them the patterns' types);
 * - a schema without `type`, `const`, `enum`, a reference or a union admits any type of value: it is
 *   `unknown`, or, when it has object or array keywords, the union of every JSON type (the tool would make it
 *   an object); a branch of `allOf`/`anyOf`/`oneOf` admits only the type of the schema it is a branch of;
 * - `not` (whose complement no TypeScript type states) is left out, as are `title` and `$id` (the tool would
 *   name types after them), `default` and `examples` (the tool would intersect the type with the default's:
 *   a string property with `default: 3` would be `number & string`) and the tool's own keywords (`tsType`,
 *   `tsEnumNames`), which would put a schema author's text into the code as TypeScript.
 */
import { isObject, type Draft, type Json, type JsonObject } from '../load/schema.ts';
import { BASE, DATA, indexSchema, joinPointer, MAPS, resolveUri, tokens, withoutFragment } from './schema-uris.ts';

/** A type to declare: its name and the schema json-schema-to-typescript writes it from. */
export interface NamedSchema {
  readonly name: string;
  readonly schema: JsonObject;
}

/** Keywords json-schema-to-typescript reads as TypeScript or as type names; never taken from a tool schema. */
const DROPPED = new Set([
  'title',
  '$id',
  'id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$schema',
  'tsType',
  'tsEnumNames',
  'not',
  '$comment',
  'default',
  'examples',
]);
/** Keywords that say what type of value a schema admits, so json-schema-to-typescript types it rightly without `type`. */
const TYPING = ['type', 'const', 'enum', '$ref', 'anyOf', 'oneOf', 'allOf', 'tsType'];
/** Keywords of object or array values. */
const STRUCTURE = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'minItems',
  'maxItems',
  'uniqueItems',
];
const ALL_TYPES = ['object', 'array', 'string', 'number', 'boolean', 'null'];
/** Keywords whose branches apply to the same value as the schema holding them. */
const BRANCHES = new Set(['allOf', 'anyOf', 'oneOf']);

/** The node at a JSON pointer of `root`, when there is one. */
function at(root: JsonObject, pointer: string): Json | undefined {
  let node: Json | undefined = root;
  for (const t of tokens(pointer) ?? []) node = isObject(node) ? node[t] : Array.isArray(node) ? node[Number(t)] : undefined;
  return node;
}

/** The pointer a `$ref` found at a node whose base URI is `base` reaches in `root`, or undefined. */
function refTarget(ref: string, base: string, root: JsonObject, index: ReturnType<typeof indexSchema>): string | undefined {
  const uri = resolveUri(ref, base);
  if (!uri) return undefined;
  const resource = index.resources.get(withoutFragment(uri.href));
  if (resource === undefined) return undefined;
  const fragment = decodeURIComponent(uri.hash.replace(/^#/, ''));
  let target: string | undefined;
  if (fragment === '' || fragment.startsWith('/')) {
    const rest = tokens(fragment);
    target = rest && resource + rest.map((t) => joinPointer('', t)).join('');
  } else target = index.anchors.get(`${withoutFragment(uri.href)}#${fragment}`);
  return target !== undefined && (isObject(at(root, target)) || typeof at(root, target) === 'boolean') ? target : undefined;
}

/** `point_of-interest` → `PointOfInterest`. */
const pascal = (text: string) => text.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');

/**
 * The schemas to declare for one tool schema: first `name` itself, then one per schema a `$ref` reaches
 * (each named by `allocate`, which keeps every name of the module unique). Each one's references are
 * `tsType` names of the others.
 */
export function typeSchemas(schema: JsonObject, dialect: Draft, name: string, allocate: (base: string) => string): NamedSchema[] {
  const index = indexSchema(schema, dialect);
  // Every reachable reference target, named in the order found; the root is `name`.
  const names = new Map<string, string>([['', name]]);
  const targets: string[] = [''];
  const targetOf = (node: JsonObject, pointer: string): string | undefined => {
    const ref = node['$ref'];
    if (typeof ref !== 'string') return undefined;
    const target = refTarget(ref, index.bases.get(pointer) ?? BASE, schema, index);
    if (target !== undefined && !names.has(target)) {
      const last = tokens(target)?.at(-1) ?? '';
      names.set(target, allocate(`${name}${pascal(last) || 'Ref'}`));
      targets.push(target);
    }
    return target;
  };
  // `inherited`: the `type` of the schema whose allOf/anyOf/oneOf branch this is (the value has it too).
  const rewrite = (node: Json, pointer: string, top: boolean, inherited?: Json): Json => {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) return node;
    // A schema another reference reaches is declared once, under its own name.
    if (!top && names.has(pointer) && pointer !== '') return { tsType: names.get(pointer)! };
    const out: JsonObject = {};
    const ref = targetOf(node, pointer);
    const type = node['type'] ?? inherited;
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED.has(key) || key === '$ref' || key === '$defs' || key === 'definitions') continue;
      const here = joinPointer(pointer, key);
      if (DATA.has(key)) out[key] = key === 'required' && Array.isArray(value) ? value.filter((v) => v !== '__proto__') : value;
      else if (MAPS.has(key) && isObject(value)) {
        const inner: JsonObject = {};
        // `__proto__` as a key would set the copy's prototype: a property of that name is not typed.
        for (const [k, v] of Object.entries(value)) if (k !== '__proto__') inner[k] = rewrite(v, joinPointer(here, k), false);
        out[key] = inner;
      } else if (Array.isArray(value)) out[key] = value.map((v, i) => rewrite(v, `${here}/${i}`, false, BRANCHES.has(key) ? type : undefined));
      else out[key] = rewrite(value, here, false);
    }
    if (ref !== undefined) out['tsType'] = ref === '' ? name : names.get(ref)!;
    else if (typeof node['$ref'] === 'string' || typeof node['$dynamicRef'] === 'string') out['tsType'] = 'unknown';
    return acceptable(withOtherProperties(withTuples(untyped(out, inherited), dialect)));
  };
  // Every target first, so a schema is declared under its own name wherever it is reached.
  const collect = (node: Json, pointer: string): void => {
    if (Array.isArray(node)) node.forEach((n, i) => collect(n, `${pointer}/${i}`));
    if (!isObject(node)) return;
    targetOf(node, pointer);
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key)) continue;
      const here = joinPointer(pointer, key);
      if (MAPS.has(key) && isObject(value)) for (const [k, v] of Object.entries(value)) collect(v, joinPointer(here, k));
      else collect(value, here);
    }
  };
  collect(schema, '');
  const declared: NamedSchema[] = [];
  for (let i = 0; i < targets.length; i++) {
    const pointer = targets[i]!;
    const node = at(schema, pointer);
    const rewritten = rewrite(node ?? {}, pointer, true);
    declared.push({ name: names.get(pointer)!, schema: isObject(rewritten) ? rewritten : rewritten === false ? { tsType: 'never' } : {} });
  }
  return declared;
}

/**
 * A schema that states no type of value admits them all (see the module comment), or those of `inherited`,
 * the type of the schema it is a branch of.
 */
function untyped(schema: JsonObject, inherited: Json | undefined): JsonObject {
  if (TYPING.some((k) => k in schema)) return schema;
  if (inherited !== undefined) return { ...schema, type: inherited };
  if (STRUCTURE.some((k) => k in schema)) return { ...schema, type: ALL_TYPES };
  return { ...schema, tsType: 'unknown' };
}

/**
 * Properties no keyword names, when the schema has `patternProperties` and no `additionalProperties`, may be
 * anything; json-schema-to-typescript would give them only the patterns' types.
 */
function withOtherProperties(schema: JsonObject): JsonObject {
  return isObject(schema['patternProperties']) && !('additionalProperties' in schema) ? { ...schema, additionalProperties: true } : schema;
}

/**
 * What json-schema-to-typescript refuses to read, though the schema is valid (it would throw): `minItems`
 * above `maxItems` (an array schema no array satisfies: its bounds are left out of the type) and a `deprecated`
 * that is not a boolean (draft-07 has no such keyword, so any value is an annotation).
 */
function acceptable(schema: JsonObject): JsonObject {
  const { minItems, maxItems, deprecated, ...rest } = schema;
  const bounds = typeof minItems === 'number' && typeof maxItems === 'number' && minItems > maxItems ? {} : { minItems, maxItems };
  const kept: JsonObject = { ...rest };
  for (const [k, v] of Object.entries({ ...bounds, deprecated: typeof deprecated === 'boolean' ? deprecated : undefined }))
    if (v !== undefined) kept[k] = v;
  return kept;
}

/** Tuples as json-schema-to-typescript reads them (draft-07's `items` array and `additionalItems`). */
function withTuples(schema: JsonObject, dialect: Draft): JsonObject {
  if (dialect === '2020-12') {
    if (!Array.isArray(schema['prefixItems'])) return schema;
    const { prefixItems, items, additionalItems, ...rest } = schema;
    return { ...rest, items: prefixItems, additionalItems: items ?? true };
  }
  if (Array.isArray(schema['items']) && !('additionalItems' in schema)) return { ...schema, additionalItems: true };
  return schema;
}
