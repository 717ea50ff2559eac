/**
 * @module mcp/http — MCP over Streamable HTTP on node:http (seed 001 §13, §15).
 *
 * One endpoint (default /mcp). A POST without a session is a 2026-07-28 request: admission in the order of
 * §13.2, the mirrored headers, then a fresh connection that answers with JSON, or with Server-Sent Events
 * once the request produces a notification (and always for subscriptions/listen). An `initialize` POST
 * opens a handshake-era session (`Mcp-Session-Id`), which later POSTs, the GET stream and DELETE address.
 * Every frame the server produces is routed to the HTTP exchange of the request it belongs to.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  classify,
  ErrorCode,
  errorResponse,
  idKey,
  JsonRpcError,
  parseJson,
  serialize,
  type Incoming,
  type JsonObject,
  type RequestId,
} from '../jsonrpc/message.ts';
import { accepts, checkOrigin, HttpFailure, listenHttp, readBody, sendJson, singleHeader, SseStream, type OriginPolicy } from '../transports/http.ts';
import type { FrameMeta, Transport, TransportSink } from '../transports/transport.ts';
import type { McpConnection } from './connection.ts';
import { headerMismatch, unsupportedVersion } from './errors.ts';
import { checkMirroredHeaders, HEADER_MISMATCH } from './http-headers.ts';
import { hasStatelessEnvelope, META } from './meta.ts';
import { isStatelessVersion, LATEST_STATELESS, loadedRevision, requireRevision, STATELESS_VERSIONS } from './revisions.ts';
import type { McpServer } from './server.ts';

export interface McpHttpOptions extends OriginPolicy {
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
  /** A handshake-era session unused this long is closed. Default 30 min. */
  readonly sessionIdleMs?: number;
}

export const HTTP_DEFAULTS = {
  path: '/mcp',
  maxBodyBytes: 4 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  maxStreams: 256,
  keepAliveMs: 15_000,
  sessionIdleMs: 30 * 60_000,
} as const;

/** HTTP status of a JSON-RPC error in the 2026-07-28 era (seed 001 §12). */
export function statusForError(code: number | undefined): number {
  if (code === undefined) return 200;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === ErrorCode.InternalError) return 500;
  if ([ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.InvalidParams, HEADER_MISMATCH, -32021, -32022].includes(code as never)) return 400;
  return 200;
}

const errorBody = (id: RequestId | null, code: number, message: string, data?: unknown) =>
  serialize(errorResponse(id, new JsonRpcError(code, message, data)));

/** Answers `error` as a JSON-RPC error response with HTTP `status`. */
const sendError = (res: ServerResponse, status: number, id: RequestId | null, error: JsonRpcError) =>
  sendJson(res, status, serialize(errorResponse(id, error)));

/** One HTTP request waiting for the response to one JSON-RPC request. */
class Exchange {
  readonly #res: ServerResponse;
  readonly #headers: Record<string, string>;
  readonly #statusFor: (code: number | undefined) => number;
  readonly #keepAliveMs: number;
  #sse: SseStream | undefined;
  done = false;

  readonly #successHeaders: Record<string, string>;

  /** `successHeaders` go only on a result (the session id of a successful initialize). */
  constructor(
    res: ServerResponse,
    headers: Record<string, string>,
    statusFor: (code: number | undefined) => number,
    keepAliveMs: number,
    successHeaders: Record<string, string> = NO_HEADERS,
  ) {
    this.#res = res;
    this.#headers = headers;
    this.#successHeaders = successHeaders;
    this.#statusFor = statusFor;
    this.#keepAliveMs = keepAliveMs;
  }

  /** Switches the response to SSE (at the first notification, or at once for a stream). */
  stream(): SseStream {
    this.#sse ??= new SseStream(this.#res, 200, this.#headers, this.#keepAliveMs);
    return this.#sse;
  }

  event(text: string): void {
    this.stream().event(text);
  }

  finish(text: string, errorCode: number | undefined): void {
    this.done = true;
    if (this.#sse) {
      this.#sse.event(text);
      this.#sse.end();
    } else
      sendJson(
        this.#res,
        this.#statusFor(errorCode),
        text,
        errorCode === undefined && this.#successHeaders !== NO_HEADERS ? { ...this.#headers, ...this.#successHeaders } : this.#headers,
      );
  }
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The transport of one connection: frames in from POST bodies, frames out to the exchange they belong to. */
class HttpChannel implements Transport {
  #sink: TransportSink | undefined;
  readonly exchanges = new Map<string, Exchange>();
  /** The session's GET stream, for frames tied to no request. */
  stream: SseStream | undefined;
  onIdle: (() => void) | undefined;

  start(sink: TransportSink): void {
    this.#sink = sink;
  }

  deliver(text: string, parsed?: Incoming): void {
    this.#sink?.message(text, parsed);
  }

  send(text: string, meta?: FrameMeta): void {
    if (meta?.kind === 'response') {
      const key = meta.id === null || meta.id === undefined ? undefined : idKey(meta.id);
      const exchange = key === undefined ? undefined : this.exchanges.get(key);
      if (!exchange) return;
      this.exchanges.delete(key!);
      exchange.finish(text, meta.errorCode);
      if (this.exchanges.size === 0) this.onIdle?.();
      return;
    }
    const exchange = meta?.relatedTo === undefined ? undefined : this.exchanges.get(idKey(meta.relatedTo));
    if (exchange && !exchange.done) exchange.event(text);
    else if (this.stream && !this.stream.closed) this.stream.event(text);
  }

  close(): void {
    this.#sink?.close();
    this.#sink = undefined;
  }
}

interface Session {
  readonly id: string;
  readonly channel: HttpChannel;
  readonly conn: McpConnection;
  lastSeen: number;
}

export class McpHttpHandler {
  readonly #server: McpServer;
  readonly #opts: Required<Omit<McpHttpOptions, 'allowedOrigins' | 'allowedHosts'>> & OriginPolicy;
  readonly #sessions = new Map<string, Session>();
  #streams = 0;
  readonly #sweeper: NodeJS.Timeout;

  constructor(server: McpServer, options: McpHttpOptions = {}) {
    this.#server = server;
    this.#opts = { ...HTTP_DEFAULTS, ...options };
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(60_000, this.#opts.sessionIdleMs));
    this.#sweeper.unref();
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.#handle(req, res).catch((err: unknown) => {
      this.#server.log(`HTTP request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) sendJson(res, 500, errorBody(null, ErrorCode.InternalError, 'Internal error'));
      else res.end();
    });
  };

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.#isEndpoint(req.url ?? '/'))
      return sendJson(res, 404, errorBody(null, ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${this.#opts.path}`));
    const sessionId = singleHeader(req, 'mcp-session-id');
    const session = typeof sessionId === 'string' ? this.#sessions.get(sessionId) : undefined;
    if (req.method !== 'POST' && !(sessionId !== undefined && (req.method === 'GET' || req.method === 'DELETE')))
      return sendJson(res, 405, errorBody(null, ErrorCode.InvalidRequest, 'Streamable HTTP accepts POST only'), { allow: 'POST' });
    const refused = checkOrigin(req, this.#opts);
    if (refused) return sendJson(res, 403, errorBody(null, ErrorCode.InvalidRequest, refused));
    if (sessionId === null) return sendJson(res, 400, errorBody(null, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id is repeated'));
    // A session that ended (or never was): 404, which tells a handshake-era client to initialize again.
    if (req.method !== 'POST' && !session) return sendJson(res, 404, errorBody(null, ErrorCode.InvalidRequest, 'Session not found'));
    if (req.method === 'GET') return this.#openStream(req, res, session!);
    if (req.method === 'DELETE') {
      this.#closeSession(session!);
      return sendJson(res, 200, '{}');
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return sendJson(res, 415, errorBody(null, ErrorCode.InvalidRequest, 'Expected application/json'));
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream'))
      return sendJson(res, 406, errorBody(null, ErrorCode.InvalidRequest, 'Accept must list both application/json and text/event-stream'));
    let text: string;
    try {
      text = await readBody(req, this.#opts.maxBodyBytes, this.#opts.bodyTimeoutMs);
    } catch (err) {
      if (!(err instanceof HttpFailure)) throw err;
      return sendJson(res, err.status, errorBody(null, ErrorCode.InvalidRequest, err.message), { connection: 'close' });
    }
    let value: unknown;
    try {
      value = parseJson(text);
    } catch {
      return sendJson(res, 400, errorBody(null, ErrorCode.ParseError, 'Parse error'));
    }
    const msg = classify(value);
    if (msg.kind === 'invalid') return sendError(res, statusForError(msg.error.code), msg.id, msg.error);
    // An unknown session: 404, except that a 2026-07-28 request ignores a stray session id (seed 001 §13.1).
    if (sessionId !== undefined && !session && !(msg.kind === 'request' && hasStatelessEnvelope(msg.params)))
      return sendJson(res, 404, errorBody(msg.kind === 'request' ? msg.id : null, ErrorCode.InvalidRequest, 'Session not found'));
    if (msg.kind !== 'request') {
      // Responses and notifications: accepted with no body; a session's connection takes them.
      if (session) this.#touch(session).channel.deliver(text);
      res.writeHead(202).end();
      return;
    }
    if (session) return this.#inSession(req, res, session, msg.id, text);
    if (msg.method === 'initialize' && !hasStatelessEnvelope(msg.params)) return this.#openSession(res, msg.id, text);
    return this.#stateless(req, res, msg, text);
  }

  /** Whether the request target is the MCP endpoint (a query is allowed); the URL is parsed only when unusual. */
  #isEndpoint(target: string): boolean {
    const q = target.indexOf('?');
    if ((q < 0 ? target : target.slice(0, q)) === this.#opts.path) return true;
    return new URL(target, 'http://localhost').pathname === this.#opts.path;
  }

  /** A 2026-07-28 request: headers first, then a connection of its own. */
  async #stateless(req: IncomingMessage, res: ServerResponse, msg: Extract<Incoming, { kind: 'request' }>, text: string): Promise<void> {
    const { id, method } = msg;
    const params = msg.params ?? {};
    const version = singleHeader(req, 'mcp-protocol-version');
    if (version === undefined || version === null)
      return sendJson(res, 400, errorBody(id, HEADER_MISMATCH, 'Missing or repeated required header: mcp-protocol-version'));
    // Version checks come before the mirrored headers (seed 001 §13.2 steps 9 and 10); without a body
    // version the connection reports the missing _meta instead (-32602).
    const meta = params['_meta'];
    const bodyVersion = meta !== null && typeof meta === 'object' ? (meta as JsonObject)[META.protocolVersion] : undefined;
    if (typeof bodyVersion === 'string') {
      if (bodyVersion !== version) return sendError(res, 400, id, headerMismatch(version, bodyVersion));
      if (!isStatelessVersion(version)) return sendError(res, 400, id, unsupportedVersion(version, STATELESS_VERSIONS));
    }
    const entry = (loadedRevision(LATEST_STATELESS) ?? (await requireRevision(LATEST_STATELESS))).lookup(method);
    const toolSchema =
      method === 'tools/call' && typeof params['name'] === 'string' ? this.#server.options.toolInputSchema?.(params['name']) : undefined;
    const headerError = checkMirroredHeaders(req, method, params, entry?.mcpName, toolSchema);
    if (headerError) return sendError(res, 400, id, headerError);
    const listen = method === 'subscriptions/listen';
    if (listen && this.#streams >= this.#opts.maxStreams)
      return sendJson(res, 503, errorBody(id, ErrorCode.InternalError, `Too many open streams (limit ${this.#opts.maxStreams})`));
    const channel = new HttpChannel();
    const exchange = new Exchange(res, NO_HEADERS, statusForError, this.#opts.keepAliveMs);
    channel.exchanges.set(idKey(id), exchange);
    const conn = this.#server.connect(channel, { era: 'stateless' });
    channel.onIdle = () => channel.close();
    if (listen) {
      this.#streams++;
      res.on('close', () => this.#streams--);
    }
    res.on('close', () => {
      if (exchange.done) return;
      // The client went away: the request is cancelled and never answered.
      channel.exchanges.delete(idKey(id));
      conn.peer.cancelIncoming(id);
      channel.close();
    });
    channel.deliver(text, msg);
  }

  /** initialize without a session: a handshake-era session, its id sent with the result. */
  #openSession(res: ServerResponse, id: RequestId, text: string): void {
    const sessionId = randomUUID();
    const channel = new HttpChannel();
    const exchange = new Exchange(res, {}, () => 200, this.#opts.keepAliveMs, { 'mcp-session-id': sessionId });
    channel.exchanges.set(idKey(id), exchange);
    const conn = this.#server.connect(channel);
    const session: Session = { id: sessionId, channel, conn, lastSeen: Date.now() };
    this.#sessions.set(sessionId, session);
    // A failed initialize leaves no session behind.
    channel.onIdle = () => {
      channel.onIdle = undefined;
      if (conn.era !== 'handshake') this.#closeSession(session);
    };
    channel.deliver(text);
  }

  #inSession(req: IncomingMessage, res: ServerResponse, session: Session, id: RequestId, text: string): void {
    const { conn, channel } = this.#touch(session);
    const version = singleHeader(req, 'mcp-protocol-version');
    const negotiated = conn.handshake?.revision.version;
    if (version === null || (version !== undefined && negotiated !== undefined && version !== negotiated))
      return sendJson(
        res,
        400,
        errorBody(id, ErrorCode.InvalidRequest, `Bad Request: MCP-Protocol-Version must be ${negotiated ?? 'the negotiated version'}`),
      );
    if (channel.exchanges.has(idKey(id)))
      return sendJson(res, 400, errorBody(id, ErrorCode.InvalidRequest, 'Invalid Request: a request with this id is still running in this session'));
    const exchange = new Exchange(res, {}, () => 200, this.#opts.keepAliveMs);
    channel.exchanges.set(idKey(id), exchange);
    res.on('close', () => {
      if (exchange.done) return;
      channel.exchanges.delete(idKey(id));
      conn.peer.cancelIncoming(id);
    });
    channel.deliver(text);
  }

  /** GET with a session: the stream for server messages tied to no request (one per session). */
  #openStream(req: IncomingMessage, res: ServerResponse, session: Session): void {
    if (!accepts(req, 'text/event-stream'))
      return sendJson(res, 406, errorBody(null, ErrorCode.InvalidRequest, 'Accept must list text/event-stream'));
    const { channel } = this.#touch(session);
    if (channel.stream && !channel.stream.closed)
      return sendJson(res, 409, errorBody(null, ErrorCode.InvalidRequest, 'This session already has a GET stream'));
    if (this.#streams >= this.#opts.maxStreams)
      return sendJson(res, 503, errorBody(null, ErrorCode.InternalError, `Too many open streams (limit ${this.#opts.maxStreams})`));
    this.#streams++;
    res.on('close', () => this.#streams--);
    channel.stream = new SseStream(res, 200, { 'mcp-session-id': session.id }, this.#opts.keepAliveMs);
  }

  #touch(session: Session): Session {
    session.lastSeen = Date.now();
    return session;
  }

  #closeSession(session: Session): void {
    if (!this.#sessions.delete(session.id)) return;
    session.channel.stream?.end();
    session.channel.close();
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#opts.sessionIdleMs;
    for (const session of this.#sessions.values()) {
      const listening = session.channel.stream !== undefined && !session.channel.stream.closed;
      if (session.lastSeen < cutoff && session.channel.exchanges.size === 0 && !listening) this.#closeSession(session);
    }
  }

  /** Ends every session and stream (the server's listen streams end with their result first). */
  close(): void {
    clearInterval(this.#sweeper);
    this.#server.shutdown();
    for (const session of [...this.#sessions.values()]) this.#closeSession(session);
  }

  get openSessions(): number {
    return this.#sessions.size;
  }
}

export interface RunningHttpServer {
  readonly url: string;
  readonly http: Server;
  readonly handler: McpHttpHandler;
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0: any free port); loopback by default, with the Host check on for it. */
export async function listenMcpHttp(server: McpServer, options: McpHttpOptions & { port?: number; host?: string } = {}): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host);
  const allowedHosts = options.allowedHosts ?? (loopback ? ['127.0.0.1', 'localhost', '[::1]'] : undefined);
  const handler = new McpHttpHandler(server, { ...options, ...(allowedHosts ? { allowedHosts } : {}) });
  const listening = await listenHttp(handler.handle, { ...options, host });
  return {
    url: `${listening.origin}${options.path ?? HTTP_DEFAULTS.path}`,
    http: listening.http,
    handler,
    close: async () => {
      // Listen streams end with their result: let those last frames go out before the sockets close.
      handler.close();
      await new Promise((r) => setImmediate(r));
      await listening.stop(100);
    },
  };
}
