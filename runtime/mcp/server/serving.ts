/**
 * @module mcp/server/serving — what serving one request of either era needs of its connection, whatever carries the
 * request: running the handler with its context, checking its result, finding handlers and capability
 * gates. {@link Serving} is the base of a connection (connection.ts) and of one 2026-07-28 HTTP request
 * served without a connection (http-call.ts).
 */
import { JsonRpcError, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import type { IncomingRequest } from '../../jsonrpc/incoming.ts';
import type { MethodEntry } from '../../core/index.ts';
import type { Listen } from './connection.ts';
import { createContext, type BuiltContext, type ContextInit } from './context.ts';
import { internalError, methodNotFound, methodNotInRevision } from './errors.ts';
import { InputRequired } from '../stateless/mrtr.ts';
import { gatesOpen, inSomeRevision, type Revision } from '../revisions.ts';
import type { McpServer } from './server.ts';
import type { Handler, RequestContext } from './types.ts';

/** What differs between the eras' contexts; the rest `run` fills in from the request. */
export type EraFields = Omit<ContextInit, 'method' | 'id' | 'signal' | 'notify' | 'changed'>;

/** Where a request's notifications go: the client's side of its connection, or its HTTP answer. */
export interface Notifier {
  /** Sends a notification; `relatedTo` names the incoming request it was produced for, if any. */
  notify(method: string, params?: JsonObject, relatedTo?: RequestId): void;
}

/**
 * What {@link Serving.run} hands createContext: the era's fields plus the request's method, id, signal
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
  readonly #conn: Serving;
  readonly #req: IncomingRequest;

  constructor(conn: Serving, req: IncomingRequest, fields: EraFields) {
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

/** The connection-independent part of serving requests; a subclass says where notifications go. */
export abstract class Serving {
  readonly server: McpServer;
  abstract readonly peer: Notifier;
  /** The subscriptions/listen streams held open here. */
  abstract readonly listens: Map<string, Listen>;

  constructor(server: McpServer) {
    this.server = server;
  }

  /** Ends the SSE stream of request `id`, for the client to resume (a no-op where answers are not streams). */
  abstract closeStream(id: RequestId): void;

  /** Locks this to the 2026-07-28 era, unless an era is already in place (the first valid request decides). */
  abstract enterStateless(): void;

  /**
   * Runs `handler` for `req` with a context of the era's `fields` plus what every era shares: the request's
   * method, id and cancellation, notifications tied to the request, and server-wide change notifications. A
   * handler that asked for input the client has not given yet (2026-07-28) ends the round: its value is then
   * the input_required result asking for it. A handler that failed (threw anything else than a JsonRpcError)
   * is answered as McpServer.answerThrown says: an isError result (tools/call) or -32603.
   */
  async run(handler: Handler, params: JsonObject, req: IncomingRequest, fields: EraFields): Promise<{ value: unknown; kept: BuiltContext['kept'] }> {
    const ctx = createContext(new RunInit(this, req, fields));
    try {
      return { value: await handler(params, ctx), kept: ctx.kept };
    } catch (err) {
      if (err instanceof InputRequired) return { value: { resultType: 'input_required', inputRequests: err.requests }, kept: ctx.kept };
      if (!isBehaviourFailure(err, ctx)) throw err;
      return { value: this.server.answerThrown(req.method, params, err), kept: ctx.kept };
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

/**
 * Whether a handler's thrown `err` is a behaviour's failure, which `thrownErrors` answers: not a JsonRpcError
 * (a protocol answer, sent as it is), not InputRequired (the input_required round), and not thrown after the
 * request was cancelled or timed out (never answered).
 */
export function isBehaviourFailure(err: unknown, ctx: RequestContext): boolean {
  return !(err instanceof JsonRpcError || err instanceof InputRequired || ctx.signal.aborted);
}
