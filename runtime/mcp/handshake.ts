/**
 * @module mcp/handshake — the handshake era (2024-11-05 … 2025-11-25): initialize negotiates the revision
 * and capabilities once; server→client requests carry input; results carry no 2026-07-28 envelope.
 * Errors follow what the official SDK sent (seed 000).
 */
import { forValidation, isObject, JsonRpcError, readId, type JsonObject } from '../jsonrpc/message.ts';
import type { IncomingRequest } from '../jsonrpc/peer.ts';
import type { McpConnection } from './connection.ts';
import { alreadyInitialized, invalidRequestParameters, methodNotFound, statelessOnHandshake } from './errors.ts';
import { hasStatelessEnvelope } from './meta.ts';
import { checkClientCapabilities } from './mrtr.ts';
import { isHandshakeVersion, LATEST_HANDSHAKE, requireRevision, type Revision } from './revisions.ts';
import type { Handler, WireInputRequest, LoggingLevel } from './types.ts';

export interface HandshakeState {
  readonly revision: Revision;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: JsonObject | undefined;
  /** Set by notifications/initialized; until then only ping is served (as the SDK does). */
  initialized: boolean;
  /** logging/setLevel's level; notifications/message below it are not sent. */
  logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to with resources/subscribe. */
  readonly subscriptions: Set<string>;
}

/** How long a server→client request (elicitation, sampling, roots) waits: a person may be answering. */
export const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** initialize: negotiates the revision (the one asked for if known, else the newest) and locks the era. */
export async function initialize(conn: McpConnection, req: IncomingRequest): Promise<unknown> {
  const params = req.params ?? {};
  const asked = params['protocolVersion'];
  const revision = await requireRevision(typeof asked === 'string' && isHandshakeVersion(asked) ? asked : LATEST_HANDSHAKE);
  const entry = revision.lookup('initialize')!;
  if (!req.params || (entry.params && !entry.params(req.params))) throw invalidRequestParameters();
  const { options } = conn.server;
  conn.era = 'handshake';
  conn.handshake = {
    revision,
    clientCapabilities: isObject(params['capabilities']) ? params['capabilities'] : {},
    clientInfo: isObject(params['clientInfo']) ? params['clientInfo'] : undefined,
    initialized: false,
    logLevel: options.capabilities.handshake['logging'] !== undefined ? 'debug' : undefined,
    subscriptions: new Set(),
  };
  const result: JsonObject = { protocolVersion: revision.version, capabilities: options.capabilities.handshake, serverInfo: options.serverInfo };
  if (options.instructions !== undefined) result['instructions'] = options.instructions;
  conn.checkResult(entry, result, revision);
  return result;
}

/** Protocol methods the runtime answers itself in this era. */
const BUILTIN: Record<string, (conn: McpConnection, params: JsonObject) => JsonObject> = {
  ping: () => ({}),
  'logging/setLevel': (conn, params) => {
    conn.handshake!.logLevel = params['level'] as LoggingLevel;
    return {};
  },
  'resources/subscribe': (conn, params) => {
    conn.handshake!.subscriptions.add(String(params['uri']));
    return {};
  },
  'resources/unsubscribe': (conn, params) => {
    conn.handshake!.subscriptions.delete(String(params['uri']));
    return {};
  },
};

/** Sends each input request to the client in turn and returns its answers (validated by the schema). */
async function askClient(
  conn: McpConnection,
  requests: Readonly<Record<string, WireInputRequest>>,
  req: IncomingRequest,
): Promise<Record<string, JsonObject>> {
  const state = conn.handshake!;
  // Every request's capabilities first, merged (as in 2026-07-28): nothing is sent when one is missing.
  checkClientCapabilities(requests, state.clientCapabilities, state.revision);
  const answers: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests)) {
    const entry = state.revision.lookup(request.method);
    if (!entry || entry.direction === 'client-to-server')
      throw new JsonRpcError(-32603, `${request.method} is not a request the server can send in ${state.revision.version}`);
    const timeoutMs = conn.server.options.clientRequestTimeoutMs ?? CLIENT_REQUEST_TIMEOUT_MS;
    const answer = await conn.peer.request(request.method, request.params, { signal: req.signal, relatedTo: req.id, timeoutMs });
    if (entry.result && !entry.result(answer))
      throw new JsonRpcError(-32603, `The client's answer to ${request.method} does not match the ${state.revision.version} schema`);
    answers[key] = answer as JsonObject;
  }
  return answers;
}

export async function serveHandshake(conn: McpConnection, req: IncomingRequest): Promise<unknown> {
  const state = conn.handshake!;
  if (hasStatelessEnvelope(req.params)) throw statelessOnHandshake();
  if (req.method === 'initialize') throw alreadyInitialized();
  const { revision } = state;
  const entry = revision.lookup(req.method);
  if (entry?.kind !== 'request' || entry.direction === 'server-to-client') throw methodNotFound(req.method);
  if (!state.initialized && req.method !== 'ping') throw invalidRequestParameters();
  conn.requireGates(entry, conn.server.options.capabilities.handshake);
  if ((entry.paramsRequired && !req.params) || (req.params && entry.params && !entry.params(forValidation(req.params))))
    throw invalidRequestParameters();
  const params = req.params ?? {};
  const builtin = BUILTIN[req.method];
  const handler: Handler | undefined = builtin ? (p) => builtin(conn, p) : conn.handlerFor(req.method);
  if (!handler) throw methodNotFound(req.method);
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  const token = meta['progressToken'];
  const result = await conn.run(handler, params, req, {
    era: 'handshake',
    protocolVersion: revision.version,
    clientCapabilities: state.clientCapabilities,
    clientInfo: state.clientInfo,
    progressToken: token === undefined ? undefined : readId(token),
    logLevel: state.logLevel,
    state: undefined,
    obtain: (requests) => askClient(conn, requests, req),
  });
  conn.checkResult(entry, result.value, revision);
  return result.value;
}
