/**
 * @module mcp/revisions — the MCP revisions the runtime speaks, by era (from the generated registry,
 * `@wiregen/revisions`). Each revision's package (its validators and dispatch table) is loaded the first
 * time a request or a client needs it, so a process pays only for the revisions it uses. The registry loads
 * them with one `import('@wiregen/mcp-<revision>')` each, which a bundler sees: with code splitting each is a
 * chunk of its own; a server that lists the revisions it serves (`supportedVersions: ['2026-07-28']`) never
 * loads another, so a bundle may alias the others to an empty module (docs/deployment.md, Workers), and a
 * package found empty counts as not generated ({@link loadRevision}).
 */
import { handshakeRevisions, mcp, statelessRevisions } from '@wiregen/revisions';
import type { MethodEntry, Validator } from '../core/index.ts';
import type { JsonObject } from '../jsonrpc/message.ts';

/** What the runtime uses of a generated package (every revision's has this shape). */
export interface Revision {
  readonly version: string;
  lookup(method: string): MethodEntry | undefined;
  readonly validators: Readonly<Record<string, Validator<unknown>>>;
}

/** The handshake-era revisions, oldest first. */
export const HANDSHAKE_VERSIONS: readonly string[] = handshakeRevisions;
/** The 2026-07-28-era revisions, oldest first. */
export const STATELESS_VERSIONS: readonly string[] = statelessRevisions;
/** The newest handshake revision: offered when a client asks for one the server does not know. */
export const LATEST_HANDSHAKE = handshakeRevisions[handshakeRevisions.length - 1]!;
export const LATEST_STATELESS = statelessRevisions[statelessRevisions.length - 1]!;

/**
 * The revisions a server serves and lists (McpServerOptions.supportedVersions): `stateless` (default) and
 * `all` serve every revision and differ in what they list; a list serves exactly the revisions it names, and
 * lists them all.
 */
export type SupportedVersions = 'stateless' | 'all' | readonly string[];

/**
 * The revisions a server lists in server/discover's supportedVersions and in -32022's data.supported, newest
 * first: `stateless` (default) the 2026-07-28-era revisions only, the ones a client may put in `_meta` (the
 * schema, $def DiscoverResult: "the client should choose a version from this list for use in subsequent
 * requests"; what the official Python SDK sends); `all` every revision it serves, the handshake era's too
 * (the reference Golden Server: test/golden/README.md); a list, the revisions it names.
 */
export function advertisedVersions(choice: SupportedVersions = 'stateless'): readonly string[] {
  if (typeof choice !== 'string') return servedList(choice);
  return choice === 'all' ? ADVERTISED_ALL : ADVERTISED_STATELESS;
}

const NEWEST_FIRST: readonly string[] = [...HANDSHAKE_VERSIONS, ...STATELESS_VERSIONS].reverse();
const lists = new WeakMap<readonly string[], readonly string[]>();

/** A list of revisions as served: checked against the registry (one line naming the unknown one), newest first, once per list. */
function servedList(list: readonly string[]): readonly string[] {
  let served = lists.get(list);
  if (!served) {
    if (list.length === 0) throw new TypeError('supportedVersions: an empty list serves no MCP revision');
    const unknown = list.find((v) => !isVersion(v));
    if (unknown !== undefined)
      throw new TypeError(`supportedVersions: ${JSON.stringify(unknown)} is not an MCP revision (${NEWEST_FIRST.join(', ')})`);
    served = Object.freeze(NEWEST_FIRST.filter((v) => list.includes(v)));
    lists.set(list, served);
  }
  return served;
}

/** Whether a server with `choice` serves `version` (`stateless` and `all` serve every revision). */
export const serves = (choice: SupportedVersions | undefined, version: string): boolean =>
  typeof choice === 'string' || choice === undefined ? isVersion(version) : servedList(choice).includes(version);

/**
 * The newest 2026-07-28-era revision a server serves, whose manifest routes a request before its version is
 * read; undefined when it serves none (its 2026-07-28 requests are then answered -32022).
 */
export function servedStateless(choice: SupportedVersions | undefined): string | undefined {
  return typeof choice === 'string' || choice === undefined ? LATEST_STATELESS : servedList(choice).find(isStatelessVersion);
}

/**
 * The handshake revision initialize answers with for the one `asked`: it when served, else the newest served
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation); undefined
 * when the server serves no handshake revision.
 */
export function negotiatedHandshake(choice: SupportedVersions | undefined, asked: unknown): string | undefined {
  if (typeof asked === 'string' && isHandshakeVersion(asked) && serves(choice, asked)) return asked;
  return typeof choice === 'string' || choice === undefined ? LATEST_HANDSHAKE : servedList(choice).find(isHandshakeVersion);
}

// Built once: every 2026-07-28 request checks its version against one of these.
const ADVERTISED_ALL: readonly string[] = Object.freeze([...HANDSHAKE_VERSIONS, ...STATELESS_VERSIONS].reverse());
const ADVERTISED_STATELESS: readonly string[] = Object.freeze([...STATELESS_VERSIONS]);

/** Whether any revision has `method` (removed or not yet added in the one in use). */
export function inSomeRevision(method: string): boolean {
  return Object.values(mcp).some((r) => (r.methods as readonly string[]).includes(method));
}

type Version = keyof typeof mcp;
const isVersion = (v: string): v is Version => Object.hasOwn(mcp, v);
export const isHandshakeVersion = (v: string): boolean => HANDSHAKE_VERSIONS.includes(v);
export const isStatelessVersion = (v: string): boolean => STATELESS_VERSIONS.includes(v);

// Loaded packages, kept as the module loader keeps them: once per process, whichever server or client asked.
const loaded = new Map<string, Revision>();
const loading = new Map<string, Promise<Revision | undefined>>();

/** The revision `version` if its package is loaded (see {@link loadRevision}). */
export function loadedRevision(version: string): Revision | undefined {
  return loaded.get(version);
}

/** Loads the package of `version` (once); undefined for a revision the registry does not have. */
export function loadRevision(version: string): Promise<Revision | undefined> {
  const done = loaded.get(version);
  if (done) return Promise.resolve(done);
  if (!isVersion(version)) return Promise.resolve(undefined);
  let pending = loading.get(version);
  if (!pending) {
    pending = mcp[version].load().then((pkg: Partial<Awaited<ReturnType<(typeof mcp)[Version]['load']>>>) => {
      loading.delete(version);
      // A bundle that aliased the package to an empty module (docs/deployment.md): not there.
      if (typeof pkg.lookup !== 'function' || !pkg.validators) return undefined;
      const revision: Revision = { version, lookup: pkg.lookup, validators: pkg.validators };
      loaded.set(version, revision);
      return revision;
    });
    loading.set(version, pending);
  }
  return pending;
}

/** Loads a revision the registry is known to have (the LATEST_* constants, a version already checked). */
export async function requireRevision(version: string): Promise<Revision> {
  const revision = await loadRevision(version);
  if (!revision) throw new Error(`no generated package for MCP ${version}`);
  return revision;
}

/** Methods only the stateless era has (server/discover, subscriptions/listen): their requests are 2026-07-28. */
export function statelessOnly(method: string): boolean {
  const has = (v: Version) => (mcp[v].methods as readonly string[]).includes(method);
  return statelessRevisions.some(has) && !handshakeRevisions.some(has);
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
