/**
 * @module mcp/http/handler — the MCP Streamable HTTP server
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports), written once against the
 * transport-neutral exchange (transports/exchange.ts) and served by node:http (`listenMcpHttp`, `handle`), the
 * fetch API (`fetch`) and Express (http-adapters.ts).
 *
 * One endpoint (default /mcp). A POST without a session is a 2026-07-28 request: admission in the
 * specification's order (path, method, Origin, Host, Content-Type, Accept, body, envelope, then the version and
 * the mirrored headers), then the request is served on its own, without a connection (call.ts), and
 * answered with JSON, or with Server-Sent Events once it produces a notification; subscriptions/listen, always
 * SSE, gets a connection, which the server's change notifications reach. An `initialize` POST opens a
 * handshake-era session (`Mcp-Session-Id`, https://modelcontextprotocol.io/specification/2025-11-25/basic/transports),
 * which later POSTs, the GET stream and DELETE address. Every frame the server produces is routed to the HTTP
 * exchange of the request it belongs to.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AuthInfo } from '../../auth/info.ts';
import type { PlatformContext } from '../../platform/env.ts';
import { ErrorCode, idKey, parseMessage, type Incoming, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import {
  acceptsMedia,
  HttpFailure,
  mediaTypeOf,
  refusedOrigin,
  sendJson,
  SseStream,
  type HttpRequest,
  type HttpResponse,
  type OriginPolicy,
  type SseLimits,
} from '../../transports/exchange.ts';
import { FetchRequest, FetchResponse } from '../../transports/fetch-exchange.ts';
import { listenHttp } from '../../transports/http.ts';
import { NodeRequest, NodeResponse } from '../../transports/node-exchange.ts';
import type { McpConnection } from '../server/connection.ts';
import { StatelessCall } from './call.ts';
import { Exchange, HttpChannel, NO_HEADERS } from './channel.ts';
import { endListenAfter } from './listen.ts';
import { ReplayLog } from './resume.ts';
import { checkMirroredHeaders, HEADER_MISMATCH, headerMismatch } from './headers.ts';
import { hasStatelessEnvelope, META, unsupportedVersionOf } from '../stateless/meta.ts';
import { extensionMethod } from '../stateless/method.ts';
import { advertisedVersions, loadedRevision, requireRevision, servedStateless } from '../revisions.ts';
import type { McpServer } from '../server/server.ts';

export { HTTP_DEFAULTS, type HttpAuthorization, type HttpRefusal, type McpHttpOptions } from './options.ts';
import { HTTP_DEFAULTS, type McpHttpOptions } from './options.ts';
import { admission, requireCheckable } from './admission.ts';
import { allowedMethods, errorBody, repeatedHeader, sendError, sendRepeated, statusForError } from './answers.ts';

export { statusForError } from './answers.ts';

interface Session {
  readonly id: string;
  readonly channel: HttpChannel;
  readonly conn: McpConnection;
  lastSeen: number;
}

export class McpHttpHandler {
  readonly #server: McpServer;
  readonly #opts: Required<Omit<McpHttpOptions, 'allowedOrigins' | 'allowedHosts' | 'authorization' | 'resumability'>> &
    Pick<McpHttpOptions, 'authorization' | 'resumability'> &
    OriginPolicy;
  readonly #sessions = new Map<string, Session>();
  #streams = 0;
  /** Started with the first session, not at construction: a Worker makes its handler at module scope, where timers are refused. */
  #sweeper: ReturnType<typeof setInterval> | undefined;
  readonly #sseLimits: SseLimits;

  constructor(server: McpServer, options: McpHttpOptions = {}) {
    this.#server = server;
    this.#opts = { ...HTTP_DEFAULTS, ...options };
    requireCheckable(server.options, options.authorization);
    this.#sseLimits = { softQueueBytes: this.#opts.softQueueBytes, maxQueueBytes: this.#opts.maxQueueBytes, log: (line) => server.log(line) };
  }

  /** The node:http request listener (`http.createServer(handler.handle)`); it reads the body itself. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.serve(new NodeRequest(req), new NodeResponse(res));
  };

  /**
   * The fetch handler: a web-standard `Request` in, its `Response` out (resolved when the answer or its SSE
   * stream begins). The request is cancelled when `request.signal` aborts or the client cancels the stream.
   */
  readonly fetch = (request: Request, _env?: unknown, ctx?: PlatformContext): Promise<Response> => {
    const res = new FetchResponse(() => request.signal);
    const waitUntil = typeof ctx?.waitUntil === 'function' ? (work: Promise<unknown>) => ctx.waitUntil(work) : undefined;
    this.serve(new FetchRequest(request, waitUntil), res);
    return res.response;
  };

  /** Whether `req` is for the MCP endpoint (adapters that share a server with other routes pass the rest on). */
  owns(req: HttpRequest): boolean {
    return this.#isEndpoint(req.target);
  }

  /**
   * Answers one exchange: every status, header and body of every adapter is decided here. With `next`, a
   * request outside the endpoint is passed on to it instead of answered 404 (middleware).
   */
  serve(req: HttpRequest, res: HttpResponse, next?: () => void): void {
    if (this.#opts.authorization?.serve(req, res)) return;
    if (next && !this.#isEndpoint(req.target)) return next();
    this.#handle(req, res).catch((err: unknown) => {
      this.#server.log(`HTTP request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.started) sendJson(res, 500, errorBody(null, ErrorCode.InternalError, 'Internal error'));
      else res.end();
    });
  }

  async #handle(req: HttpRequest, res: HttpResponse): Promise<void> {
    if (!this.#isEndpoint(req.target))
      return sendJson(res, 404, errorBody(null, ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${this.#opts.path}`));
    const sessionId = req.header('mcp-session-id');
    const session = typeof sessionId === 'string' ? this.#sessions.get(sessionId) : undefined;
    if (req.method !== 'POST' && !(sessionId !== undefined && (req.method === 'GET' || req.method === 'DELETE'))) {
      const allow = allowedMethods(req.method, session !== undefined, this.#server.options.supportedVersions);
      return sendJson(res, 405, errorBody(null, ErrorCode.InvalidRequest, 'Streamable HTTP accepts POST only'), { allow });
    }
    const refused = refusedOrigin(req, this.#opts);
    if (refused) return sendJson(res, 403, errorBody(null, ErrorCode.InvalidRequest, refused));
    if (sessionId === null) return sendRepeated(res, null, 'Mcp-Session-Id');
    // A 2026-07-28 request's version header is checked with its mirrored headers (-32020), after the body.
    const repeated = repeatedHeader(req, req.method === 'POST' ? [] : ['MCP-Protocol-Version', 'Last-Event-ID']);
    if (repeated) return sendRepeated(res, null, repeated);
    if (req.method !== 'POST' && (await this.#admit(req, res, undefined, undefined)) === false) return;
    // A session that ended (or never was): 404, which tells a handshake-era client to initialize again.
    if (req.method !== 'POST' && !session) return sendJson(res, 404, errorBody(null, ErrorCode.InvalidRequest, 'Session not found'));
    if (req.method === 'GET') return this.#openStream(req, res, session!);
    if (req.method === 'DELETE') {
      this.#closeSession(session!);
      return sendJson(res, 200, '{}');
    }
    if (mediaTypeOf(req.headerValue('content-type')) !== 'application/json')
      return sendJson(res, 415, errorBody(null, ErrorCode.InvalidRequest, 'Expected application/json'));
    const accept = req.headerValue('accept');
    if (!acceptsMedia(accept, 'application/json') || !acceptsMedia(accept, 'text/event-stream'))
      return sendJson(res, 406, errorBody(null, ErrorCode.InvalidRequest, 'Accept must list both application/json and text/event-stream'));
    let text: string;
    try {
      text = await req.body(this.#opts.maxBodyBytes, this.#opts.bodyTimeoutMs);
    } catch (err) {
      if (!(err instanceof HttpFailure)) throw err;
      return sendJson(res, err.status, errorBody(null, ErrorCode.InvalidRequest, err.message), { connection: 'close' });
    }
    let msg: Incoming;
    try {
      msg = parseMessage(text);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      return sendJson(res, 400, errorBody(null, ErrorCode.ParseError, 'Parse error'));
    }
    let auth: AuthInfo | undefined;
    if (this.#opts.authorization) {
      const admitted = await this.#admit(req, res, msg.kind === 'request' ? msg.method : undefined, msg.kind === 'request' ? msg.params : undefined);
      if (admitted === false) return;
      auth = admitted;
    }
    if (msg.kind === 'invalid') return sendError(res, statusForError(msg.error.code), msg.id, msg.error);
    // An unknown session: 404, except that a 2026-07-28 request ignores a stray session id (it has no sessions).
    if (sessionId !== undefined && !session && !(msg.kind === 'request' && hasStatelessEnvelope(msg.params)))
      return sendJson(res, 404, errorBody(msg.kind === 'request' ? msg.id : null, ErrorCode.InvalidRequest, 'Session not found'));
    if (msg.kind !== 'request') {
      // Responses and notifications: accepted with no body; a session's connection takes them.
      if (session) this.#touch(session).channel.deliver(text);
      res.send(202, NO_HEADERS);
      return;
    }
    if (session) return this.#inSession(req, res, session, msg.id, text, auth);
    if (msg.method === 'initialize' && !hasStatelessEnvelope(msg.params)) {
      if (req.header('mcp-protocol-version') === null) return sendRepeated(res, msg.id, 'MCP-Protocol-Version');
      return this.#openSession(res, msg.id, text, auth);
    }
    return this.#stateless(req, res, msg, text, auth);
  }

  /**
   * Asks the authorization (if any) about `req`, then whether its token has the scopes the request needs
   * (McpServerOptions.requiredScopes). False when it refused, and the refusal was sent; else who is calling
   * (undefined without authorization).
   */
  async #admit(
    req: HttpRequest,
    res: HttpResponse,
    method: string | undefined,
    params: JsonObject | undefined,
  ): Promise<AuthInfo | undefined | false> {
    const admitted = await admission(this.#opts.authorization, this.#server.options.requiredScopes, req, method, params);
    if ('auth' in admitted) return admitted.auth;
    sendJson(res, admitted.status, admitted.body, admitted.headers);
    return false;
  }

  /** Whether the request target is the MCP endpoint (a query is allowed); the URL is parsed only when unusual. */
  #isEndpoint(target: string): boolean {
    const q = target.indexOf('?');
    if ((q < 0 ? target : target.slice(0, q)) === this.#opts.path) return true;
    return new URL(target, 'http://localhost').pathname === this.#opts.path;
  }

  /** A 2026-07-28 request: headers first, then served on its own (call.ts), or a listen stream's connection. */
  async #stateless(
    req: HttpRequest,
    res: HttpResponse,
    msg: Extract<Incoming, { kind: 'request' }>,
    text: string,
    auth: AuthInfo | undefined,
  ): Promise<void> {
    const { id, method } = msg;
    const params = msg.params ?? {};
    const version = req.header('mcp-protocol-version');
    if (version === undefined || version === null)
      return sendJson(res, 400, errorBody(id, HEADER_MISMATCH, 'Missing or repeated required header: mcp-protocol-version'));
    // Version checks come before the mirrored headers (the specification's admission order); without a body
    // version the connection reports the missing _meta instead (-32602).
    const meta = params['_meta'];
    const bodyVersion = meta !== null && typeof meta === 'object' ? (meta as JsonObject)[META.protocolVersion] : undefined;
    if (typeof bodyVersion === 'string') {
      if (bodyVersion !== version) return sendError(res, 400, id, headerMismatch(version, bodyVersion));
      const unsupported = unsupportedVersionOf(version, advertisedVersions(this.#server.options.supportedVersions));
      if (unsupported) return sendError(res, 400, id, unsupported);
    }
    const newest = servedStateless(this.#server.options.supportedVersions);
    const entry =
      extensionMethod(this.#server.extensions, method)?.entry ??
      (newest === undefined ? undefined : (loadedRevision(newest) ?? (await requireRevision(newest))).lookup(method));
    const toolSchema =
      method === 'tools/call' && typeof params['name'] === 'string' ? this.#server.options.toolInputSchema?.(params['name']) : undefined;
    const headerError = checkMirroredHeaders(req, method, params, entry?.mcpName, toolSchema);
    if (headerError) return sendError(res, 400, id, headerError);
    const listen = method === 'subscriptions/listen';
    if (listen && this.#streams >= this.#opts.maxStreams)
      return sendJson(res, 503, errorBody(id, ErrorCode.InternalError, `Too many open streams (limit ${this.#opts.maxStreams})`));
    const exchange = new Exchange(res, NO_HEADERS, statusForError, this.#opts.keepAliveMs, NO_HEADERS, this.#sseLimits);
    if (!listen) {
      const call = new StatelessCall(this.#server, exchange, auth);
      res.onClose(() => {
        // The client went away: the request is cancelled and never answered.
        if (!exchange.done) call.cancel();
      });
      return call.serve(id, method, msg.params);
    }
    // A listen stream stays open for the server's change notifications: it needs a connection they reach.
    const channel = new HttpChannel();
    exchange.auth = auth;
    channel.exchanges.set(idKey(id), exchange);
    const conn = this.#server.connect(channel, { era: 'stateless' });
    channel.onIdle = () => channel.close();
    this.#streams++;
    const stop = this.#opts.maxListenMs > 0 ? endListenAfter(conn, id, this.#opts.maxListenMs) : undefined;
    res.onClose(() => {
      this.#streams--;
      stop?.();
      if (exchange.done) return;
      // The client went away: the request is cancelled and never answered.
      channel.exchanges.delete(idKey(id));
      conn.peer.cancelIncoming(id);
      channel.close();
    });
    channel.deliver(text, msg);
  }

  /** initialize without a session: a handshake-era session, its id sent with the result. */
  #openSession(res: HttpResponse, id: RequestId, text: string, auth: AuthInfo | undefined): void {
    const sessionId = crypto.randomUUID();
    const channel = new HttpChannel();
    if (this.#opts.resumability) channel.log = new ReplayLog(this.#opts.resumability);
    const exchange = new Exchange(res, {}, () => 200, this.#opts.keepAliveMs, { 'mcp-session-id': sessionId }, this.#sseLimits, channel.log);
    exchange.auth = auth;
    channel.exchanges.set(idKey(id), exchange);
    const conn = this.#server.connect(channel);
    const session: Session = { id: sessionId, channel, conn, lastSeen: Date.now() };
    this.#sessions.set(sessionId, session);
    if (!this.#sweeper) {
      this.#sweeper = setInterval(() => this.#sweep(), Math.min(60_000, this.#opts.sessionIdleMs));
      (this.#sweeper as { unref?: () => void }).unref?.();
    }
    // A failed initialize leaves no session behind.
    channel.onIdle = () => {
      channel.onIdle = undefined;
      if (conn.era !== 'handshake') this.#closeSession(session);
    };
    channel.deliver(text);
  }

  /** A request in a handshake-era session: `auth`, its own POST's token, is its ctx.auth (not the session's first). */
  #inSession(req: HttpRequest, res: HttpResponse, session: Session, id: RequestId, text: string, auth: AuthInfo | undefined): void {
    const { conn, channel } = this.#touch(session);
    const version = req.header('mcp-protocol-version');
    const negotiated = conn.negotiatedVersion;
    if (version === null) return sendRepeated(res, id, 'MCP-Protocol-Version');
    if (version !== undefined && negotiated !== undefined && version !== negotiated)
      return sendJson(res, 400, errorBody(id, ErrorCode.InvalidRequest, `Bad Request: MCP-Protocol-Version must be ${negotiated}`));
    if (channel.exchanges.has(idKey(id)))
      return sendJson(res, 400, errorBody(id, ErrorCode.InvalidRequest, 'Invalid Request: a request with this id is still running in this session'));
    const exchange = new Exchange(res, {}, () => 200, this.#opts.keepAliveMs, NO_HEADERS, this.#sseLimits, channel.log);
    exchange.auth = auth;
    // After ctx.closeStream the request goes on without its response: where the platform would end its work
    // with the response (a Worker), it is kept until answered.
    if (channel.log) req.keepAlive?.(exchange.finished);
    channel.exchanges.set(idKey(id), exchange);
    res.onClose(() => {
      // A resumable stream that ended early waits for the client to reconnect (Last-Event-ID).
      if (exchange.done || exchange.lost()) return;
      channel.exchanges.delete(idKey(id));
      conn.peer.cancelIncoming(id);
    });
    channel.deliver(text);
  }

  /** GET with a session: the stream for server messages tied to no request (one per session). */
  #openStream(req: HttpRequest, res: HttpResponse, session: Session): void {
    if (!acceptsMedia(req.headerValue('accept'), 'text/event-stream'))
      return sendJson(res, 406, errorBody(null, ErrorCode.InvalidRequest, 'Accept must list text/event-stream'));
    const { channel } = this.#touch(session);
    const open = () => {
      this.#streams++;
      res.onClose(() => this.#streams--);
      return new SseStream(res, 200, { 'mcp-session-id': session.id }, this.#opts.keepAliveMs, this.#sseLimits);
    };
    const lastEventId = req.header('last-event-id');
    const resumed = typeof lastEventId === 'string' && this.#streams < this.#opts.maxStreams ? channel.resume(lastEventId, open) : undefined;
    if (resumed instanceof Exchange) res.onClose(() => resumed.lost());
    if (resumed) return;
    if (channel.stream && !channel.stream.closed)
      return sendJson(res, 409, errorBody(null, ErrorCode.InvalidRequest, 'This session already has a GET stream'));
    if (this.#streams >= this.#opts.maxStreams)
      return sendJson(res, 503, errorBody(null, ErrorCode.InternalError, `Too many open streams (limit ${this.#opts.maxStreams})`));
    channel.openStream(open());
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
    this.#sweeper = undefined;
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
