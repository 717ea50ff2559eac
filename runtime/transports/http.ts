/**
 * @module transports/http — HTTP building blocks on node:http (no framework: the protocol needs one
 * endpoint, streamed responses and exact control of status codes and headers): listening on a port, and the
 * node:http forms of the exchange helpers (bounded body reading, single-valued header access, Origin/Host
 * checks against DNS rebinding, JSON answers) for code that holds node's req/res.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptsMedia, refusedOrigin, sendJson as sendJsonTo, type OriginPolicy } from './exchange.ts';
import { flushAnswers, NodeRequest, NodeResponse } from './node-exchange.ts';

export { HttpFailure, LOOPBACK_HOSTS, type OriginPolicy } from './exchange.ts';
export { readBody, singleHeader } from './node-exchange.ts';

/** DNS-rebinding protection for a node:http request (see `refusedOrigin`): the reason to refuse, or undefined. */
export function checkOrigin(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  return refusedOrigin(new NodeRequest(req), policy);
}

/** Does the Accept header list `type` (or a wildcard covering it)? */
export function accepts(req: IncomingMessage, type: string): boolean {
  return acceptsMedia(req.headers.accept, type);
}

/** Writes a JSON body with `status` on a node:http response. */
export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  sendJsonTo(new NodeResponse(res), status, body, headers);
}

/** A node:http server listening on a loopback (by default) port, with its base URL. */
export interface ListeningHttp {
  readonly http: Server;
  /** `http://host:port`, IPv6 hosts bracketed, no trailing slash. */
  readonly origin: string;
  /** Stops accepting; open connections end when idle, or after `graceMs` at the latest. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The timeouts of the node:http servers `listen…` start (https://nodejs.org/api/http.html#class-httpserver).
 * Streams (SSE) are answers, which none of these limit; a request's body has its own deadline (bodyTimeoutMs).
 */
export interface HttpServerTimeouts {
  /** Time to receive a request's headers; a client that trickles them is answered 408 and cut. Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time to receive a whole request, headers and body (0: none). Default 60 s, above the default body deadline (30 s). */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests. Default 5 s (Node's). */
  readonly keepAliveTimeoutMs?: number;
  /**
   * How often the headers and request deadlines are checked: a deadline is enforced this much late at
   * most. Default 1 s (Node's default of 30 s is why a trickled header was cut only after 30–60 s).
   */
  readonly timeoutCheckIntervalMs?: number;
}

export const HTTP_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckIntervalMs: 1_000,
} as const;

/** Listens with `listener` on `host:port` (port 0: any free port; host 127.0.0.1 by default), with `HTTP_TIMEOUTS` unless given. */
export async function listenHttp(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: { port?: number; host?: string } & HttpServerTimeouts = {},
): Promise<ListeningHttp> {
  const host = options.host ?? '127.0.0.1';
  const t = { ...HTTP_TIMEOUTS, ...definedOnly(options) };
  // node:http is loaded here, not when the module is: a stdio server imports this module with the rest of
  // @wiregen/runtime/mcp and never listens (node:http costs a few milliseconds of start-up).
  const { createServer } = await import('node:http');
  const http = createServer(
    {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.requestTimeoutMs,
      keepAliveTimeout: t.keepAliveTimeoutMs,
      connectionsCheckingInterval: t.timeoutCheckIntervalMs,
    },
    listener,
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    http,
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop: (graceMs = 0) =>
      new Promise<void>((resolve) => {
        // Answers given in this turn are written before their connections close.
        flushAnswers();
        http.close(() => resolve());
        http.closeIdleConnections();
        if (graceMs > 0) setTimeout(() => http.closeAllConnections(), graceMs).unref();
        else http.closeAllConnections();
      }),
  };
}

/** The timeouts `options` sets (an undefined member keeps the default). */
function definedOnly(options: HttpServerTimeouts): HttpServerTimeouts {
  const out: Record<string, number> = {};
  for (const key of ['headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs', 'timeoutCheckIntervalMs'] as const)
    if (options[key] !== undefined) out[key] = options[key];
  return out;
}
