/**
 * @module golden/compare — how `wiregen golden` compares a response with the expected one: as parsed JSON
 * (object key order never matters; arrays in order; numbers by value; no coercion between types), strings
 * byte for byte, so JSON held inside a string (a structured tool result's text block) must be canonical
 * (compact, keys sorted: the reference Golden corpus's rule, test/golden/reference/PROVENANCE.md) and equal. With
 * `embedded: 'parsed'` such strings compare by the JSON they hold instead, for servers that indent it.
 * A difference is reported per JSON pointer, one line each.
 */
import { canonicalJson } from '@wiregen/runtime/jsonrpc';
import { escapePointerToken } from '../errors.ts';

export { canonicalJson };

/** How strings holding JSON compare: byte for byte and canonical (default), or by the JSON they hold. */
export type EmbeddedJson = 'exact' | 'parsed';

export interface Difference {
  /** RFC 6901 pointer ("" is the whole message). */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** `missing member`, `unexpected member`, `value differs`, `length 3 ≠ 2`, `object ≠ array`, `embedded JSON not canonical`. */
  readonly reason: string;
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The JSON object or array a string holds, or undefined. */
function embedded(value: string): unknown {
  if (!/^\s*[[{]/.test(value)) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Every string in `value` that holds a JSON object or array not written canonically. */
export function nonCanonicalEmbeddedJson(value: unknown, path = ''): Difference[] {
  if (typeof value === 'string') {
    const parsed = embedded(value);
    if (parsed === undefined) return [];
    const canonical = canonicalJson(parsed);
    return canonical === value ? [] : [{ path, expected: canonical, actual: value, reason: 'embedded JSON is not canonical (compact, keys sorted)' }];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => nonCanonicalEmbeddedJson(v, `${path}/${i}`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => nonCanonicalEmbeddedJson(v, `${path}/${escapePointerToken(k)}`));
  return [];
}

/** Every place where `actual` differs from `expected`, depth first in `expected`'s key order (at most `limit`). */
export function differences(expected: unknown, actual: unknown, mode: EmbeddedJson = 'exact', limit = 50): Difference[] {
  const out: Difference[] = [];
  const walk = (e: unknown, a: unknown, path: string): void => {
    if (out.length >= limit) return;
    const ke = kind(e);
    const ka = kind(a);
    if (ke !== ka) return void out.push({ path, expected: e, actual: a, reason: `${ke} ≠ ${ka}` });
    if (ke === 'array') {
      const ea = e as unknown[];
      const aa = a as unknown[];
      for (let i = 0; i < Math.min(ea.length, aa.length); i++) walk(ea[i], aa[i], `${path}/${i}`);
      if (ea.length > aa.length)
        out.push({ path, expected: ea.slice(aa.length), actual: undefined, reason: `length ${ea.length} ≠ ${aa.length}: items missing at the end` });
      if (ea.length < aa.length)
        out.push({ path, expected: undefined, actual: aa.slice(ea.length), reason: `length ${ea.length} ≠ ${aa.length}: items beyond the expected` });
      return;
    }
    if (ke === 'object') {
      const eo = e as Record<string, unknown>;
      const ao = a as Record<string, unknown>;
      for (const key of Object.keys(eo)) {
        const at = `${path}/${escapePointerToken(key)}`;
        if (!Object.hasOwn(ao, key)) out.push({ path: at, expected: eo[key], actual: undefined, reason: 'missing member' });
        else walk(eo[key], ao[key], at);
      }
      for (const key of Object.keys(ao))
        if (!Object.hasOwn(eo, key))
          out.push({ path: `${path}/${escapePointerToken(key)}`, expected: undefined, actual: ao[key], reason: 'unexpected member' });
      return;
    }
    if (ke === 'string' && mode === 'parsed') {
      const pe = embedded(e as string);
      const pa = embedded(a as string);
      if (pe !== undefined && pa !== undefined) {
        if (canonicalJson(pe) !== canonicalJson(pa)) out.push({ path, expected: e, actual: a, reason: 'embedded JSON differs' });
        return;
      }
    }
    if (e !== a) out.push({ path, expected: e, actual: a, reason: 'value differs' });
  };
  walk(expected, actual, '');
  if (mode === 'exact') out.push(...nonCanonicalEmbeddedJson(actual).slice(0, Math.max(0, limit - out.length)));
  return out;
}

/** `text`, cut to `max` characters with a note of how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** One line per difference: `/result/isError: unexpected member: expected (absent), got false`. */
export function describeDifference(d: Difference): string {
  const show = (v: unknown) => (v === undefined ? '(absent)' : clip(JSON.stringify(v), 300));
  return `${d.path || '(root)'}: ${d.reason}: expected ${show(d.expected)}, got ${show(d.actual)}`;
}

/** The JSON written for an accepted response: keys sorted, two-space indent, a final newline. */
export function responseText(response: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sorted(response), null, 2)}\n`;
}
