/**
 * @module test/helpers/json-diff — JSON equality where object key order never matters, and the first
 * difference as a JSON pointer, so a failed replay says where two messages part (`/result/tools/0/name`)
 * instead of dumping two 3 kB lines side by side.
 *
 * Values are compared as JSON.parse gives them: arrays in order, numbers with `===` (so 1 and 1.0 are equal,
 * as they are once parsed), no coercion between types (1 ≠ "1", null ≠ {}, [] ≠ {}).
 */

export interface JsonDifference {
  /** RFC 6901 pointer to the first differing value ("" is the whole document). */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** What differs there, e.g. `missing member`, `unexpected member`, `length 3 ≠ 2`. */
  readonly reason: string;
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first place where `actual` differs from `expected`, depth first in `expected`'s key order; undefined when equal. */
export function firstDifference(expected: unknown, actual: unknown, path = ''): JsonDifference | undefined {
  const ke = kind(expected);
  const ka = kind(actual);
  if (ke !== ka) return { path, expected, actual, reason: `${ke} ≠ ${ka}` };
  if (ke === 'array') {
    const e = expected as unknown[];
    const a = actual as unknown[];
    for (let i = 0; i < Math.min(e.length, a.length); i++) {
      const d = firstDifference(e[i], a[i], `${path}/${i}`);
      if (d) return d;
    }
    return e.length === a.length ? undefined : { path, expected, actual, reason: `length ${e.length} ≠ ${a.length}` };
  }
  if (ke === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      const at = `${path}/${escapeToken(key)}`;
      if (!Object.hasOwn(a, key)) return { path: at, expected: e[key], actual: undefined, reason: 'missing member' };
      const d = firstDifference(e[key], a[key], at);
      if (d) return d;
    }
    for (const key of Object.keys(a))
      if (!Object.hasOwn(e, key)) return { path: `${path}/${escapeToken(key)}`, expected: undefined, actual: a[key], reason: 'unexpected member' };
    return undefined;
  }
  return expected === actual ? undefined : { path, expected, actual, reason: 'value differs' };
}

/** One line: `at /result/isError: value differs: expected false, got true`. */
export function describeDifference(d: JsonDifference): string {
  const show = (v: unknown) => (v === undefined ? '(absent)' : clip(JSON.stringify(v), 300));
  return `at ${d.path || '(root)'}: ${d.reason}: expected ${show(d.expected)}, got ${show(d.actual)}`;
}

/** `text`, cut to `max` characters with a note of how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
