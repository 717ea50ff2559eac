/**
 * @module mcp/revisions — the generated MCP packages the runtime serves, by era (from generated/index.ts).
 */
import { handshakeRevisions, mcp, statelessRevisions } from '../../generated/index.ts';
import type { MethodEntry, Validator } from '../../generated/mcp-2026-07-28/index.ts';

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
