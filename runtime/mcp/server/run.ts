/**
 * @module mcp/server/run — the "run" step of either era: the handler called with its context, and what it
 * returned or threw turned into the request's value (thrown.ts says how a throw is answered).
 */
import { onSignalAbort, type IncomingRequest } from '../../jsonrpc/incoming.ts';
import type { JsonObject, RequestId } from '../../jsonrpc/message.ts';
import { InputRequired } from '../stateless/mrtr.ts';
import { createContext, type BuiltContext, type ContextInit } from './context.ts';
import type { Serving } from './serving.ts';
import { answerThrown, isBehaviourFailure } from './thrown.ts';
import type { Handler } from './types.ts';

/** What differs between the eras' contexts; the rest `runHandler` fills in from the request. */
export type EraFields = Omit<ContextInit, 'method' | 'id' | 'signal' | 'notify' | 'changed' | 'auth' | 'onAbort'>;

/** A handler's value, and what it asked to keep for the next round (2026-07-28's requestState). */
export interface Ran {
  readonly value: unknown;
  readonly kept: BuiltContext['kept'];
}

/**
 * What {@link runHandler} hands createContext: the era's fields plus the request's method, id, signal
 * (read when asked: the request's controller is made lazily) and its notifications. A class rather than an
 * object literal spreading the fields with a getter among them, which V8 builds on its slow path once a request.
 */
class RunInit implements ContextInit {
  readonly era: ContextInit['era'];
  readonly protocolVersion: ContextInit['protocolVersion'];
  readonly clientCapabilities: ContextInit['clientCapabilities'];
  readonly clientInfo: ContextInit['clientInfo'];
  readonly auth: ContextInit['auth'];
  readonly progressToken: ContextInit['progressToken'];
  readonly logLevel: ContextInit['logLevel'];
  readonly state: unknown;
  readonly obtain: ContextInit['obtain'];
  readonly method: string;
  readonly id: RequestId;
  readonly #conn: Serving;
  readonly #req: IncomingRequest;

  constructor(conn: Serving, req: IncomingRequest, fields: EraFields) {
    this.era = fields.era;
    this.protocolVersion = fields.protocolVersion;
    this.clientCapabilities = fields.clientCapabilities;
    this.clientInfo = fields.clientInfo;
    this.auth = conn.authOf(req);
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

  onAbort(then: () => void): void {
    if (this.#req.onAbort) this.#req.onAbort(then);
    else onSignalAbort(this.#req.signal, then);
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

/**
 * Runs `handler` for `req` on `conn` with a context of the era's `fields` plus what every era shares: the
 * request's method, id and cancellation, notifications tied to the request, and server-wide change
 * notifications. A handler that asked for input the client has not given yet (2026-07-28) ends the round: its
 * value is then the input_required result asking for it. A handler that failed (threw anything else than a
 * JsonRpcError) is answered as thrown.ts `answerThrown` says: an isError result (tools/call) or -32603.
 */
export async function runHandler(conn: Serving, handler: Handler, params: JsonObject, req: IncomingRequest, fields: EraFields): Promise<Ran> {
  const started = start(conn, handler, params, req, fields);
  const { kept } = started;
  try {
    if (started.threw) throw started.value;
    return { value: await started.value, kept };
  } catch (err) {
    if (err instanceof InputRequired) return { value: { resultType: 'input_required', inputRequests: err.requests }, kept };
    if (!isBehaviourFailure(err, req)) throw err;
    return { value: answerThrown(conn.server, req.method, params, err), kept };
  }
}

/**
 * Calls `handler` with its context, outside runHandler's frame: while the handler runs, that frame holds only
 * what it needs afterwards (`kept`), not the context and its closures, so a request that stays open
 * (subscriptions/listen, held for as long as the client listens) keeps its context only as long as the
 * handler itself does.
 */
function start(
  conn: Serving,
  handler: Handler,
  params: JsonObject,
  req: IncomingRequest,
  fields: EraFields,
): { readonly value: unknown; readonly threw: boolean; readonly kept: BuiltContext['kept'] } {
  const ctx = createContext(new RunInit(conn, req, fields));
  try {
    return { value: handler(params, ctx), threw: false, kept: ctx.kept };
  } catch (err) {
    return { value: err, threw: true, kept: ctx.kept };
  }
}
