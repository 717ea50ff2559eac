/**
 * @module a2a/http — an A2A agent over HTTP (https://a2a-protocol.org/latest/specification/): the agent card
 * at /.well-known/agent-card.json, the JSON-RPC binding (one POST endpoint; SSE for the streaming methods) and
 * the HTTP+JSON binding (the routes of the proto's google.api.http annotations, from the generated dispatch
 * table; google.rpc.Status errors). Every method's params are checked with the generated validators before the
 * agent sees them. Written once against the transport-neutral exchange (transports/exchange.ts) and served by
 * node:http (`listenA2aHttp`, `handle`), the fetch API (`fetch`) and Express (http-adapters.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { lookup, methods, pin, type MethodEntry } from '@wiregen/a2a-1.0';
import type { AuthInfo } from '../auth/info.ts';
import { utf8 } from '../jsonrpc/bytes.ts';
import { canonicalJson } from '../jsonrpc/canonical.ts';
import { deepPointer, MAX_JSON_DEPTH, shortPointer, textExceedsDepth } from '../jsonrpc/limits.ts';
import { HttpFailure, sendJson, SseStream, type HttpRequest, type HttpResponse } from '../transports/exchange.ts';
import { FetchRequest, FetchResponse } from '../transports/fetch-exchange.ts';
import { listenHttp } from '../transports/http.ts';
import { NodeRequest, NodeResponse } from '../transports/node-exchange.ts';
import { A2aError, A2aErrors } from './errors.ts';
import type { A2aHttpOptions, Authenticate } from './http-options.ts';
import { CARD_PATH, compileRoute, pathOf, targetOf, type Route, type Target } from './http-routes.ts';
import type { A2aServer } from './server.ts';
import type { A2aBehaviour, AgentCard } from './types.ts';
import { checkParams } from './validation.ts';
import { authenticationFor } from './security.ts';
import { resultInWireOrder } from './wire-order.ts';

export type { A2aHttpOptions, Authenticate, AuthRequest, AuthResult } from './http-options.ts';

/**
 * A JSON-RPC response as JSON, its members in `order`: the constant parts written as text around the
 * serialised id and result (or error), which is what JSON.stringify of the envelope object writes. A result
 * that serialises to nothing (undefined) drops its member, as JSON.stringify does.
 */
function serializeEnvelope(order: A2aBehaviour['envelopeOrder'], id: unknown, body: { result: unknown } | { error: unknown }): string {
  const [key, value] = 'result' in body ? ['result', body.result] : ['error', body.error];
  const json = JSON.stringify(value) as string | undefined;
  const idJson = JSON.stringify(id) ?? 'null';
  if (json === undefined || !(id === null || typeof id === 'string' || typeof id === 'number'))
    return JSON.stringify(order === 'jsonrpc-first' ? { jsonrpc: '2.0', id, ...body } : { ...body, id, jsonrpc: '2.0' });
  return order === 'jsonrpc-first' ? `{"jsonrpc":"2.0","id":${idJson},"${key}":${json}}` : `{"${key}":${json},"id":${idJson},"jsonrpc":"2.0"}`;
}

/** The A2A version served: the pinned revision. */
const SUPPORTED_VERSION = pin.revision;

/** Seconds a client waits before retrying a request answered HTTP 503 (the task store unavailable). */
const RETRY_AFTER_SECONDS = '1';

/** The Retry-After header of a retryable error (RFC 9110 §10.2.3), none for the others. */
const retryAfter = (err: A2aError): Record<string, string> => (err.httpStatus === 503 ? { 'retry-after': RETRY_AFTER_SECONDS } : {});

export class A2aHttpHandler {
  readonly #server: A2aServer;
  readonly #options: A2aHttpOptions;
  readonly #jsonRpcPath: string;
  readonly #routes: Route[];
  /** The check in front of every A2A method (security.ts authenticationFor); none for a card that requires nothing. */
  readonly #authenticate: Authenticate | undefined;
  /** Routes beside A2A: the adapter's, else the agent's own. */
  readonly #ownRoutes: A2aHttpOptions['routes'];
  /** The served card, serialised, and the card it was made from (advertiseAt replaces the server's card). */
  #card: { readonly of: AgentCard; readonly json: string; readonly etag: string } | undefined;

  constructor(server: A2aServer, options: A2aHttpOptions = {}) {
    this.#server = server;
    this.#options = options;
    const agent = server.options.http ?? {};
    this.#authenticate = authenticationFor(server.options.card, {
      adapter: options.authenticate,
      agent: agent.authenticate,
      verifiers: server.options.verifiers,
    });
    this.#ownRoutes = options.routes ?? agent.routes;
    if (options.publicUrl !== undefined) server.advertiseAt(options.publicUrl);
    // The routes are at the paths of the card as given (a public URL's own path is the proxy's).
    const interfaces = server.options.card.supportedInterfaces;
    this.#jsonRpcPath = options.jsonRpcPath ?? pathOf(interfaces.find((i) => i.protocolBinding === 'JSONRPC')?.url) ?? '/a2a';
    const restPath = options.restPath ?? pathOf(interfaces.find((i) => i.protocolBinding === 'HTTP+JSON')?.url) ?? '';
    this.#routes = Object.entries(methods as Record<string, MethodEntry>).flatMap(([method, entry]) =>
      entry.http.map((r) => compileRoute(restPath === '/' ? '' : restPath, method, entry, r)),
    );
  }

  /** The node:http request listener (`http.createServer(handler.handle)`); it reads the body itself. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.serve(new NodeRequest(req), new NodeResponse(res));
  };

  /**
   * The fetch handler: a web-standard `Request` in, its `Response` out (resolved when the answer or its SSE
   * stream begins); a stream ends when `request.signal` aborts or the client cancels it.
   */
  readonly fetch = (request: Request): Promise<Response> => {
    const res = new FetchResponse(() => request.signal);
    this.serve(new FetchRequest(request), res);
    return res.response;
  };

  /** Whether `req` is for this agent: the card, the JSON-RPC endpoint or an HTTP+JSON route (any verb). */
  owns(req: HttpRequest): boolean {
    const { pathname } = targetOf(req.target);
    return pathname === CARD_PATH || pathname === this.#jsonRpcPath || this.#routes.some((r) => r.pattern.test(pathname));
  }

  /**
   * Answers one exchange: every status, header and body of every adapter is decided here. With `next`, a
   * request that is not the agent's (and that `routes` did not answer) is passed on to it instead of answered
   * 404 (middleware), before authentication.
   */
  serve(req: HttpRequest, res: HttpResponse, next?: () => void): void {
    this.#handle(req, res, next).catch((err: unknown) => {
      this.#server.log(`A2A HTTP request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.started) sendJson(res, 500, JSON.stringify(A2aErrors.internal().toStatus(this.#server.behaviour)));
      else res.end();
    });
  }

  async #handle(req: HttpRequest, res: HttpResponse, next?: () => void): Promise<void> {
    const url = targetOf(req.target);
    if (url.pathname === CARD_PATH && req.method === 'GET') return await this.#serveCard(req, res);
    const routes = this.#ownRoutes;
    if (
      routes &&
      req instanceof NodeRequest &&
      res instanceof NodeResponse &&
      (await routes(req.req, res.res, new URL(req.target, 'http://localhost')))
    )
      return;
    if (next && !this.owns(req)) return next();
    const auth = await this.#authenticate?.(req instanceof NodeRequest ? req.req : { method: req.method, url: req.target, headers: req.headers });
    if (auth && !auth.ok)
      return res.send(401, { 'www-authenticate': auth.challenge, 'content-type': 'application/json' }, JSON.stringify({ error: 'unauthorized' }));
    // Who is calling, for the executor (ExecutionContext.auth).
    const caller = auth?.ok ? auth.auth : undefined;
    if (url.pathname === this.#jsonRpcPath) {
      if (req.method !== 'POST') return sendJson(res, 405, JSON.stringify({ error: 'the JSON-RPC endpoint accepts POST only' }), { allow: 'POST' });
      return this.#jsonRpc(req, res, url, caller);
    }
    const candidates: { route: Route; match: RegExpExecArray }[] = [];
    for (const route of this.#routes) {
      const match = route.pattern.exec(url.pathname);
      if (match) candidates.push({ route, match });
    }
    // SubscribeToTask is `GET /tasks/{id}:subscribe` in the proto; the @a2a-js/sdk client POSTs it, and the SDK's
    // server takes both: so do we (a POST body, which has no meaning there, is read and left unused).
    const found =
      candidates.find((c) => c.route.verb === req.method) ??
      (req.method === 'POST' ? candidates.find((c) => c.route.method === 'SubscribeToTask') : undefined);
    if (!found) {
      if (candidates.length)
        return sendJson(res, 405, JSON.stringify({ error: 'method not allowed' }), {
          allow: [...new Set(candidates.map((c) => c.route.verb))].join(', '),
        });
      return this.#restError(res, A2aErrors.methodNotFound());
    }
    return this.#rest(req, res, url, found.route, found.match, caller);
  }

  async #serveCard(req: HttpRequest, res: HttpResponse): Promise<void> {
    const card = this.#server.card;
    if (this.#card?.of !== card) {
      const json = canonicalJson(card);
      // Web Crypto's digest (no node:crypto on the fetch path: docs/deployment.md).
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(json)));
      const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
      this.#card = { of: card, json, etag: `W/"${hex}"` };
    }
    const { json, etag } = this.#card;
    const headers: Record<string, string> = {};
    if (this.#server.behaviour.cardEtag) {
      headers['etag'] = etag;
      const match = req.headerValue('if-none-match');
      if (match?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) return res.send(304, headers);
    }
    sendJson(res, 200, json, headers);
  }

  /** The A2A version a request asks for (§3.6): the header, or (per behaviour) the query; absent means 0.3. */
  #checkVersion(req: HttpRequest, url: Target): void {
    const fromHeader = req.headerValue('a2a-version')?.trim();
    const exact = this.#server.behaviour.versionCheck === 'exact-header-or-query';
    const requested = fromHeader || (exact ? url.searchParams.get('A2A-Version')?.trim() : undefined) || '0.3';
    const ok = exact ? requested === SUPPORTED_VERSION : requested.split('.')[0] === SUPPORTED_VERSION.split('.')[0];
    if (!ok) throw A2aErrors.versionNotSupported(requested, SUPPORTED_VERSION);
  }

  async #body(req: HttpRequest): Promise<string> {
    return req.body(this.#options.maxBodyBytes ?? 4 * 1024 * 1024, this.#options.bodyTimeoutMs ?? 30_000);
  }

  // ---- JSON-RPC ------------------------------------------------------------------------------------------

  async #jsonRpc(req: HttpRequest, res: HttpResponse, url: Target, caller: AuthInfo | undefined): Promise<void> {
    const behaviour = this.#server.behaviour;
    const envelope = (id: unknown, body: { result: unknown } | { error: unknown }) => serializeEnvelope(behaviour.envelopeOrder, id, body);
    const reply = (id: unknown, body: { result: unknown } | { error: unknown }) => sendJson(res, 200, envelope(id, body));
    // A retryable error (the task store unavailable) says when to try again, on either binding.
    const fail = (id: unknown, err: A2aError) => sendJson(res, 200, envelope(id, { error: err.toJsonRpc(behaviour) }), retryAfter(err));
    let text: string;
    try {
      text = await this.#body(req);
    } catch (err) {
      if (!(err instanceof HttpFailure)) throw err;
      return sendJson(res, err.status, envelope(null, { error: A2aErrors.invalidRequest(err.message).toJsonRpc(behaviour) }), {
        connection: 'close',
      });
    }
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return fail(null, A2aErrors.parse());
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return fail(null, A2aErrors.invalidRequest());
    const { id, method, params, jsonrpc } = msg as Record<string, unknown>;
    const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
    // Nested too deep for the validators and the store to walk (jsonrpc/limits.ts): refused before either.
    if (textExceedsDepth(text)) {
      const deep = Object.keys(msg).filter((key) => deepPointer((msg as Record<string, unknown>)[key], MAX_JSON_DEPTH, 1) !== undefined);
      if (deep.length === 1 && deep[0] === 'params' && usableId !== null) return fail(usableId, tooDeep('params', params));
      return fail(usableId, A2aErrors.invalidRequest(`Invalid Request: message nested deeper than ${MAX_JSON_DEPTH} levels`));
    }
    if (
      jsonrpc !== '2.0' ||
      typeof method !== 'string' ||
      usableId === null ||
      (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
    )
      return fail(usableId, A2aErrors.invalidRequest());
    try {
      this.#checkVersion(req, url);
      const entry = lookup(method);
      if (!entry) throw A2aErrors.methodNotFound();
      const p = (params ?? {}) as Record<string, unknown>;
      checkParams(entry.params, p);
      const result = await this.#server.call(method, p, caller);
      if (!entry.streaming) return reply(usableId, { result: resultInWireOrder(method, result) });
      await this.#stream(
        res,
        result as AsyncIterable<unknown>,
        (event) => envelope(usableId, { result: resultInWireOrder(method, event) }),
        (err) => envelope(usableId, { error: err.toJsonRpc(behaviour) }),
      );
    } catch (err) {
      if (!(err instanceof A2aError)) throw err;
      if (res.started) return;
      fail(usableId, err);
    }
  }

  /** Streams events as SSE; an error after the first event is one more event, then the stream ends. */
  async #stream(
    res: HttpResponse,
    events: AsyncIterable<unknown>,
    frame: (e: unknown) => string,
    errorFrame: (e: A2aError) => string,
  ): Promise<void> {
    const { softQueueBytes, maxQueueBytes } = this.#options;
    const sse = new SseStream(res, 200, {}, this.#server.behaviour.keepAliveMs, {
      ...(softQueueBytes !== undefined ? { softQueueBytes } : {}),
      ...(maxQueueBytes !== undefined ? { maxQueueBytes } : {}),
      log: (line) => this.#server.log(line),
    });
    const it = events[Symbol.asyncIterator]();
    res.onClose(() => void it.return?.());
    try {
      for (let r = await it.next(); !r.done; r = await it.next()) {
        if (sse.closed) break;
        sse.event(frame(r.value));
      }
    } catch (err) {
      if (!(err instanceof A2aError)) throw err;
      sse.event(errorFrame(err));
    } finally {
      sse.end();
    }
  }

  // ---- HTTP+JSON ---------------------------------------------------------------------------------------------

  #restError(res: HttpResponse, err: A2aError): void {
    const behaviour = this.#server.behaviour;
    sendJson(res, err.httpStatus, JSON.stringify(err.toStatus(behaviour)), { 'content-type': behaviour.jsonContentType, ...retryAfter(err) });
  }

  async #rest(req: HttpRequest, res: HttpResponse, url: Target, route: Route, m: RegExpExecArray, caller: AuthInfo | undefined): Promise<void> {
    const behaviour = this.#server.behaviour;
    try {
      this.#checkVersion(req, url);
      let params: Record<string, unknown> = {};
      // A body is read where the route has one, and for a POSTed subscribe (see #handle), which leaves it unused.
      if (route.body || req.method === 'POST') {
        let text: string;
        try {
          text = await this.#body(req);
        } catch (err) {
          if (!(err instanceof HttpFailure)) throw err;
          return sendJson(res, err.status, JSON.stringify(A2aErrors.invalidRequest(err.message).toStatus(behaviour)), {
            'content-type': behaviour.jsonContentType,
            connection: 'close',
          });
        }
        if (!route.body) text = '';
        try {
          params = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
        } catch {
          throw A2aErrors.parse();
        }
        if (params === null || typeof params !== 'object' || Array.isArray(params)) throw A2aErrors.invalidRequest('The body must be a JSON object');
        if (textExceedsDepth(text, MAX_JSON_DEPTH - 1)) throw tooDeep('', params);
      }
      if (!route.body) {
        for (const [key, value] of url.searchParams) {
          if (key === 'A2A-Version') continue;
          params[key] = value === 'true' ? true : value === 'false' ? false : value;
        }
      }
      route.names.forEach((name, i) => (params[name] = decodePathSegment(m[i + 1]!)));
      checkParams(route.entry.params, params);
      const result = await this.#server.call(route.method, params, caller);
      if (route.entry.streaming)
        return await this.#stream(
          res,
          result as AsyncIterable<unknown>,
          (e) => JSON.stringify(resultInWireOrder(route.method, e)),
          (err) => JSON.stringify(err.toStatus(behaviour)),
        );
      sendJson(res, 200, JSON.stringify(resultInWireOrder(route.method, result ?? {})), { 'content-type': behaviour.jsonContentType });
    } catch (err) {
      if (!(err instanceof A2aError)) throw err;
      if (!res.started) this.#restError(res, err);
    }
  }
}

/** A path variable's value; malformed percent-encoding (`/tasks/%`) is a 400, not a URIError. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw A2aErrors.invalidRequest(`Malformed percent-encoding in the request path: ${segment}`);
  }
}

/**
 * -32602 for params nested deeper than MAX_JSON_DEPTH (the JSON-RPC message counts as level 1, so params may
 * hold MAX_JSON_DEPTH - 1 levels, on either binding); the field is where it first goes too deep.
 */
function tooDeep(prefix: string, params: unknown): A2aError {
  const at = shortPointer(deepPointer(params, MAX_JSON_DEPTH, 1) ?? '');
  const field = `${prefix}${at.replace(/\//g, '.')}`.replace(/^\./, '');
  return A2aErrors.invalidParams([{ field, message: `Field is nested deeper than ${MAX_JSON_DEPTH} levels.` }]);
}

export interface RunningA2aServer {
  readonly url: string;
  readonly http: Server;
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (port 0: any free port; loopback by default). The cards are served as given, or under
 * `publicUrl`; to advertise the address it listens on, call `server.advertiseAt(running.url)` once it is
 * listening (`wiregen serve` does).
 */
export async function listenA2aHttp(server: A2aServer, options: A2aHttpOptions & { port?: number; host?: string } = {}): Promise<RunningA2aServer> {
  const handler = new A2aHttpHandler(server, options);
  const listening = await listenHttp(handler.handle, options);
  return { url: listening.origin, http: listening.http, close: () => listening.stop() };
}
