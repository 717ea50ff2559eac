/**
 * The golden corpus comparison (test/helpers/golden.ts): parsed-JSON equality, except that JSON held inside
 * a string must be canonical (compact, keys sorted) and compares byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, nonCanonicalEmbeddedJson, responseMismatch, responseText } from './golden.ts';

const text = (t: string) => ({ result: { content: [{ type: 'text', text: t }] } });

describe('responseMismatch', () => {
  const cases: [string, { expected: unknown; actual: unknown; want: RegExp | undefined }][] = [
    ['key order never matters', { expected: { a: 1, b: [1, { c: 2, d: 3 }] }, actual: { b: [1, { d: 3, c: 2 }], a: 1 }, want: undefined }],
    [
      'a changed value is named by its pointer',
      { expected: { result: { isError: false } }, actual: { result: { isError: true } }, want: /^at \/result\/isError: value differs/ },
    ],
    ['an added member is a difference', { expected: { result: {} }, actual: { result: { isError: false } }, want: /unexpected member/ }],
    ['canonical embedded JSON, equal bytes', { expected: text('{"a":1,"b":2}'), actual: text('{"a":1,"b":2}'), want: undefined }],
    [
      'embedded JSON with other key order differs (bytes)',
      {
        expected: text('{"a":1,"b":2}'),
        actual: text('{"b":2,"a":1}'),
        want: /value differs[\s\S]*actual \/result\/content\/0\/text: embedded JSON is not canonical/,
      },
    ],
    [
      'embedded JSON with spaces is not canonical',
      {
        expected: text('[1, 2]'),
        actual: text('[1, 2]'),
        want: /^committed \/result\/content\/0\/text: embedded JSON is not canonical[\s\S]*actual/,
      },
    ],
    ['a string that only looks like JSON is a plain string', { expected: text('{not json'), actual: text('{not json'), want: undefined }],
  ];
  for (const [name, { expected, actual, want }] of cases)
    it(name, () => {
      const got = responseMismatch(expected, actual);
      if (want === undefined) expect(got).toBeUndefined();
      else expect(got).toMatch(want);
    });
});

describe('canonicalJson and nonCanonicalEmbeddedJson', () => {
  it('sorts keys at every depth and writes no spaces', () => {
    expect(canonicalJson({ b: { y: 1, x: [true, null, 'é'] }, a: 1.5 })).toBe('{"a":1.5,"b":{"x":[true,null,"é"],"y":1}}');
  });
  it('reports each non-canonical string with its pointer, and ignores numbers and plain strings', () => {
    expect(nonCanonicalEmbeddedJson({ a: ['{"b":1,"a":2}', 'x', 3], 'k/1': '{ }' })).toEqual([
      expect.stringMatching(/^\/a\/0: /),
      expect.stringMatching(/^\/k~11: /),
    ]);
  });
});

describe('responseText', () => {
  it('writes sorted keys, two-space indent and a final newline', () => {
    expect(responseText({ id: 1, jsonrpc: '2.0', result: { b: 1, a: 2 } })).toBe(
      '{\n  "id": 1,\n  "jsonrpc": "2.0",\n  "result": {\n    "a": 2,\n    "b": 1\n  }\n}\n',
    );
  });
});
