/**
 * @module test/spec/schema-arbitrary — fast-check arbitraries of tool schemas and of values to try them on,
 * for the schema-parity property (schema-parity.property.test.ts).
 *
 * A schema is a tool's inputSchema or outputSchema: an object schema (`type: object` at the root, as MCP's
 * Tool requires of inputSchema) in JSON Schema 2020-12 or draft-07, built from every keyword the dialect has:
 * types and type lists with `null`, `const`, `enum`, string, number and array bounds, `pattern`, every
 * ajv-formats format, `properties`/`required`/`additionalProperties` (nested, closed or a schema),
 * `patternProperties`, `propertyNames`, `dependentRequired`/`dependentSchemas` (draft-07: `dependencies`),
 * `prefixItems`/`items` (draft-07: `items` arrays, `additionalItems`), `contains` with its bounds, the
 * unevaluated keywords, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, boolean schemas, and `$ref` to
 * `$defs` (draft-07: `definitions`) by pointer and by anchor, a recursive definition, and the root. A
 * reference that would recurse without consuming the value (a cycle ajv loops on) is never made.
 *
 * The values are drawn from the schema (its constants, the edges of its bounds, strings for its patterns and
 * formats, objects with its property names), with any JSON value now and then, so both verdicts come up.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import ajvFormatsModule from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };
export type Dialect = '2020-12' | 'draft-07';

export const FORMATS = Object.keys((ajvFormatsModule as unknown as { fullFormats: object }).fullFormats);
const NUMBER_FORMATS = ['int32', 'int64', 'float', 'double'];
const STRING_FORMATS = FORMATS.filter((f) => !NUMBER_FORMATS.includes(f));

/** Property names: plain ones, and names of keywords (a name is data, never the keyword). */
const KEYS = ['a', 'b', 'c', 'id', 'n_1', 'x-y', 'Ünï', 'description', 'type'];
const PATTERNS = ['^a', 'b$', '^[0-9]+$', '\\d', '^\\p{Lu}', '^(x|y)+$', '^.{2,3}$', '_'];
/** Strings values are drawn from: some match the patterns above, some are valid in a format, some in none. */
const STRINGS = [
  '',
  'a',
  'ab',
  'abc',
  'b',
  'x',
  'xy',
  'A',
  'Zed',
  '12',
  '7',
  'n_1',
  '😀😀',
  'a\u0301',
  '2026-02-28',
  '2026-02-30',
  '12:30:00Z',
  '2026-01-01T00:00:00Z',
  'P1D',
  'https://example.com/a?b#c',
  '/rel/path',
  '/users{/id}',
  'a@example.com',
  'example.com',
  '192.168.0.1',
  '::1',
  '^a+$',
  '(open',
  '123e4567-e89b-12d3-a456-426614174000',
  '/a~1b',
  '#/a',
  '1/a',
  'aGVsbG8=',
];
const NUMBERS = [0, 1, -1, 2, 3, 2.5, -7.5, 10, 100, 0.1, 1e9, 2147483648, 4.000000000000001];
const SCALARS: Json[] = [null, true, false, 0, 1, 'a', '', 2.5];

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
/** `{...base, ...some of the optional fields}`, each present one time in `1 / every` (so most schemas stay satisfiable). */
function withSome(base: JsonObject, optional: Record<string, fc.Arbitrary<Json>>, every = 4): fc.Arbitrary<JsonObject> {
  const fields = Object.entries(optional).map(([key, arb]) =>
    fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb.map((v) => [key, v] as const) }),
  );
  return fc.tuple(...fields).map((entries) => {
    const out: JsonObject = { ...base };
    for (const entry of entries) if (entry) out[entry[0]] = entry[1];
    return out;
  });
}

/** A small JSON value (for `const`, `enum`, and the values tried). */
export const smallJson: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    pick(SCALARS),
    pick(STRINGS),
    pick(NUMBERS),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(pick(KEYS), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** How a dialect spells what 2020-12 and draft-07 both have. */
interface Spelling {
  readonly dialect: Dialect;
  readonly defs: '$defs' | 'definitions';
}

/** Leaf schemas: one type and its own keywords, a constant, an enum, a boolean schema, the empty schema. */
function leaf(): fc.Arbitrary<Json> {
  const string = withSome(
    { type: 'string' },
    { minLength: fc.nat(3), maxLength: fc.integer({ min: 1, max: 4 }), pattern: pick(PATTERNS), format: pick(STRING_FORMATS) },
  );
  const number = fc.constantFrom('number', 'integer').chain((type) =>
    withSome(
      { type },
      {
        minimum: pick(NUMBERS),
        maximum: pick(NUMBERS),
        exclusiveMinimum: pick(NUMBERS),
        exclusiveMaximum: pick(NUMBERS),
        multipleOf: pick([2, 0.5, 3, 0.1]),
        format: pick(NUMBER_FORMATS),
      },
    ),
  );
  const nullable = fc.constantFrom<Json>(
    ['string', 'null'],
    ['integer', 'null'],
    ['number', 'string'],
    ['object', 'null'],
    ['array', 'boolean', 'null'],
  );
  const schema = fc.oneof(
    { weight: 4, arbitrary: string },
    { weight: 3, arbitrary: number },
    pick<Json>([{ type: 'boolean' }, { type: 'null' }, true, false, {}]),
    fc.record({ type: nullable }),
    fc.record({ const: smallJson }),
    fc.record({ enum: fc.uniqueArray(smallJson, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }) }),
  );
  return fc.tuple(schema, annotations).map(([s, a]) => (typeof s === 'object' && s !== null && !Array.isArray(s) ? { ...a, ...s } : s));
}

/** Keywords that only annotate (the validators leave them out, the types make comments of some). */
const annotations: fc.Arbitrary<JsonObject> = withSome(
  {},
  {
    description: pick(['A value.', 'ends */ early', '']),
    title: pick(['Title', 'Point']),
    default: smallJson,
    examples: fc.array(smallJson, { maxLength: 2 }),
    $comment: fc.constant('c'),
  },
  8,
);

/**
 * A schema of at most `depth` levels of subschemas. `refs` are the `$ref` values it may use (none below the
 * definitions, so no definition reaches itself except through a value's own parts).
 */
export function schemaArb(s: Spelling, depth: number, refs: readonly string[]): fc.Arbitrary<Json> {
  if (depth <= 0) return refs.length ? fc.oneof({ weight: 4, arbitrary: leaf() }, fc.record({ $ref: pick(refs) })) : leaf();
  const sub = schemaArb(s, depth - 1, refs);
  // A reference to the root consumes a property or an item of the value: only there.
  const consuming = refs.length ? fc.oneof({ weight: 5, arbitrary: sub }, pick<Json>([{ $ref: '#' }])) : sub;
  return fc.oneof(
    { weight: 8, arbitrary: leaf() },
    { weight: 3, arbitrary: objectArb(s, consuming, sub) },
    { weight: 3, arbitrary: arrayArb(s, consuming, sub) },
    { weight: 1, arbitrary: fc.record({ allOf: fc.array(sub, { minLength: 1, maxLength: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ anyOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ oneOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ not: sub }) },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, never awaited
    { weight: 1, arbitrary: fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ['if'] }) },
  );
}

/** An object schema: `properties` (`value` schemas), `required`, and the dialect's other object keywords. */
export function objectArb(s: Spelling, value: fc.Arbitrary<Json>, other: fc.Arbitrary<Json>): fc.Arbitrary<JsonObject> {
  const common: Record<string, fc.Arbitrary<Json>> = {
    additionalProperties: fc.oneof(fc.boolean(), other),
    patternProperties: fc.dictionary(pick(PATTERNS), other, { minKeys: 1, maxKeys: 2 }),
    propertyNames: fc.oneof(fc.record({ pattern: pick(PATTERNS) }), fc.record({ maxLength: fc.integer({ min: 1, max: 3 }) })),
    minProperties: fc.nat(2),
    maxProperties: fc.integer({ min: 1, max: 4 }),
  };
  const own: Record<string, fc.Arbitrary<Json>> = s.dialect === '2020-12'
    ? {
        dependentRequired: fc.dictionary(pick(KEYS), fc.subarray(KEYS, { maxLength: 2 }), { minKeys: 1, maxKeys: 2 }),
        dependentSchemas: fc.dictionary(pick(KEYS), other, { minKeys: 1, maxKeys: 1 }),
        unevaluatedProperties: fc.oneof(fc.constant(false), other),
      }
    : { dependencies: fc.dictionary(pick(KEYS), fc.oneof(fc.subarray(KEYS, { maxLength: 2 }), other), { minKeys: 1, maxKeys: 2 }) };
  // Properties, and required ones among them (now and then one that is not among them), then the rest.
  const named = fc.tuple(fc.dictionary(pick(KEYS), value, { maxKeys: 4 }), fc.subarray(KEYS, { maxLength: 2 })).chain(([properties, extra]) =>
    fc.subarray(Object.keys(properties)).map((required): JsonObject => {
      const all = [...new Set([...required, ...(extra.length === 2 ? extra.slice(0, 1) : [])])];
      return { properties, ...(all.length ? { required: all } : {}) };
    }),
  );
  return fc.tuple(named, withSome({ type: 'object' }, { ...common, ...own }, 6)).map(([n, rest]) => ({ ...rest, ...n }));
}

/** An array schema: items, tuples, bounds, `contains`, in the dialect's spelling. */
export function arrayArb(s: Spelling, value: fc.Arbitrary<Json>, other: fc.Arbitrary<Json>): fc.Arbitrary<JsonObject> {
  const common: Record<string, fc.Arbitrary<Json>> = {
    minItems: fc.nat(2),
    maxItems: fc.integer({ min: 1, max: 4 }),
    uniqueItems: fc.boolean(),
    contains: other,
  };
  const own: Record<string, fc.Arbitrary<Json>> = s.dialect === '2020-12'
    ? {
        items: fc.oneof(value, fc.constant(false)),
        prefixItems: fc.array(value, { minLength: 1, maxLength: 3 }),
        minContains: fc.nat(2),
        maxContains: fc.integer({ min: 1, max: 3 }),
        unevaluatedItems: fc.oneof(fc.constant(false), other),
      }
    : { items: fc.oneof(value, fc.array(value, { minLength: 1, maxLength: 3 })), additionalItems: fc.oneof(fc.boolean(), other) };
  return withSome({ type: 'array' }, { ...common, ...own }, 3);
}

/**
 * A tool schema of `dialect`: an object schema at the root, with definitions it may refer to (a plain one, one
 * named by an anchor, a recursive tree), and `$schema` naming draft-07 when it is one.
 */
export function toolSchemaArb(dialect: Dialect): fc.Arbitrary<JsonObject> {
  const s: Spelling = { dialect, defs: dialect === '2020-12' ? '$defs' : 'definitions' };
  const anchor: JsonObject = dialect === '2020-12' ? { $anchor: 'named' } : { $id: '#named' };
  const refs = [`#/${s.defs}/plain`, '#named', `#/${s.defs}/tree`];
  const tree = {
    type: 'object',
    properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: `#/${s.defs}/tree` } } },
    required: ['v'],
  };
  const defs = fc.record({ plain: schemaArb(s, 1, []), named: schemaArb(s, 1, []) }).map(({ plain, named }): JsonObject => ({
    plain,
    named: typeof named === 'object' && named !== null && !Array.isArray(named) ? { ...named, ...anchor } : { allOf: [named], ...anchor },
    tree,
  }));
  const value = schemaArb(s, 2, refs);
  return fc
    .record({
      root: objectArb(s, value, schemaArb(s, 1, refs)),
      defs: fc.option(defs, { freq: 2 }),
      extra: fc.option(rootExtraArb(s), { freq: 3 }),
    })
    .map(({ root, defs: d, extra }) => {
      const schema: JsonObject = { ...(dialect === 'draft-07' ? { $schema: 'http://json-schema.org/draft-07/schema#' } : {}), ...root };
      if (extra) Object.assign(schema, extra);
      // A reference needs its definitions: without them, the references are taken out.
      if (d) schema[s.defs] = d;
      // Through JSON, as a spec file has it (fast-check's dictionaries have no prototype).
      return JSON.parse(JSON.stringify(d ? schema : withoutRefs(schema))) as JsonObject;
    });
}

/**
 * Keywords beside the root's own: `allOf` of object schemas, or `if`/`then`/`else` choosing by a property's
 * value which properties are required (the conditional forms tool schemas use).
 */
function rootExtraArb(s: Spelling): fc.Arbitrary<JsonObject> {
  const objectPart = objectArb(s, schemaArb(s, 1, []), leaf());
  const condition = fc
    .record({ key: pick(KEYS), value: pick(SCALARS) })
    .map(({ key, value }): JsonObject => ({ properties: { [key]: { const: value } }, required: [key] }));
  const requires = fc.subarray(KEYS, { minLength: 1, maxLength: 2 }).map((required): JsonObject => ({ required }));
  return fc.oneof(
    fc.record({ allOf: fc.array(objectPart, { minLength: 1, maxLength: 2 }) }),
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, never awaited
    fc.record({ if: condition, then: fc.oneof(requires, objectPart), else: fc.oneof(requires, objectPart) }, { requiredKeys: ['if'] }),
  );
}

/** `node` with every `$ref` to a definition replaced by the empty schema. */
function withoutRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutRefs);
  if (typeof node !== 'object' || node === null) return node;
  if (typeof node['$ref'] === 'string' && node['$ref'] !== '#') return {};
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'enum' || k === 'const' ? v : withoutRefs(v)]));
}

const isObj = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema a same-document `$ref` names in `root` (pointers and the one anchor the arbitraries make). */
function resolveRef(ref: string, root: JsonObject): Json | undefined {
  if (ref === '#') return root as Json;
  if (ref === '#named') {
    for (const defs of [root['$defs'], root['definitions']]) if (isObj(defs)) return defs['named'];
    return undefined;
  }
  let node: Json | undefined = root as Json;
  for (const t of ref.slice(2).split('/')) node = isObj(node) ? node[t] : undefined;
  return node;
}

/** Numbers near a schema's bounds, and multiples of its `multipleOf`. */
function numbersFor(schema: { [k: string]: Json }): number[] {
  const out = [...NUMBERS];
  for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const n = schema[k];
    if (typeof n === 'number') out.push(n, n + 1, n - 1, n + 0.5);
  }
  if (typeof schema['multipleOf'] === 'number') out.push(schema['multipleOf'] * 3, schema['multipleOf'] * 7);
  return out;
}

/**
 * Values to try `schema` on (`root` is the tool schema its references resolve in): mostly shaped by the
 * schema, sometimes any small JSON value; `depth` bounds recursion through references.
 */
export function instanceArb(schema: Json | undefined, root: JsonObject, depth = 0): fc.Arbitrary<Json> {
  if (!isObj(schema) || depth > 6) return smallJson;
  const shaped = shapedArb(schema, root, depth);
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: smallJson });
}

function shapedArb(schema: { [k: string]: Json }, root: JsonObject, depth: number): fc.Arbitrary<Json> {
  const next = (sub: Json | undefined) => instanceArb(sub, root, depth + 1);
  if (typeof schema['$ref'] === 'string') return next(resolveRef(schema['$ref'], root));
  if ('const' in schema) return fc.constant(schema['const']!);
  if (Array.isArray(schema['enum'])) return pick(schema['enum']);
  const branches = [...['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as Json[]) : []))];
  for (const k of ['then', 'else', 'if']) if (schema[k] !== undefined) branches.push(schema[k]!);
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : typeof schema['type'] === 'string' ? [schema['type']] : [];
  const byType = types.map((type) => typedArb(type, schema, root, depth));
  if (!byType.length && !branches.length) return smallJson;
  return fc.oneof(...byType, ...branches.map((b) => next(b)));
}

/** Checks a scalar's own keywords, to draw strings and numbers that satisfy them more often than chance would. */
const scalarChecker = new Ajv2020.default({ strict: false });
addFormats.default(scalarChecker);
const scalarChecks = new Map<string, (v: unknown) => boolean>();
const SCALAR_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

/** Mostly the values of `pool` that `schema`'s scalar keywords (for `type`) accept, when any do; otherwise any of them. */
function scalarArb<T extends Json>(type: string, schema: { [k: string]: Json }, pool: readonly T[]): fc.Arbitrary<T> {
  const own: { [k: string]: Json } = { type };
  for (const k of SCALAR_KEYWORDS) if (schema[k] !== undefined) own[k] = schema[k]!;
  const key = JSON.stringify(own);
  let check = scalarChecks.get(key);
  if (!check) scalarChecks.set(key, (check = scalarChecker.compile(own)));
  const fitting = pool.filter((v) => check(v));
  return fitting.length ? fc.oneof({ weight: 3, arbitrary: pick(fitting) }, { weight: 1, arbitrary: pick(pool) }) : pick(pool);
}

function typedArb(type: string, schema: { [k: string]: Json }, root: JsonObject, depth: number): fc.Arbitrary<Json> {
  const next = (sub: Json | undefined) => instanceArb(sub, root, depth + 1);
  switch (type) {
    case 'string':
      return scalarArb(type, schema, STRINGS);
    case 'number':
      return scalarArb(type, schema, numbersFor(schema));
    case 'integer':
      return scalarArb(type, schema, numbersFor(schema).map(Math.round));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const prefix = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : Array.isArray(schema['items']) ? schema['items'] : [];
      const rest = Array.isArray(schema['items']) ? schema['additionalItems'] : schema['items'];
      return fc
        .tuple(fc.tuple(...prefix.map((p) => next(p))), fc.array(next(rest === false ? undefined : rest), { maxLength: 3 }))
        .map(([head, tail]) => [...head, ...tail].slice(0, 5));
    }
    case 'object': {
      const props = isObj(schema['properties']) ? schema['properties'] : {};
      const patterns = isObj(schema['patternProperties']) ? Object.values(schema['patternProperties']) : [];
      const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
      const fields: Record<string, fc.Arbitrary<Json>> = {};
      for (const key of new Set([...KEYS, ...Object.keys(props)])) {
        const sub = Object.hasOwn(props, key) ? props[key] : patterns.length ? patterns[0] : schema['additionalProperties'];
        fields[key] = next(sub === false || sub === true ? undefined : sub);
      }
      const keep = [...new Set([...required, ...Object.keys(props)])].filter((k) => Object.hasOwn(fields, k));
      return fc.record(fields, { requiredKeys: [] }).chain((obj) =>
        fc.boolean().map((withRequired) => {
          // Usually the required properties are there, and mostly only the named ones.
          const out: { [k: string]: Json } = {};
          for (const [k, v] of Object.entries(obj)) if (keep.includes(k) || k.length === 1) out[k] = v as Json;
          if (withRequired) for (const k of required) if (!(k in out) && Object.hasOwn(obj, k)) out[k] = obj[k] as Json;
          return out;
        }),
      );
    }
    default:
      return smallJson;
  }
}
