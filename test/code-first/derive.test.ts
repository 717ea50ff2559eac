/**
 * Where the JSON Schema of a Standard Schema comes from (runtime/mcp/catalog/standard/json-schema.ts) when the
 * schema has no `~standard.jsonSchema` (StandardJSONSchemaV1): the library's own converter by vendor (Zod's
 * `z.toJSONSchema` with `io`, https://zod.dev/json-schema; ArkType's `.toJsonSchema()`,
 * https://arktype.io/docs/json-schema), or a one-line reason for a vendor without one.
 */
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deriveJsonSchema } from '../../runtime/mcp/catalog/standard/json-schema.ts';
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** The schema as an older version of its library would give it: `~standard` without `jsonSchema`. */
function withoutJsonSchema<T extends object>(schema: T & StandardSchemaV1): StandardSchemaV1 {
  const { jsonSchema: _, ...props } = schema['~standard'] as StandardSchemaV1.Props & { jsonSchema?: unknown };
  return Object.create(schema, { '~standard': { value: props } }) as StandardSchemaV1;
}

const $schema = 'https://json-schema.org/draft/2020-12/schema';

describe('a Standard Schema without ~standard.jsonSchema', () => {
  it("is converted by Zod's z.toJSONSchema, each side", async () => {
    const schema = withoutJsonSchema(z.object({ n: z.number().default(1), s: z.string() }));
    expect('jsonSchema' in schema['~standard']).toBe(false);
    // io 'input': a defaulted field is optional; io 'output': every field is present and the object closed.
    expect(await deriveJsonSchema(schema, 'input')).toEqual({
      schema: { $schema, type: 'object', properties: { n: { type: 'number', default: 1 }, s: { type: 'string' } }, required: ['s'] },
    });
    expect(await deriveJsonSchema(schema, 'output')).toEqual({
      schema: {
        $schema,
        type: 'object',
        properties: { n: { type: 'number', default: 1 }, s: { type: 'string' } },
        required: ['n', 's'],
        additionalProperties: false,
      },
    });
  });

  it("is converted by ArkType's toJsonSchema()", async () => {
    const t = type({ name: 'string', 'age?': 'number' });
    const schema = Object.assign(Object.create(null) as object, {
      '~standard': { version: 1, vendor: 'arktype', validate: t['~standard'].validate },
      toJsonSchema: () => t.toJsonSchema(),
    }) as StandardSchemaV1;
    expect(await deriveJsonSchema(schema, 'input')).toEqual({
      schema: { $schema, type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name'] },
    });
  });

  it('of a library without a converter is a reason, not a guess', async () => {
    const schema: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'elsewhere', validate: (value) => ({ value }) } };
    expect(await deriveJsonSchema(schema, 'input')).toEqual({
      problem: 'the elsewhere schema offers no JSON Schema (no ~standard.jsonSchema, StandardJSONSchemaV1); give a JSON Schema object instead',
    });
  });
});
