/**
 * @module mcp/server/connection — one client connection: decides its era from the first valid request and keeps
 * it (a connection is locked to the era of its first valid request, as the official SDK's server does: its
 * recorded `raw_handshake` and `raw_errors` sessions), then hands every request to that era's
 * {@link EraSession}. The handshake era (../handshake/session.ts) sees the connection only through {@link EraConnection},
 * the 2026-07-28 era (../stateless/session.ts) through {@link Serving} (serving.ts): they run handlers, check results and
 * enter their era; they never write its fields.
 */
import type { AuthInfo } from '../../auth/info.ts';
import { readId, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import { Peer, type IncomingRequest } from '../../jsonrpc/peer.ts';
import type { Transport } from '../../transports/transport.ts';
import { invalidRequestParameters } from '../handshake/errors.ts';
import { initialize } from '../handshake/initialize.ts';
import { hasStatelessEnvelope } from '../stateless/meta.ts';
import { statelessOnly } from '../revisions.ts';
import type { McpServer } from './server.ts';
import { Serving } from './serving.ts';
import { StatelessSession } from '../stateless/session.ts';
import type { ListKind } from './subscriptions.ts';
import type { Era } from './types.ts';

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

/** What the handshake era uses of its connection: serving, plus a peer that can ask the client. */
export interface EraConnection extends Serving {
  readonly peer: Peer;
  /** Locks the connection to `session`'s era, unless an era is already in place (the first valid request decides). */
  enter(session: EraSession): void;
}

export class McpConnection extends Serving implements EraConnection {
  readonly peer: Peer;
  readonly listens = new Map<string, Listen>();
  #session: EraSession | undefined;
  /**
   * Settles when the request that may decide this connection's era has: its initialize answered (or refused),
   * or its 2026-07-28 request found valid. Messages that arrive meanwhile wait for it, in arrival order, so a
   * client that writes initialize, notifications/initialized and a request at once is answered as if it had
   * waited for each answer (JSON-RPC 2.0 leaves order to the server; MCP's lifecycle requires initialize first:
   * https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization).
   */
  #deciding: Promise<void> | undefined;
  /** Ends the wait of a 2026-07-28 first request once it entered its era (a listen stream may stay open). */
  #entered: (() => void) | undefined;
  /** The 2026-07-28 session, made once: it holds nothing per connection but what `listens` holds. */
  #stateless: StatelessSession | undefined;
  readonly #transport: Transport;
  /**
   * Who sent each request, read from the transport as it arrived (before it may wait for the era's decision);
   * made at the first request that has a sender (most connections have none).
   */
  #senders: WeakMap<IncomingRequest, AuthInfo> | undefined;

  constructor(server: McpServer, transport: Transport, options: ConnectionOptions = {}) {
    super(server);
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
    if (session.era === 'stateless') this.#entered?.();
  }

  enterStateless(): void {
    this.enter(this.#statelessSession());
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

  override authOf(req: IncomingRequest): AuthInfo | undefined {
    return this.#senders?.get(req);
  }

  #route(req: IncomingRequest): Promise<unknown> {
    // Read while the frame is being delivered: the transport knows its carrier only now.
    const auth = this.#transport.authOf?.(req.id);
    if (auth) (this.#senders ??= new WeakMap()).set(req, auth);
    if (this.#session) return this.#session.serve(req);
    if (this.#deciding) return this.#deciding.then(() => this.#route(req));
    const running = this.#first(req);
    if (!this.#session) this.#awaitDecision(running, req.method === 'initialize');
    return running;
  }

  /**
   * Holds the connection's next messages until `running` settles (initialize: its answer is written first: the
   * Peer's writer reacts to `running` itself, `deciding` settles a step later) or, for a 2026-07-28 request,
   * until it enters its era.
   */
  #awaitDecision(running: Promise<unknown>, untilSettled: boolean): void {
    const decided = new Promise<void>((resolve) => {
      const done = () => resolve();
      running.then(done, done);
      if (!untilSettled) this.#entered = done;
    });
    const deciding = decided.then(() => {
      if (this.#deciding === deciding) this.#deciding = undefined;
      this.#entered = undefined;
    });
    this.#deciding = deciding;
  }

  /** A request that arrives before the connection has an era. */
  #first(req: IncomingRequest): Promise<unknown> {
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
    // A cancellation is never held: it concerns a request already received, whatever the era.
    if (this.#deciding && method !== 'notifications/cancelled') {
      void this.#deciding.then(() => this.#notification(method, params));
      return;
    }
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

  closeStream(id: RequestId): void {
    this.#transport.closeStream?.(id);
  }
}
