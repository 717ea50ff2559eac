/**
 * @module mcp/revisions — the generated MCP packages the runtime serves, by era (from generated/index.ts).
 */
import { handshakeRevisions, mcp, statelessRevisions } from '../../generated/index.ts';
import type { MethodEntry, Validator } from '../../generated/mcp-2026-07-28/index.ts';
import type { JsonObject } from '../jsonrpc/message.ts';

/** What the runtime uses of a generated package (every revision's has this shape). */
export interface Revision {
  readonly version: string;
  lookup(method: string): MethodEntry | undefined;
  readonly validators: Readonly<Record<string, Validator<unknown>>>;
}

function revision(version: keyof typeof mcp): Revision {
  const { pkg } = mcp[version];
  return { version, lookup: pkg.lookup, validators: pkg.validators as unknown as Record<string, Validator<unknown>> };
}

export const HANDSHAKE: ReadonlyMap<string, Revision> = new Map(handshakeRevisions.map((v) => [v, revision(v)]));
export const STATELESS: ReadonlyMap<string, Revision> = new Map(statelessRevisions.map((v) => [v, revision(v)]));
/** The newest handshake revision: offered when a client asks for one the server does not know. */
export const LATEST_HANDSHAKE = handshakeRevisions[handshakeRevisions.length - 1]!;
export const LATEST_STATELESS = statelessRevisions[statelessRevisions.length - 1]!;

/** Methods only the stateless era has (server/discover, subscriptions/listen): their requests are 2026-07-28. */
export function statelessOnly(method: string): boolean {
  return [...STATELESS.values()].some((r) => r.lookup(method)) && ![...HANDSHAKE.values()].some((r) => r.lookup(method));
}

/** Whether `caps` opens the capability at `path` (present, and not false or null). */
export function gateOpen(caps: JsonObject, path: readonly string[]): boolean {
  let node: unknown = caps;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as JsonObject)[key] : undefined;
  return node !== undefined && node !== false && node !== null;
}

/** Whether every `side` gate of `entry` (from the manifest) is open in `caps`. */
export function gatesOpen(entry: MethodEntry, side: 'server' | 'client', caps: JsonObject): boolean {
  return entry.capabilities.every((gate) => gate.side !== side || gateOpen(caps, gate.path));
}

/** Whether `revision` has the server notification `method` and `caps` opens its gates. */
export function advertises(revision: Revision, method: string, caps: JsonObject): boolean {
  const entry = revision.lookup(method);
  return entry !== undefined && gatesOpen(entry, 'server', caps);
}
