/**
 * @module test/helpers/examples — the official 2026-07-28 examples (schemas/mcp/2026-07-28/examples/<Def>/*.json)
 * and two mutations of each that its $def must reject: a property every alternative requires removed
 * ({@link requiredPresent}), and a property given a value of a JSON type none of its alternatives allows
 * ({@link wrongTypeMutation}). Used by test/generator/examples.test.ts and test/generated/accept-path.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './project.ts';

const EXAMPLES = join(ROOT, 'schemas/mcp/2026-07-28/examples');
export const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/mcp/2026-07-28/schema.json'), 'utf8')) as { $defs: Record<string, S> };
export type S = {
  $ref?: string;
  type?: string | string[];
  required?: string[];
  properties?: Record<string, S>;
  additionalProperties?: S | boolean;
  anyOf?: S[];
  oneOf?: S[];
};
export type Obj = Record<string, unknown>;

export function deref(s: S | undefined): S | undefined {
  for (let i = 0; s?.$ref && i < 20; i++) s = schema.$defs[s.$ref.replace('#/$defs/', '')];
  return s;
}
/** Alternatives of a union definition, or the definition itself. */
export function alternatives(s: S): S[] {
  const alts = s.anyOf ?? s.oneOf;
  return alts ? alts.flatMap((a) => alternatives(deref(a)!)) : [s];
}
/** Properties every alternative requires that the example has. */
export function requiredPresent(def: string, example: Obj): string[] {
  const alts = alternatives(deref(schema.$defs[def])!);
  const sets = alts.map((a) => new Set(a.required ?? []));
  return Object.keys(example)
    .filter((k) => sets.every((s) => s.has(k)))
    .sort();
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
export function wrongTypeMutation(def: string, example: Obj): [string, unknown] | undefined {
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

export const cases = readdirSync(EXAMPLES)
  .sort()
  .flatMap((def) =>
    readdirSync(join(EXAMPLES, def))
      .sort()
      .map((file) => ({ def, file, example: JSON.parse(readFileSync(join(EXAMPLES, def, file), 'utf8')) as Obj })),
  );
