/**
 * The verdict-only edit of the accept-path set (generator/emit/verdict-only.ts) on small documents: the
 * functions take the data alone and the calls pass it alone, the error objects are one constant, the verdicts
 * are ajv's own on every value, and a module that reads a location name for anything but an error object is
 * refused. That both sets agree on
 * the pins' real data is test/generated/accept-path.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ACCEPT_PATH_OPTIONS, acceptPathClass } from '../../generator/emit/accept-path.ts';
import { applyEdits, parseModule, renameIdentifiers } from '../../generator/emit/js-edit.ts';
import { createAjv, standaloneEsm } from '../../generator/emit/validators.ts';
import { verdictOnlyEdits, withoutEditsInside } from '../../generator/emit/verdict-only.ts';
import type { JsonObject } from '../../generator/load/schema.ts';

const ID = 'urn:test:verdict-only';
/** A document with calls between functions: a $ref, a map of refs (a path per key), an array of a union. */
const DOC: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: ID,
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
      },
    },
  },
};
const REFS = { Root: `${ID}#/$defs/Root`, Leaf: `${ID}#/$defs/Leaf` };

const VALUES: unknown[] = [
  { leaf: { n: 1 } },
  { leaf: { n: -1 } },
  { leaf: { n: 1.5 } },
  {},
  null,
  [],
  { leaf: { n: 0 }, byName: { a: { n: 2 }, 'b/~c': { n: 3 } } },
  { leaf: { n: 0 }, byName: { a: { n: 2 }, b: { m: 3 } } },
  { leaf: { n: 0 }, blocks: [{ type: 'text', text: 'hi' }, { type: 'num', value: 2 }, 'plain'] },
  { leaf: { n: 0 }, blocks: [{ type: 'text', text: 1 }] },
  { leaf: { n: 0 }, blocks: [{ type: 'other' }] },
  { leaf: { n: 0 }, blocks: [7] },
];

function acceptPathModule(verdictOnly: boolean): string {
  const ajv = createAjv({ draft: '2020-12' }, true, { ...ACCEPT_PATH_OPTIONS, inlineRefs: false }, acceptPathClass(DOC, '2020-12'));
  ajv.addSchema(DOC);
  return standaloneEsm(ajv, REFS, 'test', { verdictOnly });
}

async function load(js: string): Promise<Record<string, (d: unknown) => boolean>> {
  return (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as Record<string, (d: unknown) => boolean>;
}

describe('verdictOnlyEdits', () => {
  it('leaves no location parameter or argument, and the same verdicts as ajv', async () => {
    const before = acceptPathModule(false);
    const after = acceptPathModule(true);
    // The edit has something to do here: ajv passes locations between these functions.
    expect(before).toMatch(/parentDataProperty:/);
    expect(after).not.toMatch(/parentDataProperty:|rootData=data/);
    expect(after).toMatch(/^function \w+\(data\)\{$/m);
    const ajv = createAjv({ draft: '2020-12' }, false);
    ajv.addSchema(DOC);
    const [was, is] = [await load(before), await load(after)];
    for (const [name, uri] of Object.entries(REFS)) {
      const reference = ajv.getSchema(uri)!;
      for (const value of VALUES) {
        expect(is[name]!(value), `${name} ${JSON.stringify(value)}`).toBe(reference(value));
        expect(was[name]!(value)).toBe(reference(value));
      }
    }
  });

  it('refuses a module that reads a location name outside an error object', () => {
    const source = parseModule(
      'function v(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){ return rootData === data; }',
      'm.js',
      'js',
    );
    expect(() => verdictOnlyEdits(source, 'm.js')).toThrow('m.js:1:95: rootData is read outside an error object');
  });

  it('refuses a validator whose parameters are not ajv’s', () => {
    const source = parseModule('function v(data, options){ return true; }', 'm.js', 'js');
    expect(() => verdictOnlyEdits(source, 'm.js')).toThrow('m.js:1:1: a validator whose parameters are not (data, {location})');
  });

  it('replaces each error object with one constant, and leaves the counting to ajv’s code', () => {
    const text =
      'function v(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){ v.errors = [{instancePath, schemaPath:"#", keyword:"type", params:{}}]; return w(data.a, {instancePath:instancePath+"/a", parentData:data, parentDataProperty:"a", rootData}); }';
    const source = parseModule(text, 'm.js', 'js');
    const edits = verdictOnlyEdits(source, 'm.js');
    expect(applyEdits(text, edits)).toBe('function v(data){ v.errors = [verdictError]; return w(data.a); }');
  });

  it('drops the other edits inside a replaced error object', () => {
    const text =
      'function v(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){ v.errors = [{instancePath, schemaPath:"#", keyword:"enum", params:{allowedValues: schema3.enum}}]; return schema3 === data; }';
    const source = parseModule(text, 'm.js', 'js');
    const verdict = verdictOnlyEdits(source, 'm.js');
    const renames = renameIdentifiers(source, new Map([['schema3', 'schema_X']]));
    expect(renames).toHaveLength(2);
    const kept = withoutEditsInside(renames, verdict);
    expect(kept).toHaveLength(1);
    expect(applyEdits(text, [...kept, ...verdict])).toBe('function v(data){ v.errors = [verdictError]; return schema_X === data; }');
  });

  it('gives the set one frozen error, which nothing can change', async () => {
    const module = acceptPathModule(true);
    expect(module).not.toMatch(/schemaPath:"#/);
    const m = await load(module);
    expect(m.Root!({})).toBe(false);
    const [error] = (m.Root as unknown as { errors: { keyword: string }[] }).errors;
    expect(Object.isFrozen(error)).toBe(true);
  });
});
