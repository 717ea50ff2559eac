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

/** JSON.stringify of `value`, written once per reusable value. */
export function stringifyOnce(value: unknown): string | undefined {
  if (!isReusable(value)) return JSON.stringify(value) as string | undefined;
  let text = WRITTEN.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    WRITTEN.set(value, text);
  }
  return text;
}
