/**
 * The official 2026-07-28 examples: each validates against the $def its folder names, and two mutated
 * copies of each (a required property removed; a property given a value of the wrong type) are rejected.
 */
import { describe, expect, it } from 'vitest';
import * as validators from '../../generated/mcp-2026-07-28/validators.js';
import type { Validator } from '../../generated/mcp-2026-07-28/validators.js';
import { alternatives, cases, deref, requiredPresent, schema, wrongTypeMutation } from '../helpers/examples.ts';

function validatorFor(def: string): Validator<unknown> {
  const v = (validators as unknown as Record<string, Validator<unknown>>)[def];
  if (!v) throw new Error(`no generated validator for ${def}`);
  return v;
}

describe('2026-07-28 examples', () => {
  it('are all present (129 files in 88 folders)', () => {
    expect(cases.length).toBe(129);
    expect(new Set(cases.map((c) => c.def)).size).toBe(88);
  });

  it.each(cases)('$def/$file validates', ({ def, example }) => {
    const v = validatorFor(def);
    expect(v(example), JSON.stringify(v.errors)).toBe(true);
  });

  it.each(cases.filter((c) => requiredPresent(c.def, c.example).length > 0))(
    '$def/$file without a required property is rejected',
    ({ def, example }) => {
      const v = validatorFor(def);
      const prop = requiredPresent(def, example)[0]!;
      const mutated = { ...example };
      delete mutated[prop];
      expect(v(mutated)).toBe(false);
      expect(v.errors?.some((e) => e.keyword === 'required' || e.keyword === 'anyOf' || e.keyword === 'oneOf')).toBe(true);
    },
  );

  it.each(cases.filter((c) => wrongTypeMutation(c.def, c.example)))('$def/$file with a wrongly typed property is rejected', ({ def, example }) => {
    const v = validatorFor(def);
    const [prop, value] = wrongTypeMutation(def, example)!;
    expect(v({ ...example, [prop]: value })).toBe(false);
  });

  it('every example gets both mutations, except those whose $def requires nothing', () => {
    const noRequired = cases.filter((c) => requiredPresent(c.def, c.example).length === 0).map((c) => `${c.def}/${c.file}`);
    const noWrongType = cases.filter((c) => !wrongTypeMutation(c.def, c.example)).map((c) => `${c.def}/${c.file}`);
    // Definitions with no required property at all: removing one is not possible, the wrong type still is.
    for (const name of noRequired) {
      const def = name.split('/')[0]!;
      expect(
        alternatives(deref(schema.$defs[def])!).some((a) => (a.required ?? []).length === 0),
        name,
      ).toBe(true);
    }
    expect(noWrongType).toEqual([]);
  });
});
