/**
 * Canonical JSON: compact, object keys sorted by code unit, `undefined` members left out (and an `undefined`
 * array element written `null`, as JSON.stringify writes it). Used wherever equal values must give equal
 * bytes: MRTR request-state signatures, the text form of structured tool content (the Golden corpus), the A2A
 * card's served form and ETag, request keys in the client. Written as loops over one string: it runs on every
 * tools/call result with structured content, and the map/filter/join form cost about twice as much.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
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
    out += `${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}
