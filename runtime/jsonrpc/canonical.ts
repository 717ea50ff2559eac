/**
 * Canonical JSON: compact, object keys sorted by code unit, `undefined` members left out (and an `undefined`
 * array element written `null`, as JSON.stringify writes it). Used wherever equal values must give equal
 * bytes: MRTR request-state signatures, the text form of structured tool content (the Golden corpus), the A2A
 * card's served form and ETag, request keys in the client. It runs on every tools/call result with structured
 * content, so the common case is a copy with sorted keys written by the engine's own JSON.stringify (about a
 * third faster than building the text in script); {@link canonicalText} writes the rest.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const copy = inOrder(value);
  return copy === ODD ? canonicalText(value) : JSON.stringify(copy);
}

/** Returned by {@link inOrder} for a value JSON.stringify would not write as canonicalText does. */
const ODD = Symbol('odd');
/** An array index as a key: JavaScript keeps such keys first, in numeric order, whatever order they are set in. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

/**
 * `value` with every plain object's keys in code-unit order: the value itself where it already is, a copy
 * otherwise. ODD where the engine's JSON.stringify would write something else than {@link canonicalText}: a
 * key that is an array index (its object cannot hold it in sorted order), a `toJSON` member, or an object that
 * is neither a plain object nor an array (a Date, say, whose `toJSON` JSON.stringify would call).
 */
function inOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const ordered = inOrder(item);
      if (ordered === ODD) return ODD;
      if (ordered !== item) (out ??= value.slice())[i] = ordered;
    }
    return out ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return ODD;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const first = k.charCodeAt(0);
    if ((first <= 0x39 && first >= 0x30 && INDEX_KEY.test(k)) || k === 'toJSON') return ODD;
    if (i > 0 && keys[i - 1]! > k) sorted = false;
  }
  if (!sorted) sortKeys(keys);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = record[k];
    const ordered = inOrder(v);
    if (ordered === ODD) return ODD;
    if (out === undefined && (!sorted || ordered !== v)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = record[keys[j]!];
    }
    if (out !== undefined) out[k] = ordered;
  }
  return out ?? value;
}

/** Sorts short key lists by insertion (fewer compares and no comparator calls than Array#sort for objects' few keys). */
function sortKeys(keys: string[]): void {
  if (keys.length > 24) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}

/** Canonical JSON written as loops over one string: for the values {@link inOrder} cannot reorder. */
function canonicalText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined ? 'null' : canonicalText(item);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Objects built by code are often already in order (`{ id, title }`): sort only when they are not.
  for (let i = 1; i < keys.length; i++)
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  let out = '{';
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(k)}:${canonicalText(v)}`;
  }
  return `${out}}`;
}
