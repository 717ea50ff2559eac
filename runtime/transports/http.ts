/**
 * @module transports/http — HTTP building blocks on node:http (no framework: the protocol needs one
 * endpoint, streamed responses and exact control of status codes and headers): bounded body reading,
 * single-valued header access, Origin/Host checks against DNS rebinding, a Server-Sent Events writer and
 * listening on a port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A failure to answer at the HTTP level, before any JSON-RPC processing. */
export class HttpFailure extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads the request body, at most `limit` bytes (413 beyond, without reading the rest); the whole body must
 * arrive within `timeoutMs` (408 otherwise: a client that stops sending). A leading UTF-8 BOM is dropped.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return reject(new HttpFailure(413, `Request body larger than ${limit} bytes`));
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err?: HttpFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.removeAllListeners('data');
      if (err) {
        req.pause();
        reject(err);
      } else {
        let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        resolve(text);
      }
    };
    const timer = setTimeout(() => finish(new HttpFailure(408, `Request body not received within ${timeoutMs} ms`)), timeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(new HttpFailure(413, `Request body larger than ${limit} bytes`));
      chunks.push(chunk);
    });
    req.on('end', () => finish());
    req.on('error', () => finish(new HttpFailure(400, 'Request body could not be read')));
  });
}

/**
 * The one value of header `name`; `undefined` when absent and `null` when repeated (a repeated header is an
 * error for the headers MCP mirrors). Values are trimmed.
 */
export function singleHeader(req: IncomingMessage, name: string): string | undefined | null {
  // A scan of rawHeaders (name, value, name, value…): req.headersDistinct would build arrays for every header.
  const raw = req.rawHeaders;
  const wanted = name.toLowerCase();
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length !== wanted.length || key.toLowerCase() !== wanted) continue;
    if (found !== undefined) return null;
    found = raw[i + 1]!;
  }
  return found === undefined ? undefined : found.trim();
}

export interface OriginPolicy {
  /** Hostnames an Origin may name. Default: the loopback names. */
  readonly allowedOrigins?: readonly string[];
  /** Hostnames the Host header may name; `undefined` disables the check. */
  readonly allowedHosts?: readonly string[];
}

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

function hostnameOf(hostHeader: string): string {
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim());
  return (m ? m[1]! : hostHeader).toLowerCase();
}

/**
 * DNS-rebinding protection: an Origin (when present) must be a plain http(s) origin on an allowed host,
 * and the Host header must name an allowed host when that check is on. Returns the reason to refuse, or
 * undefined.
 */
export function checkOrigin(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  const origin = singleHeader(req, 'origin');
  if (origin !== undefined) {
    if (origin === null) return 'Origin is not allowed';
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return 'Origin is not allowed';
    }
    const allowed = policy.allowedOrigins ?? LOOPBACK_HOSTS;
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !allowed.includes(url.hostname.toLowerCase()))
      return 'Origin is not allowed';
  }
  if (policy.allowedHosts) {
    const host = req.headers.host;
    if (!host || !policy.allowedHosts.includes(hostnameOf(host))) return 'Host is not allowed';
  }
  return undefined;
}

/** Does the Accept header list `type` (or a wildcard covering it)? */
export function accepts(req: IncomingMessage, type: string): boolean {
  const accept = req.headers.accept;
  if (!accept) return false;
  const [major] = type.split('/');
  return accept.split(',').some((part) => {
    const [mediaPart, ...params] = part.split(';');
    const media = mediaPart!.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return media === type || media === `${major}/*` || media === '*/*';
  });
}

/** Writes a JSON body with `status`. */
export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const all: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  for (const name in headers) all[name] = headers[name]!;
  res.writeHead(status, all);
  res.end(body);
}

/** An open Server-Sent Events response: `data:` events (with optional ids), keep-alive comments. */
export class SseStream {
  readonly #res: ServerResponse;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(res: ServerResponse, status = 200, headers: Record<string, string> = {}, keepAliveMs = 15_000) {
    this.#res = res;
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', ...headers });
    res.flushHeaders();
    if (keepAliveMs > 0) {
      this.#timer = setInterval(() => this.#write(': keepalive\n\n'), keepAliveMs);
      this.#timer.unref();
    }
    res.on('close', () => this.#stop());
  }

  get closed(): boolean {
    return this.#closed;
  }

  #write(text: string): void {
    if (!this.#closed) this.#res.write(text);
  }

  /** One event carrying `data` (a JSON text: never contains a newline). */
  event(data: string, id?: string): void {
    if (id !== undefined && /[\r\n]/.test(id)) throw new Error('SSE event ids cannot contain CR or LF');
    this.#write(`${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`);
  }

  #stop(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  end(): void {
    if (this.#closed) return;
    this.#stop();
    this.#res.end();
  }
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
