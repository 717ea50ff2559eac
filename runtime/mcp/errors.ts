/**
 * @module mcp/errors — the MCP errors the runtime sends, with the codes and messages the references give.
 */
import type { ClientCapabilities } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, JsonRpcError } from '../jsonrpc/message.ts';
import { MCP_ERRORS } from './protocol.ts';

/** -32601 as the SDK sends it (the SDK's recorded raw_errors session): the method name as data. */
export const methodNotFound = (method: string) => new JsonRpcError(ErrorCode.MethodNotFound, 'Method not found', method);

/**
 * -32601 for a method of another revision than the one in use, worded as the reference Golden Server words
 * it (`methodNotFound: 'revision'`): `Method not found: initialize (not part of protocol revision 2026-07-28)`,
 * no data (test/golden/reference/modern/initialize.response.json). A method no revision has keeps
 * {@link methodNotFound}.
 */
export const methodNotInRevision = (method: string, revision: string) =>
  new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (not part of protocol revision ${revision})`);

/** The SDK's answer to a handshake-era request it cannot accept (the SDK's recorded raw_handshake session: before initialize). */
export const invalidRequestParameters = () => new JsonRpcError(ErrorCode.InvalidParams, 'Invalid request parameters', '');

/** A 2026-07-28 request on a handshake connection (the SDK's recorded raw_handshake session). */
export const statelessOnHandshake = () =>
  new JsonRpcError(
    ErrorCode.InvalidRequest,
    'this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it',
  );

/** initialize on a connection already past it. */
export const alreadyInitialized = () => new JsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: the connection is already initialized');

/** Params that fail the revision's schema (2026-07-28): the first error's JSON pointer and reason. */
export function invalidParams(errors: readonly { instancePath: string; keyword?: string; message?: string }[] | null | undefined): JsonRpcError {
  // The shallowest error says what is wrong; at a union, "must match a schema in anyOf" beats a branch's detail.
  const depth = (p: string) => (p === '' ? 0 : p.split('/').length);
  const shallowest = errors?.length ? Math.min(...errors.map((x) => depth(x.instancePath))) : 0;
  const candidates = (errors ?? []).filter((x) => depth(x.instancePath) === shallowest);
  const e = candidates.find((x) => x.keyword === 'anyOf' || x.keyword === 'oneOf') ?? candidates[0];
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    e ? `Invalid params: ${e.instancePath ? `${e.instancePath} ` : ''}${e.message ?? 'is invalid'}` : 'Invalid params',
  );
}

/** -32602 with a message of its own (not built from schema errors). */
export const paramsError = (message: string, data?: unknown) => new JsonRpcError(ErrorCode.InvalidParams, message, data);

export const internalError = () => new JsonRpcError(ErrorCode.InternalError, 'Internal error');

/**
 * HeaderMismatchError (-32020): the MCP-Protocol-Version header and the `_meta` version differ
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports).
 */
export const headerMismatch = (header: string, body: string) =>
  new JsonRpcError(MCP_ERRORS.headerMismatch, 'Protocol header does not match request metadata', { header, body });

/** UnsupportedProtocolVersionError (-32022): a 2026-07-28 request for a version this server does not speak, with the ones it does. */
export const unsupportedVersion = (requested: string, supported: Iterable<string>) =>
  new JsonRpcError(MCP_ERRORS.unsupportedVersion, 'Unsupported protocol version', { supported: [...supported], requested });

/** MissingRequiredClientCapabilityError (-32021): the client capabilities a request needs that the client did not declare. */
export const missingClientCapability = (requiredCapabilities: ClientCapabilities) =>
  new JsonRpcError(MCP_ERRORS.missingClientCapability, 'Missing required client capability', { requiredCapabilities });
