/**
 * @module jsonrpc/incoming — running one incoming JSON-RPC request to its response: the handler's result or
 * error becomes the response, a handler past its time limit is answered -32001 and aborted, an aborted
 * (cancelled) request is never answered. The Peer (peer.ts) runs each request of a connection this way; a
 * server that answers a single request without a connection (HTTP's 2026-07-28 requests, mcp/http/call.ts)
 * runs it the same way.
 */
import type { FrameMeta } from '../transports/transport.ts';
import { isReusable } from './reusable.ts';
import {
  ErrorCode,
  errorResponse,
  JsonRpcError,
  serialize,
  serializeNotification,
  serializeResult,
  encodedResult,
  type JsonObject,
  type RequestId,
} from './message.ts';

/**
 * Notifications a transport may leave out while the other side is not reading (FrameMeta.droppable): MCP's
 * progress (a later one supersedes it) and log messages (advisory), so a flood of them cannot fill memory.
 */
export const DROPPABLE_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/progress', 'notifications/message']);

/** A notification's frame: its JSON text, and its meta (the request it was produced for; droppable or not). */
export function notificationFrame(
  method: string,
  params: JsonObject | undefined,
  relatedTo: RequestId | undefined,
  droppableNotifications: ReadonlySet<string> = DROPPABLE_NOTIFICATIONS,
): { text: string; meta: FrameMeta } {
  const droppable = droppableNotifications.has(method);
  const meta: FrameMeta = {
    kind: 'notification',
    ...(relatedTo === undefined ? {} : { relatedTo }),
    ...(droppable ? { droppable } : {}),
  };
  return { text: serializeNotification(method, params), meta };
}

/**
 * An AbortController made only when a handler asks for the signal: most requests never do, and one
 * controller per request is a measurable share of a small request's cost.
 */
export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #onAbort: (() => void) | undefined;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const then = this.#onAbort;
    this.#onAbort = undefined;
    then?.();
  }

  /**
   * Calls `then` once, when the request is aborted (now, if it is). The first such callback is kept in a field,
   * not on an AbortSignal: a request held open for long (a subscriptions/listen stream) then costs no
   * AbortController, AbortSignal and listener (about 600 bytes each).
   */
  onAbort(then: () => void): void {
    if (this.#aborted) then();
    else if (this.#onAbort || this.#controller) this.signal.addEventListener('abort', then, { once: true });
    else this.#onAbort = then;
  }
}

/** Calls `then` once `signal` aborts, or at once if it has. */
export function onSignalAbort(signal: AbortSignal, then: () => void): void {
  if (signal.aborted) then();
  else signal.addEventListener('abort', then, { once: true });
}

export interface IncomingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** Calls `then` once the request is aborted (at once if it is), without making `signal` (LazyAbort.onAbort). */
  onAbort?(then: () => void): void;
}

/**
 * The IncomingRequest a handler gets: a class, its signal a getter on the prototype (the controller is made
 * only when a handler asks), rather than an object literal with a getter, built on V8's slow path.
 */
export class PeerRequest implements IncomingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly #controller: LazyAbort;

  constructor(id: RequestId, method: string, params: JsonObject | undefined, controller: LazyAbort) {
    this.id = id;
    this.method = method;
    this.params = params;
    this.#controller = controller;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  onAbort(then: () => void): void {
    this.#controller.onAbort(then);
  }
}

/** How a request's side of the conversation answers and reports. */
export interface Answering {
  /** Answers a request: resolves with the result or throws a JsonRpcError. */
  onRequest(request: IncomingRequest): Promise<unknown>;
  /** Writes one response frame (its JSON text; `meta` says which request it answers, and with what error code). */
  write(text: string, meta: FrameMeta): void;
  /** Where internal failures are reported. */
  log(line: string): void;
  /** The longest the request may run, in ms (0: no limit); past it, it is answered -32001 and aborted. */
  readonly handlerTimeoutMs: number;
  /**
   * Request `id` is over, or no longer answerable: answered, timed out, or its handler returned after it was
   * aborted (`controller` is its own). Called more than once for a request that timed out.
   */
  settled?(id: RequestId, controller: LazyAbort): void;
}

/** Writes one response frame for request `id`; an error response carries its code in the frame's meta. */
function write(side: Answering, id: RequestId | null, text: string, errorCode?: number): void {
  side.write(text, errorCode === undefined ? { kind: 'response', id } : { kind: 'response', id, errorCode });
}

/**
 * Answers request `id` with `result`, or with `error` when there is one. A result that cannot be written (one
 * JSON cannot hold: a BigInt, a cycle, a value nested too deep for JSON.stringify) is logged and answered
 * -32603 instead, so the request still gets its answer.
 */
export function respondSafely(side: Answering, id: RequestId, result: unknown, error?: JsonRpcError): void {
  try {
    if (error) respondError(side, id, error);
    else if (isReusable(result)) side.write(serializeResult(id, result), { kind: 'response', id, utf8: () => encodedResult(id, result) });
    else write(side, id, serializeResult(id, result));
  } catch (err) {
    side.log(`response to ${String(id)} could not be written: ${(err as Error)?.message ?? String(err)}`);
    try {
      respondError(side, id, new JsonRpcError(ErrorCode.InternalError, 'Internal error'));
    } catch (again) {
      // The transport itself fails: nothing can be answered on it.
      side.log(`response to ${String(id)} could not be sent: ${(again as Error)?.message ?? String(again)}`);
    }
  }
}

/** Sends an error response (a protocol error, or a handler's JsonRpcError; its data written as JSON). */
export function respondError(side: Answering, id: RequestId | null, error: JsonRpcError): void {
  write(side, id, serialize(errorResponse(id, error)), error.code);
}

/**
 * Runs request `id` (its abort `controller` made by the caller, who may abort it meanwhile: it is then never
 * answered) and writes its response through `side`.
 */
export function runIncoming(side: Answering, id: RequestId, method: string, params: JsonObject | undefined, controller: LazyAbort): void {
  const limit = side.handlerTimeoutMs;
  const timer =
    limit > 0
      ? setTimeout(() => {
          if (controller.aborted) return;
          const error = new JsonRpcError(ErrorCode.RequestTimeout, `Request timed out after ${limit} ms`);
          respondSafely(side, id, undefined, error);
          controller.abort(error);
          side.settled?.(id, controller);
        }, limit)
      : undefined;
  const done = (result: unknown, error?: JsonRpcError) => {
    clearTimeout(timer);
    if (!controller.aborted) respondSafely(side, id, result, error);
    side.settled?.(id, controller);
  };
  let running: Promise<unknown>;
  try {
    running = side.onRequest(new PeerRequest(id, method, params, controller));
  } catch (err) {
    running = Promise.reject(err);
  }
  running.then(done, (err: unknown) => {
    if (err instanceof JsonRpcError) return done(undefined, err);
    side.log(`request ${method} failed: ${(err as Error)?.stack ?? String(err)}`);
    done(undefined, new JsonRpcError(ErrorCode.InternalError, 'Internal error'));
  });
}
