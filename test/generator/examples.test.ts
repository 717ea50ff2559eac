/**
 * The official 2026-07-28 examples: each validates against the $def its folder names, and two mutated
 * copies of each (a required property removed; a property given a value of the wrong type) are rejected.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as validators from '../../generated/mcp-2026-07-28/validators.js';
import type { Validator } from '../../generated/mcp-2026-07-28/validators.js';
import { ROOT } from '../helpers/project.ts';

const EXAMPLES = join(ROOT, 'schemas/mcp/2026-07-28/examples');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/mcp/2026-07-28/schema.json'), 'utf8')) as { $defs: Record<string, S> };
type S = {
  $ref?: string;
  type?: string | string[];
  required?: string[];
  properties?: Record<string, S>;
  additionalProperties?: S | boolean;
  anyOf?: S[];
  oneOf?: S[];
};
type Obj = Record<string, unknown>;

function deref(s: S | undefined): S | undefined {
  for (let i = 0; s?.$ref && i < 20; i++) s = schema.$defs[s.$ref.replace('#/$defs/', '')];
  return s;
}
/** Alternatives of a union definition, or the definition itself. */
function alternatives(s: S): S[] {
  const alts = s.anyOf ?? s.oneOf;
  return alts ? alts.flatMap((a) => alternatives(deref(a)!)) : [s];
}
/** Properties every alternative requires that the example has. */
function requiredPresent(def: string, example: Obj): string[] {
  const alts = alternatives(deref(schema.$defs[def])!);
  const sets = alts.map((a) => new Set(a.required ?? []));
  return Object.keys(example).filter((k) => sets.every((s) => s.has(k))).sort();
}
/** A value whose JSON type none of `types` allows. */
function wrongValue(types: string[]): unknown {
  const candidates: [string[], unknown][] = [
    [['string'], 12345],
    [['integer', 'number'], 'not a number'],
    [['boolean'], 'true'],
    [['object'], ['not', 'an', 'object']],
    [['array'], 'not an array'],
  ];
  for (const [, value] of candidates) {
    const t = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
    const allowed = types.includes(t) || (t === 'integer' && types.includes('number'));
    if (!allowed) return value;
  }
  return undefined;
}
/** The JSON types a schema allows, or undefined when it does not fix them. */
function typesOf(s: S | undefined): string[] | undefined {
  s = deref(s);
  if (!s) return undefined;
  if (s.type !== undefined) return Array.isArray(s.type) ? s.type : [s.type];
  const alts = s.anyOf ?? s.oneOf;
  if (!alts) return undefined;
  const each = alts.map(typesOf);
  return each.some((t) => t === undefined) ? undefined : [...new Set(each.flatMap((t) => t!))];
}
/** The schema of property `key` (declared, or the additionalProperties schema of a map). */
function propertySchema(s: S, key: string): S | undefined {
  return s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
}
/** A property of the example whose schema fixes its type in every alternative, with a wrong value for it. */
function wrongTypeMutation(def: string, example: Obj): [string, unknown] | undefined {
  const alts = alternatives(deref(schema.$defs[def])!);
  for (const key of Object.keys(example).sort()) {
    const types = alts.map((a) => typesOf(propertySchema(a, key)));
    if (types.some((t) => t === undefined)) continue;
    const all = [...new Set(types.flatMap((t) => t!))];
    const value = wrongValue(all);
    if (value !== undefined) return [key, value];
  }
  return undefined;
}

const cases = readdirSync(EXAMPLES)
  .sort()
  .flatMap((def) => readdirSync(join(EXAMPLES, def)).sort().map((file) => ({ def, file, example: JSON.parse(readFileSync(join(EXAMPLES, def, file), 'utf8')) as Obj })));

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

  it.each(cases.filter((c) => requiredPresent(c.def, c.example).length > 0))('$def/$file without a required property is rejected', ({ def, example }) => {
    const v = validatorFor(def);
    const prop = requiredPresent(def, example)[0]!;
    const mutated = { ...example };
    delete mutated[prop];
    expect(v(mutated)).toBe(false);
    expect(v.errors?.some((e) => e.keyword === 'required' || e.keyword === 'anyOf' || e.keyword === 'oneOf')).toBe(true);
  });

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
      expect(alternatives(deref(schema.$defs[def])!).some((a) => (a.required ?? []).length === 0), name).toBe(true);
    }
    expect(noWrongType).toEqual([]);
  });
});
