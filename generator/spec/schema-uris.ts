/**
 * @module spec/schema-uris — how a tool schema's references find their targets (JSON Schema 2020-12 core §8.2
 * and §9, https://json-schema.org/draft/2020-12/json-schema-core#section-8.2; draft-07's `$id`, including
 * its `#name` anchors): the base URI of every subschema, where each schema resource and plain-name anchor
 * is, and a copy of a schema whose resources have names of their own ({@link withUniqueIds}).
 */
import { isObject, type Draft, type Json, type JsonObject } from '../load/schema.ts';

/** Keywords whose value is data, never a schema. */
export const DATA: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'required', 'dependentRequired']);
/** Keywords that map names to subschemas. */
export const MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/** The base URI of a schema without `$id` (any absolute URI would do: it only resolves relative references). */
export const BASE = 'https://wiregen.invalid/tool-schema.json';

/** A JSON pointer's reference tokens (the fragment of a URI, percent-decoded). */
export function tokens(pointer: string): string[] | undefined {
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

export const joinPointer = (at: string, key: string) => `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
export const withoutFragment = (uri: string) => uri.replace(/#.*$/, '');

/** A URI against a base; undefined when it is not one. */
export function resolveUri(ref: string, base: string): URL | undefined {
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
export function indexSchema(root: JsonObject, dialect: Draft) {
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

/**
 * `schema` with each schema resource in it renamed: the root `urn`, each other one (a subschema with an
 * `$id`) `urn:1`, `urn:2`…; every reference into them (by its URI, resolved against its base) rewritten to
 * the new name, fragment kept; references by fragment alone, and to anything outside the schema, as they
 * are. The same verdicts, but two schemas that reuse one `$id` (a tool's input and output, two tools) can be
 * compiled side by side by one ajv instance, which keys schemas by `$id`.
 */
export function withUniqueIds(schema: JsonObject, dialect: Draft, urn: string): JsonObject {
  const index = indexSchema(schema, dialect);
  const renamed = new Map<string, string>();
  let next = 0;
  for (const [uri, at] of index.resources) renamed.set(uri, at === '' ? urn : `${urn}:${++next}`);
  const rewrite = (node: Json, at: string): Json => {
    if (Array.isArray(node)) return node.map((n, i) => rewrite(n, `${at}/${i}`));
    if (!isObject(node)) return node;
    const base = index.bases.get(at) ?? BASE;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      const here = joinPointer(at, key);
      if (key === '$id' && typeof value === 'string' && !(dialect === 'draft-07' && value.startsWith('#'))) out[key] = renamed.get(base) ?? value;
      else if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string' && !value.startsWith('#')) {
        const uri = resolveUri(value, base);
        const target = uri && renamed.get(withoutFragment(uri.href));
        out[key] = uri && target !== undefined ? `${target}${uri.hash}` : value;
      } else if (DATA.has(key)) out[key] = value;
      else if (MAPS.has(key) && isObject(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, joinPointer(here, k))]));
      else out[key] = rewrite(value, here);
    }
    return out;
  };
  return { ...(rewrite(schema, '') as JsonObject), $id: urn };
}
