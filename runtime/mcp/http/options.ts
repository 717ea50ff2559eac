/**
 * @module mcp/http/options — the options of the MCP Streamable HTTP server (http.ts) and their defaults.
 */
import type { AuthInfo } from '../../auth/info.ts';
import type { HttpRequest, HttpResponse, OriginPolicy } from '../../transports/exchange.ts';
import { HTTP_TIMEOUTS, type HttpServerTimeouts } from '../../transports/http.ts';
import { OUTBOUND_DEFAULTS, type OutboundLimits } from '../../transports/transport.ts';
import type { ResumabilityOptions } from './resume.ts';

export interface McpHttpOptions extends OriginPolicy, OutboundLimits, HttpServerTimeouts {
  /** The endpoint. Default `/mcp`. */
  readonly path?: string;
  /** Largest request body. Default 4 MiB (413 beyond). */
  readonly maxBodyBytes?: number;
  /** How long a client may take to send its body. Default 30 s (408 after). */
  readonly bodyTimeoutMs?: number;
  /** Most long-lived streams (listen streams and session GET streams) open at once. Default 256 (503 beyond). */
  readonly maxStreams?: number;
  /** Interval of SSE keep-alive comments. Default 15 s. */
  readonly keepAliveMs?: number;
  /**
   * A subscriptions/listen stream open this long is ended by the server with its SubscriptionsListenResult
   * (the graceful teardown of the 2026-07-28 schema), before a platform that limits a request's duration cuts
   * it without one; the client then listens again (listen.ts). Set it below the platform's limit. Default 0:
   * never (the stream lasts until the client cancels it or the server shuts down).
   */
  readonly maxListenMs?: number;
  /** A handshake-era session unused this long is closed. Default 30 min. */
  readonly sessionIdleMs?: number;
  // OutboundLimits: each SSE answer's queue (softQueueBytes 1 MiB, maxQueueBytes 16 MiB, transports/transport.ts).
  // HttpServerTimeouts: listenMcpHttp's node:http server only (transports/http.ts); adapters use the caller's server.
  /**
   * Authorization, opt-in: asked before any request is dispatched (POSTs once their JSON-RPC method is known),
   * and given the first look at every request (its metadata document). `protectedResource(…)` from
   * `@wiregen/runtime/auth` makes one. Default none (every request is served).
   */
  readonly authorization?: HttpAuthorization;
  /**
   * Resumable SSE streams in handshake-era sessions (resume.ts, SEP-1699): priming events, event ids,
   * replay after `Last-Event-ID` from a log of `replayBytes` (default 1 MiB) per session, `ctx.closeStream()`;
   * a client that drops a stream does not cancel its request. Default off (no event ids).
   */
  readonly resumability?: ResumabilityOptions;
}

/** An HTTP answer that refuses a request (401 or 403 with its `WWW-Authenticate` challenge). */
export interface HttpRefusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The authorization hook of McpHttpOptions (implemented by `@wiregen/runtime/auth`'s `protectedResource`). */
export interface HttpAuthorization {
  /** Answers a request it owns outside the endpoint (a metadata document); true when it did. */
  serve(req: HttpRequest, res: HttpResponse): boolean;
  /**
   * Undefined or `{ auth }` when the request may proceed (`auth`: who is calling, the handlers' `ctx.auth`),
   * else the answer that refuses it. `method` is the JSON-RPC method of a POSTed request.
   */
  check(req: HttpRequest, method: string | undefined): Promise<HttpRefusal | { readonly auth: AuthInfo } | undefined>;
  /**
   * The answer to a request whose token lacks some of `scopes`, which the tool, resource or prompt it calls
   * requires (`McpServerOptions.requiredScopes`): 403 with an `insufficient_scope` challenge
   * (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling).
   * Default: that 403 with a bare `Bearer error="insufficient_scope", scope="…"` challenge.
   */
  refuseScopes?(req: HttpRequest, scopes: readonly string[], method: string): HttpRefusal;
}

export const HTTP_DEFAULTS = {
  path: '/mcp',
  maxBodyBytes: 4 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  maxStreams: 256,
  keepAliveMs: 15_000,
  maxListenMs: 0,
  sessionIdleMs: 30 * 60_000,
  ...OUTBOUND_DEFAULTS,
  ...HTTP_TIMEOUTS,
} as const;
