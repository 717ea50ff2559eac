/**
 * JSON comparison for the replay (json-diff.ts): key order never matters, everything else does, and the
 * first difference is reported as a JSON pointer with a reason.
 */
import { describe, expect, it } from 'vitest';
import { describeDifference, firstDifference } from './json-diff.ts';

const EQUAL: Array<[string, { expected: unknown; actual: unknown }]> = [
  ['key order', { expected: { a: 1, b: { c: 2, d: 3 } }, actual: { b: { d: 3, c: 2 }, a: 1 } }],
  ['1 and 1.0 once parsed', { expected: JSON.parse('{"n":1}'), actual: JSON.parse('{"n":1.0}') }],
  ['nested arrays of objects', { expected: [{ x: [1, { y: null }] }], actual: [{ x: [1, { y: null }] }] }],
  ['empty containers', { expected: { a: [], b: {} }, actual: { b: {}, a: [] } }],
];

const DIFFERENT: Array<[string, { expected: unknown; actual: unknown; path: string; reason: string }]> = [
  ['a value', { expected: { r: { isError: false } }, actual: { r: { isError: true } }, path: '/r/isError', reason: 'value differs' }],
  ['a missing member', { expected: { a: 1, b: 2 }, actual: { a: 1 }, path: '/b', reason: 'missing member' }],
  ['an unexpected member', { expected: { a: 1 }, actual: { a: 1, z: 0 }, path: '/z', reason: 'unexpected member' }],
  ['array order', { expected: [1, 2], actual: [2, 1], path: '/0', reason: 'value differs' }],
  ['array length', { expected: [1, 2], actual: [1, 2, 3], path: '', reason: 'length 2 ≠ 3' }],
  ['number against string', { expected: { id: 1 }, actual: { id: '1' }, path: '/id', reason: 'number ≠ string' }],
  ['null against object', { expected: null, actual: {}, path: '', reason: 'null ≠ object' }],
  ['array against object', { expected: { a: [] }, actual: { a: {} }, path: '/a', reason: 'array ≠ object' }],
  ['a member that is explicitly undefined', { expected: { a: 1 }, actual: { a: undefined }, path: '/a', reason: 'number ≠ undefined' }],
  ['keys with / and ~ are escaped', { expected: { 'a/b': { '~c': 1 } }, actual: { 'a/b': { '~c': 2 } }, path: '/a~1b/~0c', reason: 'value differs' }],
];

describe('JSON comparison', () => {
  it.each(EQUAL)('equal: %s', (_, { expected, actual }) => {
    expect(firstDifference(expected, actual)).toBeUndefined();
  });

  it.each(DIFFERENT)('different: %s', (_, { expected, actual, path, reason }) => {
    expect(firstDifference(expected, actual)).toMatchObject({ path, reason });
  });

  it('describes a difference on one line', () => {
    expect(describeDifference(firstDifference({ result: { n: 5 } }, { result: { n: 6 } })!)).toBe('at /result/n: value differs: expected 5, got 6');
    expect(describeDifference(firstDifference({ a: 1 }, {})!)).toBe('at /a: missing member: expected 1, got (absent)');
    expect(describeDifference(firstDifference(1, 2)!)).toBe('at (root): value differs: expected 1, got 2');
  });
});
