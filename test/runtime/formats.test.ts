/**
 * The ES module formats of @wiregen/core (core/formats.ts) against the oracle they stand in for, ajv-formats'
 * full formats: the same verdict on hand-picked edge cases and on thousands of generated and mutated strings
 * (seeded, so a failure reproduces).
 */
import ajvFormatsModule from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { formats } from '../../core/formats.ts';

type Oracle = { fullFormats: Record<string, ((s: string) => boolean) | { validate: (s: string) => boolean } | RegExp> };
const oracle = ((ajvFormatsModule as unknown as { default?: Oracle }).default ?? ajvFormatsModule) as Oracle;
const check = (name: string) => {
  const f = oracle.fullFormats[name]!;
  return typeof f === 'function' ? f : f instanceof RegExp ? (s: string) => f.test(s) : f.validate;
};
const ours = (name: keyof typeof formats) => {
  const f = formats[name];
  return typeof f === 'function' ? f : f.validate;
};

/** A small seeded generator (mulberry32), so every run tries the same strings. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS: Record<keyof typeof formats, string[]> = {
  uri: [
    'https://example.com/a/b?c=d#e',
    'docs://readme',
    'file:///tmp/x',
    'urn:isbn:0451450523',
    'http://[::1]:8080/',
    'http://[v7.fe]/',
    'http://192.168.0.1/x',
    'mailto:a@b.c',
    'a:b',
    'relative/path',
    '//host/only',
    'http://exa mple.com',
    'http://%zz',
    'ht~tp://x',
    '',
    ':',
    // The one-pass subset (URI_COMMON) and what falls outside it to the full expression.
    'HTTPS://Example.COM/A?B#C',
    'http://host:8080/x',
    'http://user@host/x',
    'http://host/%41',
    'a::',
    'a:',
    'a://',
    'a:/b',
    '1a:b',
    'a:b\n',
    'https://example.com/a b',
    // The one-pass subset (URI_COMMON): each of its parts accepted, and cut short, both ways; non-ASCII letters
    // that case-fold to ASCII ones (ſ, the Kelvin sign) match none of its classes.
    'file:///project/src/main.rs',
    'A+b-c.d://h/s;p=1/t@u:v?q=/?x#f/?y',
    'a:b:c@d/e',
    'a:b?',
    'a:b#',
    'a://h?q#f',
    'a:?q',
    'a:#f',
    'a:/',
    'a//b:c',
    'a:b#c#d',
    'a://h:',
    'a://h@',
    'a://h/%2F',
    'a:b/c d',
    'a:b/\u00e9',
    'é:b',
    'a\u0301:b',
    'a:bſ',
    'a:b\u212a',
    'ſ:b',
    '+a:b',
    'a.b:c',
  ],
  'date-time': [
    '2026-07-28T10:00:00Z',
    '2026-07-28t10:00:00.123+02:00',
    '2024-02-29T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-12-31T22:59:60-01:00',
    '2026-12-31T23:59:60+01:00',
    '2026-07-28 10:00:00Z',
    '2026-07-28T10:00:00',
    '2026-13-01T00:00:00Z',
    '2026-07-28T24:00:00Z',
    '2026-07-28T10:00:00+24:00',
    '2026-07-28T10:00:00+0130',
    '2026-07-28',
    'not a date',
  ],
  byte: [
    '',
    'YQ==',
    'YWI=',
    'YWJj',
    'YWJjZA==',
    'Y',
    'YQ=',
    'YQ===',
    'Y Q==',
    'YWJj\nZA==',
    '++//',
    'YW-_',
    // Without line terminators (one pass) and with them (the `m` flag: any line may match).
    '====',
    'A===',
    '=AAA',
    'AA=A',
    '!!!\n',
    '\nYQ==',
    'YQ==\r!',
    'YQ==\u2028',
    '!\u2029YWJj',
    // Characters past ASCII, whose codes are outside the alphabet table.
    'YW\u00e9j',
    'YWJ\u0100',
    'YQ\u3d3d',
  ],
};
const ALPHABET: Record<keyof typeof formats, string> = {
  uri: "abz09:/?#[]@!$&'()*+,;=-._~%AF \u00e9\u017f",
  'date-time': '0123456789-:.TtZz+ ',
  byte: 'AZaz09+/= \n-_\u00e9\u013d',
};

function mutations(seed: string, next: () => number, alphabet: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const chars = [...seed];
    const edits = 1 + Math.floor(next() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(next() * (chars.length + 1));
      const c = alphabet[Math.floor(next() * alphabet.length)]!;
      const op = next();
      if (op < 0.4) chars.splice(at, 0, c);
      else if (op < 0.7) chars.splice(at, 1);
      else chars[Math.min(at, chars.length - 1)] = c;
    }
    out.push(chars.join(''));
  }
  return out;
}

describe('runtime formats agree with ajv-formats (full)', () => {
  for (const name of Object.keys(formats) as (keyof typeof formats)[]) {
    it(`${name}: ${SEEDS[name].length} edge cases and 3,000 mutations`, () => {
      const next = random(0x5eed + name.length);
      const inputs = [...SEEDS[name], ...SEEDS[name].flatMap((s) => mutations(s, next, ALPHABET[name], Math.ceil(3000 / SEEDS[name].length)))];
      const theirs = check(name);
      const mine = ours(name);
      const disagreements = inputs.filter((s) => theirs(s) !== mine(s));
      expect(disagreements).toEqual([]);
      // Both verdicts occur, so the comparison says something.
      expect(inputs.some((s) => mine(s))).toBe(true);
      expect(inputs.some((s) => !mine(s))).toBe(true);
    });
  }
});
