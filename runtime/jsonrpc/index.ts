/**
 * @module jsonrpc — JSON-RPC 2.0 (https://www.jsonrpc.org/specification): messages, errors and a peer that
 * correlates requests and responses over any {@link Transport}.
 */
export { canonicalJson } from './canonical.ts';
export { ErrorCode, JsonRpcError, type JsonObject, type RequestId, type WideId } from './message.ts';
export { Peer, type IncomingRequest, type PeerOptions } from './peer.ts';
