/**
 * @module sdk/errors — the TypeScript SDK v2's protocol errors (`ProtocolError`, `ProtocolErrorCode`,
 * `ResourceNotFoundError`) as wiregen's JsonRpcError, so what a callback throws is answered by the runtime as
 * that JSON-RPC error response (https://modelcontextprotocol.io/specification/2025-11-25/basic#responses).
 */
import { JsonRpcError } from '../jsonrpc/message.ts';

/** The JSON-RPC and MCP error codes the SDK names (its `ProtocolErrorCode`). */
export const ProtocolErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  UrlElicitationRequired: -32042,
} as const;
export type ProtocolErrorCode = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

/** A JSON-RPC error response: thrown from a resource, prompt or completion callback, the request is answered with it. */
export class ProtocolError extends JsonRpcError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = 'ProtocolError';
  }
}

/** A resources/read miss: -32602 "Resource not found: <uri>" with the uri as data (as the SDK sends it). */
export class ResourceNotFoundError extends ProtocolError {
  constructor(uri: string) {
    super(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
    this.name = 'ResourceNotFoundError';
  }
}
