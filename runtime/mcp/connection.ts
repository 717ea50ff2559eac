/**
 * @module mcp/connection — one client connection: decides its era from the first valid request and keeps
 * it (a connection is locked to the era of its first valid request, as the official SDK's server does: its
 * recorded `raw_handshake` and `raw_errors` sessions), then hands every request to that era's
 * {@link EraSession}. The two eras (handshake.ts, stateless.ts) see the connection only through
 * {@link EraConnection}: they run handlers, check results and enter their era; they never write its fields.
 */
import { readId, type JsonObject, type JsonRpcError, type RequestId } from '../jsonrpc/message.ts';
import { Peer, type IncomingRequest } from '../jsonrpc/peer.ts';
import type { Transport } from '../transports/transport.ts';
import type { MethodEntry } from '../core/index.ts';
import { createContext, type BuiltContext, type ContextInit } from './context.ts';
import { internalError, invalidRequestParameters, methodNotFound, methodNotInRevision } from './errors.ts';
import { initialize } from './handshake.ts';
import { hasStatelessEnvelope } from './meta.ts';
import { InputRequired } from './mrtr.ts';
import { gatesOpen, inSomeRevision, statelessOnly, type Revision } from './revisions.ts';
import type { McpServer } from './server.ts';
import { StatelessSession } from './stateless.ts';
import type { ListKind } from './subscriptions.ts';
import type { Era, Handler } from './types.ts';

/** What differs between the eras' contexts; the rest `run` fills in from the request. */
export type EraFields = Omit<ContextInit, 'method' | 'id' | 'signal' | 'notify' | 'changed'>;

export interface ConnectionOptions {
  /** Answer frames that are not JSON with -32700 instead of silence. Default false (as the MCP SDK). */
  readonly answerParseErrors?: boolean;
  /** Fix the era up front (HTTP: a request without a session is 2026-07-28). Default: the first valid request decides. */
  readonly era?: Era;
}

/** A subscriptions/listen stream held open on this connection. */
export interface Listen {
  readonly id: RequestId;
  readonly honored: JsonObject;
  /** Ends the stream with its result (graceful shutdown). */
  end(): void;
}

/** One era's side of a connection: everything that differs between the handshake era and 2026-07-28. */
export interface EraSession {
  readonly era: Era;
  /** Serves one request of this era. */
  serve(req: IncomingRequest): Promise<unknown>;
  /** A client notification the era handles itself (notifications/initialized); true when it did. */
  notified(method: string): boolean;
  /** Tells the client a list changed, if it asked to be told (handshake: its revision advertises it; 2026-07-28: a listen stream). */
  deliverListChanged(kind: ListKind): void;
  /** Tells the client a resource changed, if it subscribed to it. */
  deliverResourceUpdated(uri: string): void;
  /** The revision negotiated for the whole connection (handshake), or undefined (2026-07-28: per request). */
  readonly negotiatedVersion: string | undefined;
}

/** What an era uses of its connection. */
export interface EraConnection {
  readonly server: McpServer;
  readonly peer: Peer;
  readonly listens: Map<string, Listen>;
  /** Locks the connection to `session`'s era, unless an era is already in place (the first valid request decides). */
  enter(session: EraSession): void;
  run(handler: Handler, params: JsonObject, req: IncomingRequest, fields: EraFields): Promise<{ value: unknown; kept: BuiltContext['kept'] }>;
  checkResult(entry: MethodEntry, result: unknown, revision: Revision): void;
  handlerFor(method: string): Handler | undefined;
  requireGates(entry: MethodEntry, caps: JsonObject): void;
  /** The -32601 for `method`, which `revision` does not serve (`entry`: what its dispatch table says of it). */
  methodNotFound(method: string, entry: MethodEntry | undefined, revision: string): JsonRpcError;
}

/**
 * What {@link McpConnection.run} hands createContext: the era's fields plus the request's method, id, signal
 * (read when asked: the request's controller is made lazily) and its notifications. A class rather than an
 * object literal spreading the fields with a getter among them, which V8 builds on its slow path once a request.
 */
class RunInit implements ContextInit {
  readonly era: ContextInit['era'];
  readonly protocolVersion: ContextInit['protocolVersion'];
  readonly clientCapabilities: ContextInit['clientCapabilities'];
  readonly clientInfo: ContextInit['clientInfo'];
  readonly progressToken: ContextInit['progressToken'];
  readonly logLevel: ContextInit['logLevel'];
  readonly state: unknown;
  readonly obtain: ContextInit['obtain'];
  readonly method: string;
  readonly id: RequestId;
  readonly #conn: McpConnection;
  readonly #req: IncomingRequest;

  constructor(conn: McpConnection, req: IncomingRequest, fields: EraFields) {
    this.era = fields.era;
    this.protocolVersion = fields.protocolVersion;
    this.clientCapabilities = fields.clientCapabilities;
    this.clientInfo = fields.clientInfo;
    this.progressToken = fields.progressToken;
    this.logLevel = fields.logLevel;
    this.state = fields.state;
    this.obtain = fields.obtain;
    this.method = req.method;
    this.id = req.id;
    this.#conn = conn;
    this.#req = req;
  }

  get signal(): AbortSignal {
    return this.#req.signal;
  }

  notify(method: string, params: JsonObject): void {
    this.#conn.peer.notify(method, params, this.#req.id);
  }

  closeStream(): void {
    this.#conn.closeStream(this.#req.id);
  }

  changed(kind: 'tools' | 'prompts' | 'resources' | { uri: string }): void {
    if (typeof kind === 'string') this.#conn.server.listChanged(kind);
    else this.#conn.server.resourceUpdated(kind.uri);
  }
}

export class McpConnection implements EraConnection {
  readonly server: McpServer;
  readonly peer: Peer;
  readonly listens = new Map<string, Listen>();
  #session: EraSession | undefined;
  /** The 2026-07-28 session, made once: it holds nothing per connection but what `listens` holds. */
  #stateless: StatelessSession | undefined;
  readonly #transport: Transport;

  constructor(server: McpServer, transport: Transport, options: ConnectionOptions = {}) {
    this.server = server;
    this.#transport = transport;
    if (options.era === 'stateless') this.#session = this.#statelessSession();
    this.peer = new Peer(transport, {
      onRequest: (req) => this.#route(req),
      onNotification: (method, params) => this.#notification(method, params ?? {}),
      // A server request the handler no longer waits for (cancelled, timed out): tell the client.
      onAbandon: (id, reason) => this.peer.notify('notifications/cancelled', { requestId: id, reason }),
      onClose: () => {
        // An abrupt close ends listen streams with no response.
        for (const listen of this.listens.values()) this.peer.cancelIncoming(listen.id);
      },
      ...(options.answerParseErrors !== undefined ? { answerParseErrors: options.answerParseErrors } : {}),
      ...(server.options.log ? { log: server.options.log } : {}),
      ...(server.options.requestTimeoutMs ? { handlerTimeoutMs: server.options.requestTimeoutMs } : {}),
    });
  }

  /** The era this connection serves, once its first valid request (or its options) decided it. */
  get era(): Era | undefined {
    return this.#session?.era;
  }

  /** The revision the handshake negotiated, for HTTP's MCP-Protocol-Version check; undefined before, and in 2026-07-28. */
  get negotiatedVersion(): string | undefined {
    return this.#session?.negotiatedVersion;
  }

  /** Resolves when the client has gone and every request has been answered. */
  get finished(): Promise<void> {
    return this.peer.finished;
  }

  enter(session: EraSession): void {
    this.#session ??= session;
  }

  deliverListChanged(kind: ListKind): void {
    this.#session?.deliverListChanged(kind);
  }

  deliverResourceUpdated(uri: string): void {
    this.#session?.deliverResourceUpdated(uri);
  }

  #statelessSession(): StatelessSession {
    this.#stateless ??= new StatelessSession(this);
    return this.#stateless;
  }

  #route(req: IncomingRequest): Promise<unknown> {
    if (this.#session) return this.#session.serve(req);
    if (req.method === 'initialize' && !hasStatelessEnvelope(req.params)) return initialize(this, req);
    // The 2026-07-28 envelope locks the connection to that era at once, even when the request itself is
    // then refused (the SDK's raw_errors session: after an unsupported version, a request without _meta gets
    // the 2026-07-28 error, not the handshake one).
    if (hasStatelessEnvelope(req.params)) {
      this.enter(this.#statelessSession());
      return this.#session!.serve(req);
    }
    // A method only 2026-07-28 has: served in that era, which it enters once the request is valid.
    if (statelessOnly(req.method)) return this.#statelessSession().serve(req);
    // A handshake-era request before initialize: the SDK's answer (its raw_handshake session).
    if (req.method === 'ping') return Promise.resolve({});
    return Promise.reject(invalidRequestParameters());
  }

  #notification(method: string, params: JsonObject): void {
    if (method === 'notifications/initialized') {
      this.#session?.notified(method);
      return;
    }
    if (method === 'notifications/cancelled') {
      const id = readId(params['requestId']);
      if (id !== undefined) this.peer.cancelIncoming(id);
      return;
    }
    this.server.options.notificationHandlers?.[method]?.(params, { era: this.era });
  }

  /**
   * Runs `handler` for `req` with a context of the era's `fields` plus what every era shares: the request's
   * method, id and cancellation, notifications tied to the request, and server-wide change notifications. A
   * handler that asked for input the client has not given yet (2026-07-28) ends the round: its value is then
   * the input_required result asking for it.
   */
  /** Ends the SSE stream of request `id`, for the client to resume (a no-op on transports without streams). */
  closeStream(id: RequestId): void {
    this.#transport.closeStream?.(id);
  }

  async run(handler: Handler, params: JsonObject, req: IncomingRequest, fields: EraFields): Promise<{ value: unknown; kept: BuiltContext['kept'] }> {
    const ctx = createContext(new RunInit(this, req, fields));
    try {
      return { value: await handler(params, ctx), kept: ctx.kept };
    } catch (err) {
      if (err instanceof InputRequired) return { value: { resultType: 'input_required', inputRequests: err.requests }, kept: ctx.kept };
      throw err;
    }
  }

  /** Validates an outgoing result; logs and throws -32603 when the schema rejects it. */
  checkResult(entry: MethodEntry, result: unknown, revision: Revision): void {
    const inputRequired = result !== null && typeof result === 'object' && (result as JsonObject)['resultType'] === 'input_required';
    const added = this.server.extensionResult(entry.method, (result as JsonObject | null)?.['resultType']);
    const validate = added ?? (inputRequired ? revision.validators['InputRequiredResult'] : entry.result);
    if (inputRequired && !validate) {
      this.server.log(`${entry.method} returned input_required, which ${revision.version} does not have (use ctx.input)`);
      throw internalError();
    }
    if (this.server.options.validateResults === false || !validate) return;
    if (validate(result)) return;
    const e = validate.errors?.[0];
    this.server.log(`${entry.method} result does not match the ${revision.version} schema: ${e?.instancePath || '(root)'} ${e?.message}`);
    throw internalError();
  }

  /** A handler for `method`: the server's, or undefined (answered -32601). */
  handlerFor(method: string): Handler | undefined {
    return this.server.handlers.get(method);
  }

  /** Throws -32601 unless the entry's server-side capability gates are all advertised in `caps`. */
  requireGates(entry: MethodEntry, caps: JsonObject): void {
    if (!gatesOpen(entry, 'server', caps)) throw methodNotFound(entry.method);
  }

  /**
   * The 2026-07-28 era's -32601 for a method `revision` does not serve (`entry`: what its dispatch table says
   * of it, if anything): worded as the server's `methodNotFound` option says when another revision has it.
   */
  methodNotFound(method: string, entry: MethodEntry | undefined, revision: string): JsonRpcError {
    const elsewhere = entry === undefined && this.server.options.methodNotFound === 'revision' && inSomeRevision(method);
    return elsewhere ? methodNotInRevision(method, revision) : methodNotFound(method);
  }
}
