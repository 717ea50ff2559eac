/**
 * JSON inputs that are not JSON are located by line and column (Node 20's parser does not always say where).
 */
import { describe, expect, it } from 'vitest';
import { locateJsonError, parseJson } from '../../generator/load/json.ts';

describe('locateJsonError', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['a missing value', { given: '{\n  "a": }', want: 'x.json:2:8: not valid JSON: unexpected "}"' }],
    ['a trailing comma', { given: '[1, 2,]', want: 'x.json:1:7: not valid JSON: unexpected "]"' }],
    ['an unterminated object', { given: '{"a": 1', want: "x.json:1:8: not valid JSON: expected ',' or '}', unexpected end of input" }],
    ['an empty file', { given: '', want: 'x.json:1:1: not valid JSON: unexpected end of input' }],
    ['two values', { given: '{} {}', want: 'x.json:1:4: not valid JSON: unexpected "{" after the JSON value' }],
    ['a bad escape', { given: '"\\q"', want: 'x.json:1:3: not valid JSON: bad escape' }],
    ['a single-quoted key', { given: "{'a': 1}", want: 'x.json:1:2: not valid JSON: expected a property name, unexpected "\'"' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(() => parseJson(given, 'x.json')).toThrow(want);
  });

  it('accepts what JSON.parse accepts', () => {
    for (const text of ['{}', '[]', '0', '-1.5e3', '"\\u00e9"', ' {"a":[true,false,null]} ', '\ufeff{}'])
      expect(locateJsonError(text).reason, text).toBe('not valid JSON');
  });
});
