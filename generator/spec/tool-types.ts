/**
 * @module spec/tool-types — what json-schema-to-typescript is given for a tool's inputSchema or outputSchema
 * (emit/fixture.ts typeOf), so that the type it writes admits every value the schema's validator accepts and
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
 *   an object);
 * - `not` (whose complement no TypeScript type states) is left out, as are `title` and `$id` (the tool would
 *   name types after them), `default` (the tool would intersect the type with the default's: a string
 *   property with `default: 3` would be `number & string`) and the tool's own keywords (`tsType`, `tsEnumNames`), which would put a schema
 *   author's text into the code as TypeScript.
 */
import { isObject, type Draft, type Json, type JsonObject } from '../load/schema.ts';

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
]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'required', 'dependentRequired']);
/** Keywords that map names to subschemas. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
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

const BASE = 'https://wiregen.invalid/tool-schema.json';

/** A JSON pointer's reference tokens (the fragment of a URI, percent-decoded). */
function tokens(pointer: string): string[] | undefined {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  try {
    return pointer
      .split('/')
      .slice(1)
      .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

const joinPointer = (at: string, key: string) => `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const withoutFragment = (uri: string) => uri.replace(/#.*$/, '');

/** A URI against a base; undefined when it is not one. */
function resolveUri(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

/**
 * Where every schema resource (a schema with an `$id`) and every plain-name anchor of `root` is, by absolute
 * URI, and the base URI of every node by its JSON pointer.
 */
function indexSchema(root: JsonObject, dialect: Draft) {
  const resources = new Map<string, string>();
  const anchors = new Map<string, string>();
  const bases = new Map<string, string>();
  const visit = (node: Json, at: string, base: string): void => {
    if (Array.isArray(node)) {
      node.forEach((n, i) => visit(n, `${at}/${i}`, base));
      return;
    }
    if (!isObject(node)) return;
    let here = base;
    const id = node['$id'];
    if (typeof id === 'string') {
      if (dialect === 'draft-07' && id.startsWith('#')) anchors.set(`${withoutFragment(base)}${id}`, at);
      else {
        const uri = resolveUri(id, base);
        if (uri) {
          here = withoutFragment(uri.href);
          resources.set(here, at);
        }
      }
    }
    for (const key of dialect === '2020-12' ? ['$anchor', '$dynamicAnchor'] : []) {
      const name = node[key];
      if (typeof name === 'string') anchors.set(`${here}#${name}`, at);
    }
    bases.set(at, here);
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key)) continue;
      if (MAPS.has(key) && isObject(value))
        for (const [name, sub] of Object.entries(value)) visit(sub, joinPointer(joinPointer(at, key), name), here);
      else visit(value, joinPointer(at, key), here);
    }
  };
  resources.set(BASE, '');
  visit(root, '', BASE);
  return { resources, anchors, bases };
}

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
  const rewrite = (node: Json, pointer: string, top: boolean): Json => {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) return node;
    // A schema another reference reaches is declared once, under its own name.
    if (!top && names.has(pointer) && pointer !== '') return { tsType: names.get(pointer)! };
    const out: JsonObject = {};
    const ref = targetOf(node, pointer);
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED.has(key) || key === '$ref' || key === '$defs' || key === 'definitions') continue;
      const here = joinPointer(pointer, key);
      if (DATA.has(key)) out[key] = key === 'required' && Array.isArray(value) ? value.filter((v) => v !== '__proto__') : value;
      else if (MAPS.has(key) && isObject(value)) {
        const inner: JsonObject = {};
        // `__proto__` as a key would set the copy's prototype: a property of that name is not typed.
        for (const [k, v] of Object.entries(value)) if (k !== '__proto__') inner[k] = rewrite(v, joinPointer(here, k), false);
        out[key] = inner;
      } else if (Array.isArray(value)) out[key] = value.map((v, i) => rewrite(v, `${here}/${i}`, false));
      else out[key] = rewrite(value, here, false);
    }
    if (ref !== undefined) out['tsType'] = ref === '' ? name : names.get(ref)!;
    else if (typeof node['$ref'] === 'string' || typeof node['$dynamicRef'] === 'string') out['tsType'] = 'unknown';
    return withOtherProperties(withTuples(untyped(out), dialect));
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

/** A schema that states no type of value admits them all (see the module comment). */
function untyped(schema: JsonObject): JsonObject {
  if (TYPING.some((k) => k in schema)) return schema;
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
