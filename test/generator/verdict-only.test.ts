/**
 * The verdict-only edit of the accept-path set (generator/emit/validators/verdict-only.ts) on small documents: the
 * functions take the data alone and the calls pass it alone, the error objects are one constant, the verdicts
 * are ajv's own on every value, and a module that reads a location name for anything but an error object is
 * refused. That both sets agree on
 * the pins' real data is test/generated/accept-path.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ACCEPT_PATH_OPTIONS, acceptPathClass } from '../../generator/emit/validators/accept-path.ts';
import { applyEdits, parseModule, renameIdentifiers } from '../../generator/emit/js-edit.ts';
import { createAjv, standaloneEsm } from '../../generator/emit/validators/index.ts';
import { VERDICT_ONLY_DECLARATION, verdictOnlyEdits, withoutEditsInside } from '../../generator/emit/validators/verdict-only.ts';
import { callingDocument } from '../helpers/calling-schema.ts';

const { doc: DOC, refs: REFS } = callingDocument('urn:test:verdict-only');

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
    // The edit has something to do here: the functions pass locations to each other (the all-errors set
    // keeps the instance path, emit/validators/instance-path.ts).
    expect(before).toMatch(/^function \w+\(data, instancePath=""\)\{$/m);
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
      'function v(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){ if(!data){ const err0 = {instancePath, schemaPath:"#", keyword:"type", params:{}}; if(vErrors === null){ vErrors = [err0]; } else { vErrors.push(err0); } errors++; } return w(data.a, {instancePath:instancePath+"/a", parentData:data, parentDataProperty:"a", rootData}); }';
    const source = parseModule(text, 'm.js', 'js');
    const edits = verdictOnlyEdits(source, 'm.js');
    expect(applyEdits(text, edits)).toBe(
      'function v(data){ if(!data){ const err0 = verdictError; if(vErrors === null){ vErrors = [err0]; } else { vErrors.push(err0); } errors++; } return w(data.a); }',
    );
  });

  it('drops the writes of .errors and counts a failed callee as one error', () => {
    const text =
      'function v(data){ let vErrors = null; let errors = 0; if(!(w(data.a))){\nvErrors = vErrors === null ? w.errors : vErrors.concat(w.errors);\nerrors = vErrors.length;\n} if(!(r.validate(data.b))){ vErrors = vErrors === null ? r.validate.errors : vErrors.concat(r.validate.errors); errors = vErrors.length; } if(!data.c){ v.errors = [{instancePath, schemaPath:"#", keyword:"type", params:{}}];\nreturn false; } v.errors = vErrors;\nreturn errors === 0; }';
    const source = parseModule(text, 'm.js', 'js');
    expect(applyEdits(text, verdictOnlyEdits(source, 'm.js'))).toBe(
      'function v(data){ let vErrors = null; let errors = 0; if(!(w(data.a))){\nerrors++;\n} if(!(r.validate(data.b))){ errors++; } if(!data.c){ return false; } return errors === 0; }',
    );
  });

  it('refuses a module that reads .errors anywhere else, or takes a list without counting it', () => {
    const read = parseModule('function v(data){ return w(data) || w.errors.length > 1; }', 'm.js', 'js');
    expect(() => verdictOnlyEdits(read, 'm.js')).toThrow('m.js:1:37: .errors is read outside a take');
    const take = parseModule('function v(data){ if(!w(data)){ vErrors = vErrors === null ? w.errors : vErrors.concat(w.errors); } }', 'm.js', 'js');
    expect(() => verdictOnlyEdits(take, 'm.js')).toThrow('m.js:1:33: a take of a callee');
  });

  it('drops the other edits inside a replaced error object or a removed write', () => {
    const text =
      'function v(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){ v.errors = [{instancePath, schemaPath:"#", keyword:"enum", params:{allowedValues: schema3.enum}}]; const err0 = {instancePath, schemaPath:"#", keyword:"enum", params:{allowedValues: schema3.enum}}; return schema3 === data; }';
    const source = parseModule(text, 'm.js', 'js');
    const verdict = verdictOnlyEdits(source, 'm.js');
    const renames = renameIdentifiers(
      source,
      new Map([
        ['schema3', 'schema_X'],
        ['v', 'validate_V'],
      ]),
    );
    expect(renames).toHaveLength(5);
    const kept = withoutEditsInside(renames, verdict);
    expect(kept).toHaveLength(2);
    expect(applyEdits(text, [...kept, ...verdict])).toBe('function validate_V(data){  const err0 = verdictError; return schema_X === data; }');
  });

  it('leaves nothing on .errors, and the set’s one error frozen', async () => {
    const module = acceptPathModule(true);
    expect(module).not.toMatch(/schemaPath:"#|\.errors/);
    const m = await load(module);
    expect(m.Root!({})).toBe(false);
    expect((m.Root as unknown as { errors?: unknown }).errors).toBeUndefined();
    const frozen = (await load(`${VERDICT_ONLY_DECLARATION.text}\nexport { verdictError };`)) as unknown as { verdictError: { params: unknown } };
    expect(Object.isFrozen(frozen.verdictError) && Object.isFrozen(frozen.verdictError.params)).toBe(true);
  });
});
