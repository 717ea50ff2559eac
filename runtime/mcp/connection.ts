/**
 * @module mcp/connection — one client connection: decides its era from the first valid request and keeps
 * it (seed 000: a connection is locked to the era of its first valid request), then serves each request
 * through the era's rules and the generated dispatch table of the revision in use.
 */
import { readId, type JsonObject, type RequestId } from '../jsonrpc/message.ts';
import { Peer, type IncomingRequest } from '../jsonrpc/peer.ts';
import type { Transport } from '../transports/transport.ts';
import { createContext, type BuiltContext, type ContextInit } from './context.ts';
import { InputRequired } from './mrtr.ts';
import { internalError, invalidRequestParameters, methodNotFound } from './errors.ts';
import { initialize, serveHandshake, type HandshakeState } from './handshake.ts';
import { hasStatelessEnvelope } from './meta.ts';
import { gatesOpen, statelessOnly, type Revision } from './revisions.ts';
import type { McpServer } from './server.ts';
import { serveStateless } from './stateless.ts';
import type { Era, Handler } from './types.ts';
import type { MethodEntry } from '../core/index.ts';

/** What differs between the eras' contexts; the rest `run` fills in from the request. */
export type EraFields = Omit<ContextInit, 'method' | 'id' | 'signal' | 'notify' | 'changed'>;

export interface ConnectionOptions {
  /** Answer frames that are not JSON with -32700 instead of silence. Default false (as the MCP SDK). */
  readonly answerParseErrors?: boolean;
  /** Fix the era up front (HTTP: a request without a session is 2026-07-28). */
  readonly era?: Era;
}

/** A subscriptions/listen stream held open on this connection. */
export interface Listen {
  readonly id: RequestId;
  readonly honored: JsonObject;
  /** Ends the stream with its result (graceful shutdown). */
  end(): void;
}

export class McpConnection {
  readonly server: McpServer;
  readonly peer: Peer;
  era: Era | undefined;
  handshake: HandshakeState | undefined;
  readonly listens = new Map<string, Listen>();

  constructor(server: McpServer, transport: Transport, options: ConnectionOptions = {}) {
    this.server = server;
    this.era = options.era;
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

  /** Resolves when the client has gone and every request has been answered. */
  get finished(): Promise<void> {
    return this.peer.finished;
  }

  #route(req: IncomingRequest): Promise<unknown> {
    if (this.era === 'handshake') return serveHandshake(this, req);
    if (this.era === 'stateless') return serveStateless(this, req);
    if (req.method === 'initialize' && !hasStatelessEnvelope(req.params)) return initialize(this, req);
    // The 2026-07-28 envelope locks the connection to that era at once, even when the request itself is
    // then refused (seed 000 raw_errors: after an unsupported version, a request without _meta gets the
    // 2026-07-28 error, not the handshake one).
    if (hasStatelessEnvelope(req.params)) {
      this.era = 'stateless';
      return serveStateless(this, req);
    }
    if (statelessOnly(req.method)) return serveStateless(this, req);
    // A handshake-era request before initialize: the SDK's answer (seed 000 raw_handshake).
    if (req.method === 'ping') return Promise.resolve({});
    return Promise.reject(invalidRequestParameters());
  }

  #notification(method: string, params: JsonObject): void {
    if (method === 'notifications/initialized') {
      if (this.handshake) this.handshake.initialized = true;
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
   * Runs a handler with the context the era built. A handler that asked for input the client has not given
   * yet (2026-07-28) ends the round: its value is then the input_required result asking for it.
   */
  /**
   * Runs `handler` for `req` with a context of the era's `fields` plus what every era shares: the request's
   * method, id and cancellation, notifications tied to the request, and server-wide change notifications.
   */
  async run(handler: Handler, params: JsonObject, req: IncomingRequest, fields: EraFields): Promise<{ value: unknown; kept: BuiltContext['kept'] }> {
    const ctx = createContext({
      ...fields,
      method: req.method,
      id: req.id,
      get signal() {
        return req.signal;
      },
      notify: (method, p) => this.peer.notify(method, p, req.id),
      changed: (kind) => (typeof kind === 'string' ? this.server.listChanged(kind) : this.server.resourceUpdated(kind.uri)),
    });
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
    const validate = inputRequired ? revision.validators['InputRequiredResult'] : entry.result;
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
}
