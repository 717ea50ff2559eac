/**
 * Canonical JSON: compact, object keys sorted by code unit, `undefined` members left out. Used wherever
 * equal values must give equal bytes: MRTR request-state signatures, the text form of structured tool
 * content (the Golden corpus), the A2A card's served form and ETag, request keys in the client.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((k) => record[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
