/**
 * Every rule `wiregen diff` reports for a user's spec, one minimal pair of specs each: the change one way asserts
 * its rule and class, the same change the other way asserts the class (or rule) the reverse gets. The pairs
 * (test/evolve/spec-pairs/) are ours, written for these tests from the MCP and A2A specifications' meaning of each field (tool schemas as what
 * clients send and receive, ToolAnnotations' defaults, the Agent Card's capabilities and security).
 */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../generator/evolve/findings.ts';
import { diffSpecs } from '../../generator/evolve/spec/diff.ts';
import type { JsonObject } from '../../generator/load/schema.ts';
import type { Obj } from './spec-pairs/build.ts';
import { ITEM_CASES } from './spec-pairs/items.ts';
import { SCHEMA_CASES } from './spec-pairs/schema.ts';

const CASES = [...ITEM_CASES, ...SCHEMA_CASES];

/** `[rule, class]` of each finding from `a` to `b`. */
function found(a: Obj, b: Obj): string[] {
  const v = (file: string, data: Obj) => ({ file, data: data as JsonObject, locate: () => undefined });
  return diffSpecs(v('a.yaml', a), v('b.yaml', b)).map((f) => {
    expect(f.pointer, `${f.rule} has a pointer`).toBeTypeOf('string');
    expect(RULES[f.rule], `${f.rule} is a documented rule`).toBeTypeOf('string');
    return `${f.rule} ${f.class}`;
  });
}

describe('wiregen diff of a spec: one pair per rule', () => {
  it.each(CASES)('$name', ({ a, b, forward, reverse }) => {
    expect(found(a, b).sort()).toEqual([...forward].sort());
    expect(found(b, a).sort()).toEqual([...reverse].sort());
  });

  it('every rule a spec can report has a pair', () => {
    const covered = new Set(CASES.flatMap((c) => [...c.forward, ...c.reverse].map((f) => f.split(' ')[0])));
    const keys = Object.keys(RULES);
    // The spec's own rules, and the schema rules its tool schemas are compared with.
    const spec = [
      ...keys.slice(keys.indexOf('SPEC_SAME_KIND')),
      'PROPERTY_NO_DELETE',
      'PROPERTY_ADDED',
      'PROPERTY_ADDED_REQUIRED',
      'PROPERTY_RENAMED',
      'PROPERTY_SAME_REQUIRED',
      'SCHEMA_SAME_TYPE',
      'SCHEMA_SAME_CONST',
      'ENUM_VALUE_NO_DELETE',
      'ENUM_VALUE_ADDED',
      'UNION_MEMBER_NO_DELETE',
      'UNION_MEMBER_ADDED',
      'ADDITIONAL_PROPERTIES_CLOSED',
      'ADDITIONAL_PROPERTIES_OPENED',
      'FORMAT_SAME',
      'CONSTRAINT_SAME',
    ];
    expect(spec.filter((r) => !covered.has(r))).toEqual([]);
  });
});
