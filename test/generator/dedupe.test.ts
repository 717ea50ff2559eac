/**
 * One function where ajv compiled a definition twice (generator/emit/validators/dedupe.ts): on hand-written modules, which
 * copies are the same code and which are not; on a real compilation, that the module keeps one function per
 * definition and still answers as ajv does, errors included. That every pin's sets agree with ajv on real
 * data is test/generated/accept-path.test.ts.
 */
import standaloneCode from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { droppedStatements, duplicateFunctions, shareExportSchemas } from '../../generator/emit/validators/dedupe.ts';
import { parseModule, renameIdentifiers } from '../../generator/emit/js-edit.ts';
import { createAjv, standaloneEsm } from '../../generator/emit/validators/index.ts';
import type { JsonObject } from '../../generator/load/schema.ts';

const MODULE = `"use strict";
const schema1 = {"const":1};
const schema2 = {"const":2};
function validate1(data){ return validate3(data) && schema1.const === data; }
function validate2(data){ return validate4(data) && schema1.const === data; }
function validate3(data){ validate3.errors = null; return data === 1; }
validate3.evaluated = {"props":true};
function validate4(data){ validate4.errors = null; return data === 1; }
validate4.evaluated = {"props":true};
function validate5(data){ return data === null || validate5(data.x); }
function validate6(data){ return data === null || validate5(data.x); }
function validate7(data){ return data === 1; }
function validate8(data){ return data === 2; }
export const A = validate2;
`;
const NAMES = ['schema1', 'schema2', ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `validate${n}`)];
/** What each function would be named: two by two, one schema compiled twice. */
const WANTED = new Map(['A', 'A', 'B', 'B', 'C', 'C', 'D', 'D'].map((w, i) => [`validate${i + 1}`, `validate_${w}`]));

describe('duplicateFunctions', () => {
  const source = parseModule(MODULE, 'm.js', 'js');
  const renames = new Map(NAMES.map((n) => [n, `${n}_renamed`]));
  const edits = renameIdentifiers(source, renames);
  const merged = duplicateFunctions(source, edits, WANTED);

  it('merges copies that are the same code once their callees are, annotations included', () => {
    expect(merged.get('validate4')).toBe('validate3');
    expect(merged.get('validate2')).toBe('validate1');
  });

  it('keeps a copy that calls the other instead of itself, and one that differs', () => {
    expect(merged.has('validate6')).toBe(false);
    expect(merged.has('validate8')).toBe(false);
    expect(merged.size).toBe(2);
  });

  it('drops the merged functions with their annotations, and the constant nothing reads', () => {
    const dropped = [...droppedStatements(source, edits, merged, renames)].map((i) => source.statements[i]!.getText(source).slice(0, 30));
    expect(dropped.sort()).toEqual([
      'const schema2 = {"const":2};',
      'function validate2(data){ retu',
      'function validate4(data){ vali',
      'validate4.evaluated = {"props"',
    ]);
  });
});

const ID = 'urn:test:dedupe';
const DOC: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: ID,
  $defs: {
    Leaf: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0 } } },
    Root: {
      type: 'object',
      required: ['leaf'],
      properties: { leaf: { $ref: '#/$defs/Leaf' }, more: { type: 'array', items: { $ref: '#/$defs/Leaf' } } },
    },
  },
};
// Root first: ajv compiles Leaf for Root's $ref, then again for the export that names it.
const REFS = { Root: `${ID}#/$defs/Root`, Leaf: `${ID}#/$defs/Leaf` };
const VALUES: unknown[] = [
  { leaf: { n: 1 } },
  { leaf: { n: -1 } },
  {},
  null,
  { leaf: { n: 0 }, more: [{ n: 2 }, { m: 1 }, 3] },
  { n: 2 },
  { n: 'x' },
];

/** Loads `module` and holds every export's verdict and errors equal to ajv's on {@link VALUES}. */
async function expectAsAjv(module: string): Promise<void> {
  const m = (await import(`data:text/javascript;base64,${Buffer.from(module).toString('base64')}`)) as Record<
    string,
    ((d: unknown) => boolean) & { errors?: unknown }
  >;
  const reference = createAjv({ draft: '2020-12' }, false);
  reference.addSchema(DOC);
  for (const [name, uri] of Object.entries(REFS)) {
    const check = reference.getSchema(uri)!;
    for (const value of VALUES) {
      expect(m[name]!(value), `${name} ${JSON.stringify(value)}`).toBe(check(value));
      expect(m[name]!.errors ?? null).toEqual(check.errors ?? null);
    }
  }
}

describe('a module ajv compiled a definition twice for', () => {
  it('has one function for it, and answers and errs as ajv does', async () => {
    const ajv = createAjv({ draft: '2020-12' }, true);
    ajv.addSchema(DOC);
    const raw = standaloneCode.default(ajv, REFS);
    // ajv's own module has the two copies: the export's and the one Root's $ref reaches.
    expect(raw.match(/^function validate\d+\(/gm)).toHaveLength(3);
    const module = standaloneEsm(ajv, REFS, 'test');
    expect(module.match(/^function validate_Leaf\w*\(/gm)).toEqual(['function validate_Leaf(']);
    await expectAsAjv(module);
  });

  it('is not compiled twice once the exports are registered first, and answers the same', async () => {
    const ajv = createAjv({ draft: '2020-12' }, true);
    ajv.addSchema(DOC);
    shareExportSchemas(ajv, REFS);
    expect(standaloneCode.default(ajv, REFS).match(/^function validate\d+\(/gm)).toHaveLength(2);
    await expectAsAjv(standaloneEsm(ajv, REFS, 'test'));
  });
});
