/**
 * @module test/runtime/canonical-json — `canonicalJson` (runtime/jsonrpc/canonical.ts): compact JSON with
 * object keys sorted by UTF-16 code unit and `undefined` members left out, so that equal values give equal
 * bytes (request-state signatures, structured tool content's text, the A2A card's ETag). Each case is checked
 * against an oracle written apart from it: the value with every object's keys sorted, through JSON.stringify.
 */
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../runtime/jsonrpc/canonical.ts';

/** The oracle: a copy with sorted keys (JSON.stringify keeps insertion order and drops undefined members). */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedCopy((value as Record<string, unknown>)[k]);
  return out;
}

/**
 * A second oracle, for keys JavaScript cannot hold in sorted order (array indices come first in an object):
 * the text built from the sorted keys with map and join. An object that is not an array is written by its own
 * enumerable keys (a Date is `{}`), as canonicalJson documents.
 */
function textOracle(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : textOracle(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .filter((k) => record[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${textOracle(record[k])}`);
  return `{${members.join(',')}}`;
}

const CASES: [string, unknown][] = [
  ['a string needing escapes', 'line\n"quoted"\\ \u2028 é 😀'],
  ['numbers, booleans, null', [0, -1.5, 1e21, true, false, null]],
  ['keys out of order', { b: 1, a: 2, c: { z: [], y: {} } }],
  ['keys already in order', { id: 'n1', title: 'First' }],
  ['undefined members left out', { b: undefined, a: 1, c: undefined }],
  ['only undefined members', { a: undefined }],
  ['keys by code unit, not locale', { b: 1, B: 2, é: 3, e: 4, '😀': 5, '\uffff': 6 }],
  ['keys that need escaping', { 'a"b': 1, 'new\nline': 2 }],
  [
    'nested arrays of objects',
    {
      notes: [
        { title: 'x', id: 'n2' },
        { id: 'n1', title: 'y', tags: ['b', 'a'] },
      ],
      next: '50',
    },
  ],
  ['an empty object and array', { a: {}, b: [] }],
  ['undefined in an array is null, as JSON.stringify writes it', [1, undefined, 2]],
];

describe('canonicalJson', () => {
  test.each(CASES)('%s', (_, value) => {
    const text = canonicalJson(value);
    expect(text).toBe(JSON.stringify(sortedCopy(value)));
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
  });

  test('integer-like keys sort as strings ("10" before "9"), not in the order JavaScript keeps them', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', x: 1 })).toBe('{"10":"b","9":"a","x":1}');
  });

  test('an index-like key anywhere, a toJSON member or a Date inside are written as the text oracle writes them', () => {
    const values: unknown[] = [
      { outer: { b: 1, 10: 2, 9: 3 }, a: [{ 0: 'x' }] },
      { b: { toJSON: 'not called', a: 1 }, a: 0 },
      { when: new Date(0), a: 1 },
      { a: Object.assign(Object.create(null) as object, { d: 1, c: 2 }) },
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(textOracle(value));
  });

  test('random values, nested and out of order, agree with the text oracle; the value given is not changed', () => {
    let seed = 0x2545f491;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const KEYS = ['id', 'name', 'b', 'a', 'Z', 'é', '10', '9', 'x y', 'toString', '__proto_', ''];
    const make = (depth: number): unknown => {
      const kind = next(depth > 3 ? 4 : 7);
      if (kind === 0) return next(1000) - 500;
      if (kind === 1) return ['s', 'q"uote', '\u2028', ''][next(4)];
      if (kind === 2) return [true, false, null, undefined][next(4)];
      if (kind === 3) return next(10) / 7;
      if (kind === 4) return Array.from({ length: next(4) }, () => make(depth + 1));
      const object: Record<string, unknown> = {};
      for (let i = next(6); i > 0; i--) object[KEYS[next(KEYS.length)]!] = make(depth + 1);
      return object;
    };
    for (let i = 0; i < 500; i++) {
      const value = make(0);
      const before = JSON.stringify(value);
      expect(canonicalJson(value)).toBe(textOracle(value));
      expect(JSON.stringify(value)).toBe(before);
    }
  });

  test('equal values in any key order give the same text', () => {
    expect(canonicalJson({ a: 1, b: { d: [1, { f: 1, e: 2 }], c: 3 } })).toBe(canonicalJson({ b: { c: 3, d: [1, { e: 2, f: 1 }] }, a: 1 }));
  });
});
