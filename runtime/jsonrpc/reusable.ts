/**
 * @module jsonrpc/reusable — a value answered many times unchanged (a catalog's page of tools/list, the same for
 * every client until the catalog changes): a deep-frozen JSON copy, so what checks or writes it once may keep
 * what it found for the next answer (the result check in mcp/server/result-check.ts, the text in message.ts
 * serializeResult). Frozen, no handler or extension can change it after it was checked or written: one that
 * tries gets a TypeError (strict mode), and the next answer is the same bytes.
 */

/** Values made by {@link reusable}, every object in them frozen. */
const REUSABLE = new WeakSet<object>();

/** The text JSON.stringify writes for each reusable value that was written (message.ts member). */
const WRITTEN = new WeakMap<object, string>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/**
 * A deep-frozen copy of the JSON data `value`, marked reusable. The copy is `JSON.parse(JSON.stringify(value))`,
 * which JSON.stringify writes as the same text as `value` (members JSON cannot hold left out as before), so an
 * answer made of it is the same bytes as one made of `value`; later changes to `value` do not reach it.
 */
export function reusable<T extends object>(value: T): T {
  const copy = JSON.parse(JSON.stringify(value)) as T;
  deepFreeze(copy);
  REUSABLE.add(copy);
  return copy;
}

/** Whether `value` was made by {@link reusable} (so it is deep-frozen). */
export function isReusable(value: unknown): value is object {
  return typeof value === 'object' && value !== null && REUSABLE.has(value);
}

/** The UTF-8 of each reusable value's text that was asked for as bytes. */
const ENCODED = new WeakMap<object, Uint8Array<ArrayBuffer>>();

const encoder = new TextEncoder();

/**
 * `write(JSON.stringify(value))`, once per reusable value (`write` is the same function for every value:
 * message.ts's, which writes WideIds as their digits); each other value's on every call.
 */
export function stringifyOnce(value: unknown, write: (json: string) => string): string | undefined {
  if (!isReusable(value)) {
    const json = JSON.stringify(value) as string | undefined;
    return json === undefined ? undefined : write(json);
  }
  let text = WRITTEN.get(value);
  if (text === undefined) {
    text = write(JSON.stringify(value));
    WRITTEN.set(value, text);
  }
  return text;
}

/** The UTF-8 of {@link stringifyOnce}'s text of reusable `value`, encoded once. */
export function encodedOnce(value: object, write: (json: string) => string): Uint8Array<ArrayBuffer> {
  let bytes = ENCODED.get(value);
  if (bytes === undefined) {
    bytes = encoder.encode(stringifyOnce(value, write));
    ENCODED.set(value, bytes);
  }
  return bytes;
}
