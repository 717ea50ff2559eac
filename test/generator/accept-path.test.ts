/**
 * The accept-path pass (generator/emit/validators/accept-path.ts) on small documents: which unions it turns into a
 * dispatch on a tag and which it leaves alone, and that the unevaluated-properties machinery stays on for a
 * document that uses it. That both sets agree on real data is test/generated/accept-path.test.ts.
 */
import standaloneCode from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { ACCEPT_PATH_OPTIONS, acceptPathClass, discriminateUnions, usedKeywords } from '../../generator/emit/validators/accept-path.ts';
import { createAjv } from '../../generator/emit/validators/index.ts';
import type { JsonObject } from '../../generator/load/schema.ts';

const ID = 'urn:test:accept-path';
const tagged = (tag: string, value: unknown, extra: JsonObject = {}): JsonObject => ({
  type: 'object',
  required: [tag],
  properties: { [tag]: { type: 'string', const: value as string }, ...extra },
});
function doc(defs: Record<string, JsonObject>): JsonObject {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: ID, $defs: defs };
}
/** The accept-path ajv instance for `d`, as emit/validators/index.ts makes it (with standalone code, or without). */
const acceptPathAjv = (d: JsonObject, standalone: boolean) =>
  createAjv({ draft: '2020-12' }, standalone, ACCEPT_PATH_OPTIONS, acceptPathClass(d, '2020-12'));

describe('discriminateUnions', () => {
  it('dispatches a union of objects with distinct required constants on that property', () => {
    const { doc: out, unions } = discriminateUnions(
      doc({ A: tagged('type', 'a'), B: tagged('type', 'b'), U: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] } }),
    );
    expect(unions).toEqual([{ tag: 'type', branches: 2, of: 2 }]);
    expect((out['$defs'] as JsonObject)['U']).toEqual({
      type: 'object',
      discriminator: { propertyName: 'type' },
      oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }],
    });
  });

  it('groups the tagged branches and keeps the others (an array of blocks) next to them', () => {
    const { doc: out } = discriminateUnions(
      doc({
        A: tagged('type', 'a'),
        B: tagged('type', 'b'),
        U: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/A' }, { type: 'array' }, { $ref: '#/$defs/B' }] },
      }),
    );
    expect((out['$defs'] as JsonObject)['U']).toEqual({
      anyOf: [
        { type: 'string' },
        { type: 'object', discriminator: { propertyName: 'type' }, oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] },
        { type: 'array' },
      ],
    });
  });

  it('picks the property that tells most branches apart (jsonrpc is the same everywhere, method is not)', () => {
    const req = (method: string) => tagged('method', method, { jsonrpc: { type: 'string', const: '2.0' } });
    const both = (m: string) => ({ ...req(m), required: ['jsonrpc', 'method'] });
    const { unions } = discriminateUnions(
      doc({ A: both('a'), B: both('b'), C: both('c'), U: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }, { $ref: '#/$defs/C' }] } }),
    );
    expect(unions).toEqual([{ tag: 'method', branches: 3, of: 3 }]);
  });

  it('leaves alone unions it cannot tell apart by one required constant', () => {
    const union: JsonObject = { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] };
    const cases: Record<string, Record<string, JsonObject>> = {
      'a shared value': { A: tagged('type', 'a'), B: tagged('type', 'a'), U: union },
      'an optional tag': { A: tagged('type', 'a'), B: { ...tagged('type', 'b'), required: [] }, U: union },
      'not an object schema': { A: tagged('type', 'a'), B: { ...tagged('type', 'b'), type: ['object', 'null'] }, U: union },
      'a tag that is not a string': { A: tagged('type', 'a'), B: tagged('type', 1), U: union },
      'a tag named like an object property': { A: tagged('type', 'a'), B: tagged('type', 'constructor'), U: union },
      'an empty tag': { A: tagged('type', 'a'), B: tagged('type', ''), U: union },
      'a ref with siblings': {
        A: tagged('type', 'a'),
        B: tagged('type', 'b'),
        U: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B', minProperties: 1 }] },
      },
    };
    for (const [what, defs] of Object.entries(cases)) expect(discriminateUnions(doc(defs)).unions, what).toEqual([]);
  });

  it('accepts an enum of tags per branch', () => {
    const { unions } = discriminateUnions(
      doc({
        A: { ...tagged('type', 'a'), properties: { type: { enum: ['integer', 'number'] } } },
        B: tagged('type', 'boolean'),
        U: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] },
      }),
    );
    expect(unions).toEqual([{ tag: 'type', branches: 2, of: 2 }]);
  });
});

describe('the accept-path ajv (acceptPathClass, ACCEPT_PATH_OPTIONS)', () => {
  const compile = (d: JsonObject) => {
    const ajv = acceptPathAjv(d, true);
    ajv.addSchema(discriminateUnions(d).doc);
    return standaloneCode.default(ajv, { U: `${ID}#/$defs/U` });
  };

  it('drops the unevaluated-properties bookkeeping when no schema uses it', () => {
    const code = compile(doc({ A: tagged('type', 'a'), B: tagged('type', 'b'), U: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] } }));
    expect(code).not.toMatch(/evaluated|dynamicAnchors/);
    expect(code).toContain('const tag0 = data.type;');
  });

  it('keeps it, and the keyword working, for a document that uses unevaluatedProperties', () => {
    const d = doc({ A: tagged('type', 'a'), U: { allOf: [{ $ref: '#/$defs/A' }], unevaluatedProperties: false } });
    expect(usedKeywords(d).has('unevaluatedProperties')).toBe(true);
    const code = compile(d);
    expect(code).toMatch(/evaluated/);
    const ajv = acceptPathAjv(d, false);
    ajv.addSchema(d);
    const validate = ajv.getSchema(`${ID}#/$defs/U`)!;
    expect(validate({ type: 'a' })).toBe(true);
    expect(validate({ type: 'a', extra: 1 })).toBe(false);
  });

  it('finds keywords only where schemas are, not in property names or data', () => {
    const used = usedKeywords(doc({ A: { type: 'object', properties: { unevaluatedProperties: { const: { $dynamicRef: 'x' } } } } }));
    expect(used.has('unevaluatedProperties')).toBe(false);
    expect(used.has('$dynamicRef')).toBe(false);
    expect(used.has('const')).toBe(true);
  });
});
