/**
 * @module mcp/stateless/meta — the request `_meta` envelope of MCP 2026-07-28 (https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle),
 * checked in the order the golden corpus and the official SDK's recorded sessions answer in,
 * each failure with its code and message. Shapes are checked with the generated validators.
 */
import { isObject, JsonRpcError, readId, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import { paramsError } from '../server/errors.ts';
import { MCP_ERRORS, META } from '../protocol.ts';
import { isStatelessVersion, loadedRevision, STATELESS_VERSIONS } from '../revisions.ts';
import type { ClientCapabilities, Implementation } from '@wiregen/mcp-2026-07-28';
import type { LoggingLevel, Open } from '../server/types.ts';

export { META };

/** The SDK's answer (the SDK's recorded raw_errors session) when a 2026-07-28 request has no `_meta` object. */
export const MISSING_ENVELOPE =
  "params._meta must be an object carrying the required 'io.modelcontextprotocol/protocolVersion' and 'io.modelcontextprotocol/clientCapabilities' envelope keys";

/** `_meta` key syntax: optional dotted-label prefix ending in `/`, then an optional name (schema MetaObject). */
const META_KEY =
  /^(?:(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?))*\/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/**
 * `_meta` keys already found valid: a client sends the same few (the envelope's) on every request, matched
 * against META_KEY once rather than each time. Bounded, so a client inventing keys cannot grow it.
 */
const validKeys = new Set<string>();
const VALID_KEYS_KEPT = 256;

function isMetaKey(key: string): boolean {
  if (validKeys.has(key)) return true;
  if (!META_KEY.test(key)) return false;
  if (validKeys.size < VALID_KEYS_KEPT) validKeys.add(key);
  return true;
}

export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: Open<ClientCapabilities>;
  readonly clientInfo: Open<Implementation> | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly progressToken: RequestId | undefined;
}

/** UnsupportedProtocolVersionError (-32022): a 2026-07-28 request for a version this server does not speak, with the ones it does. */
export const unsupportedVersion = (requested: string, supported: Iterable<string>) =>
  new JsonRpcError(MCP_ERRORS.unsupportedVersion, 'Unsupported protocol version', { supported: [...supported], requested });

/**
 * The -32022 answer to a request for `version`, or undefined when this server speaks it (a 2026-07-28-era
 * revision among the `supported` it lists): the one check of the version, made by the `_meta` checks below
 * and, first, by HTTP admission (runtime/mcp/http/handler.ts).
 */
export function unsupportedVersionOf(version: string, supported: readonly string[] = STATELESS_VERSIONS): JsonRpcError | undefined {
  return isStatelessVersion(version) && supported.includes(version) ? undefined : unsupportedVersion(version, supported);
}

/** A client's identity as the schema of the revision in use has checked it (an Implementation), if it is there. */
export function implementationOf(value: unknown): Open<Implementation> | undefined {
  return isObject(value) ? (value as Open<Implementation>) : undefined;
}

/** Does this request carry the 2026-07-28 envelope (decides the era of a fresh connection)? */
export function hasStatelessEnvelope(params: JsonObject | undefined): boolean {
  const meta = params?.['_meta'];
  return isObject(meta) && (META.protocolVersion in meta || META.clientCapabilities in meta);
}

/**
 * The 2026-07-28-era revision a request's `_meta` asks for when its package is not loaded yet (to load before
 * {@link checkRequestMeta}, which reads the loaded one), else undefined.
 */
export function unloadedVersion(params: JsonObject | undefined): string | undefined {
  const asked = isObject(params?.['_meta']) ? params['_meta'][META.protocolVersion] : undefined;
  return typeof asked === 'string' && isStatelessVersion(asked) && !loadedRevision(asked) ? asked : undefined;
}

/**
 * Checks a request's `_meta` (in the order above); returns what it carries or throws the documented error.
 * (Over HTTP the MCP-Protocol-Version header has been compared with the body before: runtime/mcp/http/handler.ts.)
 * The revision asked for, and `shapes` (whose validators check the log level), must be loaded; `supported` is
 * what -32022 lists (default: the 2026-07-28-era revisions; revisions.ts `advertisedVersions`).
 */
export function checkRequestMeta(params: JsonObject | undefined, shapes: string, supported: readonly string[] = STATELESS_VERSIONS): RequestMeta {
  const meta = params?.['_meta'];
  if (!isObject(meta)) throw paramsError(MISSING_ENVELOPE);
  for (const key of Object.keys(meta)) if (!isMetaKey(key)) throw paramsError('_meta contains an invalid key or non-JSON value');
  const token = meta['progressToken'];
  if (token !== undefined && readId(token) === undefined)
    throw paramsError('progressToken must be a string of at most 256 bytes or an int64 integer');
  const level = meta[META.logLevel];
  if (level !== undefined && !loadedRevision(shapes)!.validators['LoggingLevel']!(level)) throw paramsError('Invalid MCP request log level');
  const version = meta[META.protocolVersion];
  if (version === undefined) throw paramsError(`Missing required ${META.protocolVersion} metadata`);
  if (typeof version !== 'string') throw paramsError(`${META.protocolVersion} must be a string`);
  const unsupported = unsupportedVersionOf(version, supported);
  if (unsupported) throw unsupported;
  // serveStateless loaded every revision this check lets through before it asked (unloadedVersion).
  const revision = loadedRevision(version)!;
  const info = meta[META.clientInfo];
  if (info !== undefined && !revision.validators['Implementation']!(info)) throw paramsError('Client info must include string name and version');
  const caps = meta[META.clientCapabilities];
  if (caps === undefined) throw paramsError('Missing required client capabilities metadata');
  if (!isObject(caps)) throw paramsError('Client capabilities must be an object');
  const validCaps = revision.validators['ClientCapabilities']!;
  if (!validCaps(caps)) {
    const e = validCaps.errors?.[0];
    throw paramsError(`Client capabilities are malformed${e ? `: ${e.instancePath || '(root)'} ${e.message}` : ''}`);
  }
  return {
    protocolVersion: version,
    clientCapabilities: caps,
    clientInfo: implementationOf(info),
    logLevel: level as LoggingLevel | undefined,
    progressToken: token as RequestId | undefined,
  };
}
