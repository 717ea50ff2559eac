/**
 * @module mcp/server/serving — what serving one request of either era needs of whatever carries it: the
 * server, where the request's notifications go, the listen streams held there, and the era it is locked to.
 * {@link Serving} is the base of a connection (connection.ts) and of one 2026-07-28 HTTP request served
 * without a connection (http/call.ts). What a request goes through is written in its era's sequence:
 * handshake/session.ts `HandshakeSession.serve`, stateless/request.ts `serveStateless`.
 */
import type { AuthInfo } from '../../auth/info.ts';
import type { IncomingRequest } from '../../jsonrpc/incoming.ts';
import type { JsonObject, RequestId } from '../../jsonrpc/message.ts';
import type { Listen } from './connection.ts';
import type { McpServer } from './server.ts';

/** Where a request's notifications go: the client's side of its connection, or its HTTP answer. */
export interface Notifier {
  /** Sends a notification; `relatedTo` names the incoming request it was produced for, if any. */
  notify(method: string, params?: JsonObject, relatedTo?: RequestId): void;
}

/** The connection-independent part of serving requests; a subclass says where notifications go. */
export abstract class Serving {
  readonly server: McpServer;
  abstract readonly peer: Notifier;
  /** The subscriptions/listen streams held open here. */
  abstract readonly listens: Map<string, Listen>;

  constructor(server: McpServer) {
    this.server = server;
  }

  /** Ends the SSE stream of request `id`, for the client to resume (a no-op where answers are not streams). */
  abstract closeStream(id: RequestId): void;

  /** Locks this to the 2026-07-28 era, unless an era is already in place (the first valid request decides). */
  abstract enterStateless(): void;

  /** Who sent `req` (RequestContext.auth): the verified token of the HTTP request that carried it; none by default. */
  authOf(_req: IncomingRequest): AuthInfo | undefined {
    return undefined;
  }
}
