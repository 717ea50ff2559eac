/**
 * @module mcp/http/answers — the HTTP answers of the MCP endpoint that are decided before any message is
 * served: the status of a JSON-RPC error (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports),
 * a request's repeated single-valued headers, and the Allow header of a 405.
 */
import { ErrorCode, errorResponse, JsonRpcError, serialize, type RequestId } from '../../jsonrpc/message.ts';
import { sendJson, type HttpRequest, type HttpResponse } from '../../transports/exchange.ts';
import { HTTP_400_CODES } from '../protocol.ts';
import { advertisedVersions, HANDSHAKE_VERSIONS, type SupportedVersions } from '../revisions.ts';

/** HTTP status of a JSON-RPC error in the 2026-07-28 era (the transports page's table of status codes). */
export function statusForError(code: number | undefined): number {
  if (code === undefined) return 200;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === ErrorCode.InternalError) return 500;
  return BAD_REQUEST_CODES.has(code) ? 400 : 200;
}

/** JSON-RPC's parse, request and params errors (the transports page), and the MCP errors whose definition requires 400 (mcp/protocol.ts). */
const BAD_REQUEST_CODES: ReadonlySet<number> = new Set([ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.InvalidParams, ...HTTP_400_CODES]);

export const errorBody = (id: RequestId | null, code: number, message: string, data?: unknown) =>
  serialize(errorResponse(id, new JsonRpcError(code, message, data)));

/** Answers `error` as a JSON-RPC error response with HTTP `status`. */
export const sendError = (res: HttpResponse, status: number, id: RequestId | null, error: JsonRpcError) =>
  sendJson(res, status, serialize(errorResponse(id, error)));

/**
 * The first of `names` (as written in the specification) that `req` carries more than once, comma-joined
 * where the platform joins repeats (fetch): each is one value (a session id, a revision, an event id), so a
 * list is refused rather than read as an unknown value.
 */
export function repeatedHeader(req: HttpRequest, names: readonly string[]): string | undefined {
  return names.find((name) => req.header(name.toLowerCase()) === null);
}

/** Answers 400 naming the repeated header `name`. */
export const sendRepeated = (res: HttpResponse, id: RequestId | null, name: string) =>
  sendJson(res, 400, errorBody(id, ErrorCode.InvalidRequest, `Bad Request: ${name} is repeated`));

/**
 * The methods a 405 lists in Allow (RFC 9110 §10.2.1): `GET, POST, DELETE` with a session, and on a server
 * that opens sessions (it serves a handshake-era revision: initialize, then GET for the stream and DELETE to
 * end it, https://modelcontextprotocol.io/specification/2025-11-25/basic/transports); `POST` otherwise, and for
 * a GET or DELETE without a session, which nothing else could make acceptable.
 */
export function allowedMethods(method: string, hasSession: boolean, supportedVersions: SupportedVersions | undefined): string {
  if (hasSession) return 'GET, POST, DELETE';
  if (method === 'GET' || method === 'DELETE') return 'POST';
  return opensSessions(supportedVersions) ? 'GET, POST, DELETE' : 'POST';
}

/** Whether a server serving `choice` answers initialize (`stateless` and `all` serve every revision). */
const opensSessions = (choice: SupportedVersions | undefined) =>
  typeof choice !== 'object' || advertisedVersions(choice).some((v) => HANDSHAKE_VERSIONS.includes(v));
