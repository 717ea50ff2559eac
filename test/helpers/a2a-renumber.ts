/**
 * @module test/helpers/a2a-renumber — the comparison the A2A recordings are made for: "compared as JSON
 * with every UUID renumbered in order of appearance and every timestamp blanked". The recording already
 * holds `<id-1>`, `<id-2>`… and `<time>`; this turns our messages into the same form.
 *
 * Order of appearance is the order of a depth-first walk of each message with object keys SORTED and arrays
 * in order, message after message over a whole session (the recorder's order: in a2a_send the task's
 * `artifacts[0].artifactId` is `<id-2>`, `contextId` `<id-3>` and `id` `<id-4>`, alphabetical, not the
 * SDK's field order; `placeholdersInOrder` checks this over the whole recording). A UUID anywhere in a
 * string is renumbered, also inside text ("Task <id-3> is in terminal state: …"); every `timestamp` member
 * with a string value becomes `<time>`.
 */
import { randomUUID } from 'node:crypto';

/** A UUID in any version, as randomUUID and the SDK's uuid4 write them. */
export const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** The recording's placeholder for the n-th UUID of a session. */
export const PLACEHOLDER_PATTERN = /<id-(\d+)>/g;
export const TIME = '<time>';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of `value` in which every string has gone through `fn`, visited depth first with object keys sorted
 * (the copy's keys are sorted too); `key` is the member name the string is the value of, if any.
 */
export function mapStrings(value: unknown, fn: (text: string, key: string | undefined) => string, key?: string): unknown {
  if (typeof value === 'string') return fn(value, key);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn, undefined));
  if (isObject(value)) {
    const out: Json = {};
    for (const k of Object.keys(value).sort()) out[k] = mapStrings(value[k], fn, k);
    return out;
  }
  return value;
}

export interface UuidRenumbering {
  /**
   * `message` with every UUID replaced by its `<id-N>` (new UUIDs get the next number) and every timestamp
   * blanked. Feed every message of a session in order, sent and received alike.
   */
  normalise(message: unknown): unknown;
  /** The real id behind `<id-N>`, once it has appeared. */
  actual(placeholder: string): string | undefined;
}

export function createUuidRenumbering(): UuidRenumbering {
  const names = new Map<string, string>();
  const actuals = new Map<string, string>();
  const nameOf = (uuid: string) => {
    const key = uuid.toLowerCase();
    let name = names.get(key);
    if (name === undefined) {
      name = `<id-${names.size + 1}>`;
      names.set(key, name);
      actuals.set(name, uuid);
    }
    return name;
  };
  return {
    normalise: (message) => mapStrings(message, (text, key) => (key === 'timestamp' ? TIME : text.replace(UUID_PATTERN, nameOf))),
    actual: (placeholder) => actuals.get(placeholder),
  };
}

/** The placeholder numbers of `messages` in order of first appearance (sorted-key walk). */
export function placeholdersInOrder(messages: readonly unknown[]): number[] {
  const seen: number[] = [];
  for (const message of messages)
    mapStrings(message, (text) => {
      for (const m of text.matchAll(PLACEHOLDER_PATTERN)) if (!seen.includes(Number(m[1]))) seen.push(Number(m[1]));
      return text;
    });
  return seen;
}

/**
 * A recorded request made sendable: each `<id-N>` becomes the real id it stands for when it has appeared
 * already (a task id the server made), else the client's own id for it from `clientIds` (a fresh UUID the
 * first time: the client's messageId and the like).
 */
export function instantiate(recorded: unknown, renumbering: UuidRenumbering, clientIds: Map<string, string>): unknown {
  return mapStrings(recorded, (text) =>
    text.replace(PLACEHOLDER_PATTERN, (placeholder) => {
      const known = renumbering.actual(placeholder) ?? clientIds.get(placeholder);
      if (known) return known;
      const fresh = randomUUID();
      clientIds.set(placeholder, fresh);
      return fresh;
    }),
  );
}
