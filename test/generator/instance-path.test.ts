/**
 * The all-errors set's functions take the instance path alone (generator/emit/validators/instance-path.ts): the edits on
 * small modules, a module left as ajv wrote it when it reads another location name, and a real compilation
 * whose `.errors` are ajv's own, error for error. The pins' reports against ajv's are
 * test/generated/accept-path.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { acceptPathClass } from '../../generator/emit/validators/accept-path.ts';
import { instancePathEdits } from '../../generator/emit/validators/instance-path.ts';
import { applyEdits, parseModule } from '../../generator/emit/js-edit.ts';
import { createAjv, standaloneEsm } from '../../generator/emit/validators/index.ts';
import { callingDocument } from '../helpers/calling-schema.ts';

const { doc: DOC, refs: REFS } = callingDocument('urn:test:instance-path', true);

const VALUES: unknown[] = [
  { leaf: { n: 1 } },
  { leaf: { n: -1 } },
  {},
  null,
  { leaf: { n: 0 }, byName: { a: { n: 2 }, 'b/~c': { m: 3 } } },
  { leaf: { n: 0 }, blocks: [{ type: 'text', text: 1 }, { type: 'num' }, 7] },
  { leaf: { n: 0 }, again: { leaf: { n: -2 }, blocks: [{ type: 'other' }] } },
];

const SIGNATURE = '(data, {instancePath="", parentData, parentDataProperty, rootData=data}={})';

describe('instancePathEdits', () => {
  it('leaves each function the instance path as its location, and each call passing its path alone', () => {
    const text = `function v${SIGNATURE}{ return w(data.a, {instancePath:instancePath+"/a", parentData:data, parentDataProperty:"a", rootData}) && w(data, {instancePath,parentData,parentDataProperty,rootData}) && [{instancePath, keyword:"type"}]; }`;
    const edits = instancePathEdits(parseModule(text, 'm.js', 'js'));
    expect(applyEdits(text, edits)).toBe(
      'function v(data, instancePath=""){ return w(data.a, instancePath+"/a") && w(data, instancePath) && [{instancePath, keyword:"type"}]; }',
    );
  });

  it('leaves a module alone that reads another location name, or whose functions take other locations', () => {
    const reads = `function v${SIGNATURE}{ return rootData === data; } function w${SIGNATURE}{ return true; }`;
    expect(instancePathEdits(parseModule(reads, 'm.js', 'js'))).toEqual([]);
    const dynamic = 'function v(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){ return true; }';
    expect(instancePathEdits(parseModule(dynamic, 'm.js', 'js'))).toEqual([]);
  });

  it('compiles to functions whose reports are ajv’s own', async () => {
    // The class the pins' all-errors sets compile with (full Ajv2020 passes its dynamic anchors too).
    const ajv = createAjv({ draft: '2020-12' }, true, {}, acceptPathClass(DOC, '2020-12'));
    ajv.addSchema(DOC);
    const module = standaloneEsm(ajv, REFS, 'test');
    // The edit had something to do: ajv passes locations between these functions.
    expect(module).toMatch(/^function \w+\(data, instancePath=""\)\{$/m);
    expect(module).not.toMatch(/parentData|rootData/);
    const m = (await import(`data:text/javascript;base64,${Buffer.from(module).toString('base64')}`)) as Record<
      string,
      ((d: unknown) => boolean) & { errors?: unknown }
    >;
    const reference = createAjv({ draft: '2020-12' }, false);
    reference.addSchema(DOC);
    let reported = 0;
    for (const [name, uri] of Object.entries(REFS)) {
      const expected = reference.getSchema(uri)!;
      for (const value of VALUES) {
        const valid = expected(value);
        expect(m[name]!(value), `${name} ${JSON.stringify(value)}`).toBe(valid);
        expect(m[name]!.errors ?? null).toEqual(expected.errors ?? null);
        if (!valid) reported++;
      }
    }
    expect(reported).toBeGreaterThan(6);
  });
});
