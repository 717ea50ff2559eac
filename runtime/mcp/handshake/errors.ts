/**
 * @module mcp/handshake/errors — the handshake era's refusals, worded as the official SDK words them (its
 * recorded `raw_handshake` session, test/fixtures/recordings/).
 */
import { ErrorCode, JsonRpcError } from '../../jsonrpc/message.ts';

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
