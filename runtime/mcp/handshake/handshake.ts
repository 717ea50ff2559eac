/**
 * @module mcp/handshake/handshake — the handshake era (2024-11-05 … 2025-11-25): initialize negotiates the revision
 * and capabilities once; server→client requests carry input; results carry no 2026-07-28 envelope.
 * Errors follow what the official SDK sent (test/fixtures/recordings/). The era's side of a connection is
 * {@link HandshakeSession}, made by a valid initialize.
 */
import type { ClientCapabilities, Implementation } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, forValidation, isObject, JsonRpcError, readId, type JsonObject } from '../../jsonrpc/message.ts';
import type { IncomingRequest } from '../../jsonrpc/peer.ts';
import type { EraConnection, EraSession } from '../server/connection.ts';
import { alreadyInitialized, invalidRequestParameters, methodNotFound, statelessOnHandshake } from '../server/errors.ts';
import { hasStatelessEnvelope, implementationOf } from '../stateless/meta.ts';
import { answerMatches } from '../stateless/elicit-answer.ts';
import { checkClientCapabilities } from '../stateless/mrtr.ts';
import { advertises, isHandshakeVersion, LATEST_HANDSHAKE, requireRevision, type Revision } from '../revisions.ts';
import { LIST_CHANGED, RESOURCE_UPDATED, type ListKind } from '../server/subscriptions.ts';
import type { Handler, LoggingLevel, Open, WireInputRequest } from '../server/types.ts';

/** How long a server→client request (elicitation, sampling, roots) waits: a person may be answering. */
export const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** initialize: negotiates the revision (the one asked for if known, else the newest) and locks the era. */
export async function initialize(conn: EraConnection, req: IncomingRequest): Promise<unknown> {
  const params = req.params ?? {};
  const asked = params['protocolVersion'];
  const revision = await requireRevision(typeof asked === 'string' && isHandshakeVersion(asked) ? asked : LATEST_HANDSHAKE);
  const entry = revision.lookup('initialize')!;
  if (!req.params || (entry.params && !entry.params(req.params))) throw invalidRequestParameters();
  const { options } = conn.server;
  const clientCapabilities: Open<ClientCapabilities> = isObject(params['capabilities']) ? params['capabilities'] : {};
  conn.enter(new HandshakeSession(conn, revision, clientCapabilities, implementationOf(params['clientInfo'])));
  // `instructionsIn: 'serverInfo'` (the reference Golden Server) nests them in the Implementation.
  const nested = options.instructions !== undefined && options.instructionsIn === 'serverInfo';
  const serverInfo = nested ? { ...options.serverInfo, instructions: options.instructions } : options.serverInfo;
  const result: JsonObject = { protocolVersion: revision.version, capabilities: options.capabilities.handshake, serverInfo };
  if (options.instructions !== undefined && !nested) result['instructions'] = options.instructions;
  conn.checkResult(entry, result, revision);
  return result;
}

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

  async serve(req: IncomingRequest): Promise<unknown> {
    const conn = this.#conn;
    if (hasStatelessEnvelope(req.params)) throw statelessOnHandshake();
    if (req.method === 'initialize') throw alreadyInitialized();
    const { revision } = this;
    const entry = revision.lookup(req.method);
    if (entry?.kind !== 'request' || entry.direction === 'server-to-client') throw methodNotFound(req.method);
    if (!this.#initialized && req.method !== 'ping') throw invalidRequestParameters();
    conn.requireGates(entry, conn.server.options.capabilities.handshake);
    if ((entry.paramsRequired && !req.params) || (req.params && entry.params && !entry.params(forValidation(req.params))))
      throw invalidRequestParameters();
    const params = req.params ?? {};
    const handler = this.#builtin(req.method) ?? conn.handlerFor(req.method);
    if (!handler) throw methodNotFound(req.method);
    const meta = isObject(params['_meta']) ? params['_meta'] : {};
    const token = meta['progressToken'];
    const result = await conn.run(handler, params, req, {
      era: 'handshake',
      protocolVersion: revision.version,
      clientCapabilities: this.clientCapabilities,
      clientInfo: this.clientInfo,
      progressToken: token === undefined ? undefined : readId(token),
      logLevel: this.#logLevel,
      state: undefined,
      obtain: (requests) => this.#askClient(requests, req),
    });
    conn.checkResult(entry, result.value, revision);
    return result.value;
  }
}
