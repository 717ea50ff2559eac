/**
 * @module test/helpers/schema-sample — values a scripted client sends when nothing tells it what to send: tool
 * arguments sampled from a tool's inputSchema, form-elicitation answers (every field, its `default` when it has
 * one), and the rule for `x-mcp-header` annotations a client must refuse (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports).
 *
 * Only same-document `$ref`s (`#/…`) are followed; a ref to anything else is never fetched (SEP-2106) and
 * samples as an empty object.
 */
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An RFC 9110 token: the only valid `x-mcp-header` names. */
const TOKEN = /^[!#$%&'*+\-.^_|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
const MAX_DEPTH = 8;

/** Follows a same-document JSON pointer ref; undefined for any other ref. */
function resolveRef(ref: string, root: JsonObject): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}

function sampleString(schema: JsonObject): string {
  const format = schema['format'];
  if (format === 'uri' || format === 'url') return 'https://example.com/sample';
  if (format === 'email') return 'sample@example.com';
  if (format === 'date-time') return '2026-01-01T00:00:00Z';
  if (format === 'date') return '2026-01-01';
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  return 'sample'.padEnd(min, 'x');
}

/** A value that `schema` accepts in the common cases (const, default, enum, the first branch of a union, the type). */
export function sampleValue(schema: unknown, root: JsonObject = isObject(schema) ? schema : {}, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return 'sample';
  if ('const' in schema) return schema['const'];
  if ('default' in schema) return schema['default'];
  if (Array.isArray(schema['enum']) && schema['enum'].length) return schema['enum'][0];
  if (Array.isArray(schema['examples']) && schema['examples'].length) return schema['examples'][0];
  if (typeof schema['$ref'] === 'string') {
    const target = resolveRef(schema['$ref'], root);
    return target === undefined ? {} : sampleValue(target, root, depth + 1);
  }
  // A titled enum (SEP-1330: oneOf/anyOf of `const` branches beside `type`): its first option, not any string.
  const options = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(options) && options.length && options.every((o) => isObject(o) && 'const' in o)) return (options[0] as JsonObject)['const'];
  for (const union of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[union];
    if (Array.isArray(branches) && branches.length && schema['type'] === undefined) return sampleValue(branches[0], root, depth + 1);
  }
  const types = Array.isArray(schema['type']) ? (schema['type'] as unknown[]) : [schema['type']];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObject(schema['properties']) ? 'object' : undefined);
  switch (type) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return typeof schema['minItems'] === 'number' && schema['minItems'] > 0
        ? Array.from({ length: schema['minItems'] }, () => sampleValue(schema['items'], root, depth + 1))
        : [];
    case 'object':
      return sampleObject(schema, root, depth, () => false);
    default:
      return 'sample';
  }
}

function sampleObject(schema: JsonObject, root: JsonObject, depth: number, include: (property: string, sub: JsonObject) => boolean): JsonObject {
  const out: JsonObject = {};
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const props = isObject(schema['properties']) ? schema['properties'] : {};
  for (const [name, sub] of Object.entries(props))
    if (required.has(name) || (isObject(sub) && include(name, sub))) out[name] = sampleValue(sub, root, depth + 1);
  return out;
}

/** Arguments for a tool: every required property, plus every property mirrored into an Mcp-Param header. */
export function sampleArguments(inputSchema: unknown): JsonObject {
  if (!isObject(inputSchema)) return {};
  return sampleObject(inputSchema, inputSchema, 0, (_name, sub) => typeof sub['x-mcp-header'] === 'string');
}

/** A form elicitation's content: every requested field, its default when it has one (SEP-1034). */
export function sampleElicitation(requestedSchema: unknown): JsonObject {
  if (!isObject(requestedSchema)) return {};
  return sampleObject(requestedSchema, requestedSchema, 0, () => true);
}

/**
 * Why a tool's `x-mcp-header` annotations are invalid (empty when they are all valid): a name that is not a
 * non-empty RFC 9110 token, a property whose type is not exactly string, integer or boolean, a name used twice
 * (ignoring case), or an annotation not directly on a property of the input schema's root.
 */
export function invalidHeaderAnnotations(inputSchema: unknown): string[] {
  const reasons: string[] = [];
  const seen = new Map<string, string>();
  const rootProps = isObject(inputSchema) && isObject(inputSchema['properties']) ? inputSchema['properties'] : {};
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${path}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'x-mcp-header') {
        walk(value, `${path}/${key}`);
        continue;
      }
      const property = /^\/properties\/([^/]+)$/.exec(path)?.[1];
      if (property === undefined || rootProps[property] !== node) reasons.push(`${path}: x-mcp-header is not on a property of the root`);
      if (typeof value !== 'string' || !TOKEN.test(value)) reasons.push(`${path}: x-mcp-header ${JSON.stringify(value)} is not an RFC 9110 token`);
      if (typeof node['type'] !== 'string' || !HEADER_TYPES.has(node['type']))
        reasons.push(`${path}: type ${JSON.stringify(node['type'])} cannot be mirrored`);
      if (typeof value === 'string') {
        const other = seen.get(value.toLowerCase());
        if (other !== undefined) reasons.push(`${path}: x-mcp-header ${value} repeats ${other}`);
        seen.set(value.toLowerCase(), path);
      }
    }
  };
  walk(inputSchema, '');
  return reasons;
}
