/**
 * @module test/helpers/calling-schema — a small 2020-12 document whose compiled validators call each other
 * (a $ref, a map of refs with a path per key, an array of a union), for the tests of the edits on ajv's
 * standalone code (test/generator/verdict-only.test.ts, instance-path.test.ts).
 */
import type { JsonObject } from '../../generator/load/schema.ts';

/** The document with `$id` `id`; `recursive` adds `Root.again`, a reference of Root to itself. */
export function callingDocument(id: string, recursive = false): { doc: JsonObject; refs: Record<string, string> } {
  const doc: JsonObject = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    $defs: {
      Leaf: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0 } } },
      Text: { type: 'object', required: ['type', 'text'], properties: { type: { const: 'text' }, text: { type: 'string' } } },
      Num: { type: 'object', required: ['type', 'value'], properties: { type: { const: 'num' }, value: { type: 'number' } } },
      Root: {
        type: 'object',
        required: ['leaf'],
        properties: {
          leaf: { $ref: '#/$defs/Leaf' },
          byName: { type: 'object', additionalProperties: { $ref: '#/$defs/Leaf' } },
          blocks: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/Text' }, { $ref: '#/$defs/Num' }, { type: 'string' }] } },
          ...(recursive ? { again: { $ref: '#/$defs/Root' } } : {}),
        },
      },
    },
  };
  return { doc, refs: { Root: `${id}#/$defs/Root`, Leaf: `${id}#/$defs/Leaf` } };
}
