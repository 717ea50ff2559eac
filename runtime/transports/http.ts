/**
 * @module transports/http — HTTP building blocks on node:http (no framework: the protocol needs one
 * endpoint, streamed responses and exact control of status codes and headers): listening on a port, and the
 * node:http forms of the exchange helpers (bounded body reading, single-valued header access, Origin/Host
 * checks against DNS rebinding, JSON answers) for code that holds node's req/res.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptsMedia, refusedOrigin, sendJson as sendJsonTo, type OriginPolicy } from './exchange.ts';
import { NodeRequest, NodeResponse } from './node-exchange.ts';

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

/** Listens with `listener` on `host:port` (port 0: any free port; host 127.0.0.1 by default). */
export async function listenHttp(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: { port?: number; host?: string } = {},
): Promise<ListeningHttp> {
  const host = options.host ?? '127.0.0.1';
  const http = createServer(listener);
  http.headersTimeout = 30_000;
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
        http.close(() => resolve());
        http.closeIdleConnections();
        if (graceMs > 0) setTimeout(() => http.closeAllConnections(), graceMs).unref();
        else http.closeAllConnections();
      }),
  };
}
