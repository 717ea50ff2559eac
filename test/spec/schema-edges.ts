/**
 * @module test/spec/schema-edges — tool schemas every schema-parity run tries beside the drawn ones: shapes
 * that once broke the generated validators or types, or could (each with the values to try; ajv gives the
 * verdicts). A record of evaluated properties ajv writes into after it turned `true` (emit/validators/evaluated-props.ts). Two schemas with one `$id` (ajv keys schemas by it). A type json-schema-to-typescript would write too narrow (a `default` of another type, a 2020-12
 * tuple, pattern properties beside other properties, an untyped schema, a `not`), a name two tools' `$defs`
 * share, a reference through an anchor or an `$id` base, a definition it declares nothing for, bounds it
 * refuses, its own `tsType` keyword in an author's schema, names of annotation keywords used as property
 * names (the validators leave annotations out, never names), and `format` where it is data, not a keyword.
 */
import type { Dialect, JsonObject } from './schema-arbitrary.ts';

export interface Edge {
  readonly name: string;
  readonly dialect: Dialect;
  readonly schema: JsonObject;
  readonly values: readonly JsonObject[];
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
/** Two tools' schemas with one `$id` and one definition name, each its own. */
const point = (x: JsonObject) => ({
  $id: 'https://example.com/point.json',
  type: 'object',
  $defs: { point: x },
  properties: { p: { $ref: '#/$defs/point' }, q: { $ref: 'https://example.com/point.json#/$defs/point' } },
});

export const EDGES: readonly Edge[] = [
  {
    // ajv marks a property evaluated on a record that became `true` at run time: a throw in strict code.
    name: 'evaluated_props_turned_true',
    dialect: '2020-12',
    schema: {
      type: 'object',
      patternProperties: { '^a': {} },
      allOf: [{ patternProperties: { _: {} } }, { additionalProperties: true }],
      unevaluatedProperties: { type: 'number' },
    },
    values: [{ a: 2.5 }, { a: 'x', n_1: 1, z: 'y' }],
  },
  {
    name: 'default_of_another_type',
    dialect: '2020-12',
    schema: { type: 'object', properties: { c: { type: 'string', default: 3 }, n: { type: 'number', examples: ['x'] } } },
    values: [{ c: 'ab', n: 1 }, { c: 3 }],
  },
  {
    name: 'tuples_2020',
    dialect: '2020-12',
    schema: {
      type: 'object',
      properties: {
        closed: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        rest: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
        open: { type: 'array', prefixItems: [{ type: 'string' }], minItems: 1 },
      },
    },
    values: [{ closed: ['a', 1], rest: ['s', true, false], open: ['a', 1, null] }, { closed: ['a', 1, 2] }, { rest: ['s', 1] }, { open: [] }],
  },
  {
    name: 'tuples_draft_07',
    dialect: 'draft-07',
    schema: { $schema: DRAFT_07, type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } },
    values: [{ t: ['a', 1, 'extra', {}] }, { t: [1] }],
  },
  {
    name: 'pattern_properties_and_others',
    dialect: '2020-12',
    schema: { type: 'object', properties: { name: { type: 'string' } }, patternProperties: { _: { type: 'number' } } },
    values: [{ name: 'a', n_1: 5, other: [true] }, { n_1: 'x' }],
  },
  {
    name: 'untyped_schemas',
    dialect: '2020-12',
    schema: {
      type: 'object',
      properties: { d: { description: 'any value' }, p: { properties: { x: { type: 'string' } } }, n: { not: { type: 'string' } } },
      allOf: [{ anyOf: [{ required: ['d'] }, { required: ['p'] }] }],
    },
    values: [{ d: 5, p: 'not an object', n: 1 }, { p: { x: 1 } }, { n: 'x' }, {}],
  },
  {
    name: 'defs_a',
    dialect: '2020-12',
    schema: point({ type: 'object', properties: { x: { type: 'number' } }, required: ['x'] }),
    values: [{ p: { x: 1 } }, { p: {} }],
  },
  {
    name: 'defs_b',
    dialect: '2020-12',
    schema: point({ type: 'string', maxLength: 2 }),
    values: [{ p: 'ab', q: 'cd' }, { p: 'abc' }, { q: { x: 1 } }],
  },
  {
    name: 'anchors_and_bases',
    dialect: '2020-12',
    schema: {
      $id: 'https://example.com/root.json',
      type: 'object',
      $defs: {
        a: { $id: 'a.json', $defs: { b: { type: 'string' } }, type: 'object', properties: { x: { $ref: '#/$defs/b' } } },
        n: { $anchor: 'node', type: 'object', properties: { next: { $ref: '#node' }, v: { type: 'integer' } } },
        anything: { $anchor: 'any', allOf: [true] },
      },
      properties: {
        a: { $ref: 'a.json' },
        b: { $ref: 'https://example.com/a.json#/$defs/b' },
        n: { $ref: '#node' },
        any: { $ref: '#any' },
        self: { $ref: '#' },
      },
    },
    values: [{ a: { x: 's' }, b: 't', n: { next: { v: 1 } }, any: [1], self: { b: 'u' } }, { a: { x: 1 } }, { n: { next: { v: 'x' } } }],
  },
  {
    name: 'anchor_draft_07',
    dialect: 'draft-07',
    schema: {
      $schema: DRAFT_07,
      type: 'object',
      definitions: { s: { $id: '#short', type: 'string', maxLength: 1 } },
      properties: { s: { $ref: '#short' } },
    },
    values: [{ s: 'a' }, { s: 'ab' }],
  },
  {
    name: 'bounds_and_keywords_of_the_type_tool',
    dialect: 'draft-07',
    schema: {
      $schema: DRAFT_07,
      type: 'object',
      properties: {
        none: { type: 'array', minItems: 3, maxItems: 1 },
        old: { type: 'string', deprecated: 'yes' },
        evil: { type: 'string', tsType: 'Evil' },
      },
    },
    values: [{ old: 'a', evil: 'b' }, { none: [] }, { evil: 1 }],
  },
  {
    name: 'annotation_names_as_data',
    dialect: '2020-12',
    schema: {
      type: 'object',
      title: 'Result',
      properties: { description: { type: 'string', title: 'Result' }, default: { type: 'integer' }, title: { const: 't' } },
      required: ['description'],
      dependentRequired: { description: ['default'] },
      'x-meta': { format: 'not-a-format' },
      enum: [{ description: 'a', default: 1 }, { description: 'b', default: 2, title: 't' }, { format: 'bogus' }],
    },
    values: [{ description: 'a', default: 1 }, { description: 'b', default: 2, title: 't' }, { description: 'a' }, { description: 'b', default: 2 }],
  },
];
