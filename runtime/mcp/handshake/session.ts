/**
 * @module mcp/handshake/session — the handshake era (2024-11-05 … 2025-11-25) of a connection, once initialize
 * (initialize.ts) negotiated its revision and capabilities: {@link HandshakeSession} serves each later request
 * in the order of its steps (`serve`), asks the client for input with server→client requests, and sends no
 * 2026-07-28 envelope. Errors follow what the official SDK sent (test/fixtures/recordings/).
 */
import type { ClientCapabilities, Implementation } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, forValidation, isObject, JsonRpcError, readId, type JsonObject } from '../../jsonrpc/message.ts';
import type { IncomingRequest } from '../../jsonrpc/peer.ts';
import type { EraConnection, EraSession } from '../server/connection.ts';
import { advertises, gatesOpen, type Revision } from '../revisions.ts';
import { answerMatches } from '../server/elicit-answer.ts';
import { methodNotFound } from '../server/errors.ts';
import { checkResult } from '../server/result-check.ts';
import { runHandler } from '../server/run.ts';
import { checkClientCapabilities } from '../stateless/input-required.ts';
import { hasStatelessEnvelope } from '../stateless/meta.ts';
import { alreadyInitialized, invalidRequestParameters, statelessOnHandshake } from './errors.ts';
import { LIST_CHANGED, RESOURCE_UPDATED, type ListKind } from '../server/subscriptions.ts';
import type { Handler, LoggingLevel, Open, WireInputRequest } from '../server/types.ts';

/** How long a server→client request (elicitation, sampling, roots) waits: a person may be answering. */
export const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** What the handshake negotiated and what the client has set since, for one connection. */
export class HandshakeSession implements EraSession {
  readonly era = 'handshake';
  readonly revision: Revision;
  readonly clientCapabilities: Open<ClientCapabilities>;
  readonly clientInfo: Open<Implementation> | undefined;
  readonly #conn: EraConnection;
  /** Set by notifications/initialized; until then only ping is served (as the SDK does). */
  #initialized = false;
  /** logging/setLevel's level; notifications/message below it are not sent. */
  #logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to with resources/subscribe. */
  readonly #subscriptions = new Set<string>();

  constructor(conn: EraConnection, revision: Revision, clientCapabilities: Open<ClientCapabilities>, clientInfo: Open<Implementation> | undefined) {
    this.#conn = conn;
    this.revision = revision;
    this.clientCapabilities = clientCapabilities;
    this.clientInfo = clientInfo;
    // Log messages flow from the start when the server advertises them (the gate of notifications/message).
    this.#logLevel = advertises(revision, 'notifications/message', conn.server.options.capabilities.handshake) ? 'debug' : undefined;
  }

  get negotiatedVersion(): string {
    return this.revision.version;
  }

  notified(method: string): boolean {
    if (method !== 'notifications/initialized') return false;
    this.#initialized = true;
    return true;
  }

  deliverListChanged(kind: ListKind): void {
    const method = LIST_CHANGED(kind);
    if (advertises(this.revision, method, this.#conn.server.options.capabilities.handshake)) this.#conn.peer.notify(method);
  }

  deliverResourceUpdated(uri: string): void {
    if (this.#subscriptions.has(uri)) this.#conn.peer.notify(RESOURCE_UPDATED, { uri });
  }

  /** Protocol methods the runtime answers itself in this era. */
  #builtin(method: string): Handler | undefined {
    switch (method) {
      case 'ping':
        return () => ({});
      case 'logging/setLevel':
        return (params) => {
          // The revision's SetLevelRequest params validated it: a LoggingLevel.
          this.#logLevel = params['level'] as LoggingLevel;
          return {};
        };
      case 'resources/subscribe':
        return (params) => {
          this.#subscriptions.add(String(params['uri']));
          return {};
        };
      case 'resources/unsubscribe':
        return (params) => {
          this.#subscriptions.delete(String(params['uri']));
          return {};
        };
      default:
        return undefined;
    }
  }

  /** Sends each input request to the client in turn and returns its answers (validated by the schema). */
  async #askClient(requests: Readonly<Record<string, WireInputRequest>>, req: IncomingRequest): Promise<Record<string, JsonObject>> {
    // Every request's capabilities first, merged (as in 2026-07-28): nothing is sent when one is missing.
    checkClientCapabilities(requests, this.clientCapabilities, this.revision);
    const answers: Record<string, JsonObject> = {};
    for (const [key, request] of Object.entries(requests)) {
      const entry = this.revision.lookup(request.method);
      if (!entry || entry.direction === 'client-to-server')
        throw new JsonRpcError(ErrorCode.InternalError, `${request.method} is not a request the server can send in ${this.revision.version}`);
      const timeoutMs = this.#conn.server.options.clientRequestTimeoutMs ?? CLIENT_REQUEST_TIMEOUT_MS;
      const answer = await this.#conn.peer.request(request.method, request.params, { signal: req.signal, relatedTo: req.id, timeoutMs });
      if (!answerMatches(request, answer, entry.result))
        throw new JsonRpcError(
          ErrorCode.InternalError,
          `The client's answer to ${request.method} does not match the ${this.revision.version} schema`,
        );
      answers[key] = answer as JsonObject;
    }
    return answers;
  }

  /**
   * Serves one request of this era, in the order of its steps: not a 2026-07-28 request, not a second
   * initialize → method (a client request of the negotiated revision; else -32601) → initialized (only ping
   * before notifications/initialized) → capabilities (its server gates advertised; else -32601) → params
   * (against the revision's schema) → handler (the runtime's or the server's; else -32601) → run → result check.
   */
  async serve(req: IncomingRequest): Promise<unknown> {
    const conn = this.#conn;
    const { revision } = this;
    if (hasStatelessEnvelope(req.params)) throw statelessOnHandshake();
    if (req.method === 'initialize') throw alreadyInitialized();
    // method
    const entry = revision.lookup(req.method);
    if (entry?.kind !== 'request' || entry.direction === 'server-to-client') throw methodNotFound(req.method);
    // initialized
    if (!this.#initialized && req.method !== 'ping') throw invalidRequestParameters();
    // capabilities
    if (!gatesOpen(entry, 'server', conn.server.options.capabilities.handshake)) throw methodNotFound(entry.method);
    // params
    if ((entry.paramsRequired && !req.params) || (req.params && entry.params && !entry.params(forValidation(req.params))))
      throw invalidRequestParameters();
    const params = req.params ?? {};
    // handler
    const handler = this.#builtin(req.method) ?? conn.server.handlers.get(req.method);
    if (!handler) throw methodNotFound(req.method);
    // run: input is asked of the client over the connection (#askClient)
    const meta = isObject(params['_meta']) ? params['_meta'] : {};
    const token = meta['progressToken'];
    const { value } = await runHandler(conn, handler, params, req, {
      era: 'handshake',
      protocolVersion: revision.version,
      clientCapabilities: this.clientCapabilities,
      clientInfo: this.clientInfo,
      progressToken: token === undefined ? undefined : readId(token),
      logLevel: this.#logLevel,
      state: undefined,
      obtain: (requests) => this.#askClient(requests, req),
    });
    // result check
    checkResult(conn.server, entry, value, revision);
    return value;
  }
}
