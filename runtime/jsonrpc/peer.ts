/**
 * @module jsonrpc/peer — one end of a JSON-RPC 2.0 connection over a Transport: runs incoming requests
 * concurrently (each with an AbortSignal), answers them, never answers notifications, routes responses to
 * the outgoing request they answer, and issues outgoing requests with ids of its own.
 */
import type { FrameMeta, Transport } from '../transports/transport.ts';
import {
  ErrorCode,
  errorResponse,
  idKey,
  JsonRpcError,
  parseFrame,
  response,
  serialize,
  type Incoming,
  type JsonObject,
  type RequestId,
} from './message.ts';

/**
 * An AbortController made only when a handler asks for the signal: most requests never do, and one
 * controller per request is a measurable share of a small request's cost.
 */
class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

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
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** How long an outgoing request waits for its answer by default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export interface IncomingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

export interface PeerOptions {
  /** Answers a request: resolves with the result or throws a JsonRpcError. */
  onRequest(request: IncomingRequest): Promise<unknown>;
  /** Receives a notification (errors it throws are logged, never answered). */
  onNotification?(method: string, params: JsonObject | undefined): void;
  /** Answer a frame that is not JSON with -32700 (JSON-RPC 2.0) instead of silence (the MCP SDK's stdio). Default false. */
  readonly answerParseErrors?: boolean;
  /** Called once when the transport closes (incoming requests keep running and may still answer). */
  onClose?(): void;
  /** Called when an outgoing request is given up (its signal aborted, or it timed out): tell the other side. */
  onAbandon?(id: RequestId, reason: string): void;
  /** Where to report internal failures. Default: stderr. */
  readonly log?: (line: string) => void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

export class Peer {
  readonly #transport: Transport;
  readonly #options: PeerOptions;
  readonly #inflight = new Map<string, LazyAbort>();
  readonly #pending = new Map<string, Pending>();
  #nextId = 1;
  #closed = false;
  #drained: () => void = () => {};
  /** Resolves once the transport has closed and every running request has finished. */
  readonly finished: Promise<void>;

  constructor(transport: Transport, options: PeerOptions) {
    this.#transport = transport;
    this.#options = options;
    this.finished = new Promise((resolve) => (this.#drained = resolve));
    transport.start({
      message: (text, parsed) => this.#receive(text, parsed),
      oversize: (limit) =>
        this.#respond(errorResponse(null, new JsonRpcError(ErrorCode.InvalidRequest, `Invalid Request: message larger than ${limit} bytes`))),
      close: () => this.#onClose(),
    });
  }

  #log(line: string): void {
    (this.#options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  #send(message: unknown, meta?: FrameMeta): void {
    this.#transport.send(serialize(message), meta);
  }

  #respond(message: JsonObject): void {
    const error = message['error'] as { code: number } | undefined;
    const id = message['id'] as RequestId | null;
    this.#send(message, error ? { kind: 'response', id, errorCode: error.code } : { kind: 'response', id });
  }

  #receive(text: string, parsed?: Incoming): void {
    const msg = parsed ?? parseFrame(text, this.#options.answerParseErrors);
    switch (msg.kind) {
      case 'request':
        this.#run(msg.id, msg.method, msg.params);
        return;
      case 'notification':
        try {
          this.#options.onNotification?.(msg.method, msg.params);
        } catch (err) {
          this.#log(`notification ${msg.method} failed: ${(err as Error).stack ?? String(err)}`);
        }
        return;
      case 'response': {
        const pending = msg.id === null ? undefined : this.#pending.get(idKey(msg.id));
        if (!pending) return; // an answer to nothing we asked: ignored
        this.#pending.delete(idKey(msg.id!));
        clearTimeout(pending.timer);
        if (msg.error) pending.reject(new JsonRpcError(msg.error.code, msg.error.message, msg.error.data));
        else pending.resolve(msg.result);
        return;
      }
      case 'invalid':
        this.#respond(errorResponse(msg.id, msg.error));
        return;
      case 'ignored':
        return;
    }
  }

  #run(id: RequestId, method: string, params: JsonObject | undefined): void {
    const key = idKey(id);
    const controller = new LazyAbort();
    this.#inflight.set(key, controller);
    const done = (message: JsonObject) => {
      if (this.#inflight.get(key) === controller) this.#inflight.delete(key);
      if (!controller.aborted) this.#respond(message);
      this.#maybeDrained();
    };
    this.#options
      .onRequest({
        id,
        method,
        params,
        get signal() {
          return controller.signal;
        },
      })
      .then(
        (result) => done(response(id, result)),
        (err: unknown) => {
          if (err instanceof JsonRpcError) return done(errorResponse(id, err));
          this.#log(`request ${method} failed: ${(err as Error)?.stack ?? String(err)}`);
          done(errorResponse(id, new JsonRpcError(ErrorCode.InternalError, 'Internal error')));
        },
      );
  }

  /** Ids of the incoming requests still running. */
  get running(): number {
    return this.#inflight.size;
  }

  /** Stops a running incoming request: its signal aborts and no response is sent. */
  cancelIncoming(id: RequestId): boolean {
    const controller = this.#inflight.get(idKey(id));
    if (!controller) return false;
    this.#inflight.delete(idKey(id));
    controller.abort(new JsonRpcError(ErrorCode.InvalidRequest, 'Request cancelled'));
    this.#maybeDrained();
    return true;
  }

  /** Sends a request to the other side and waits for its result (a JsonRpcError when it answers with one). */
  /** Reserves the id the next request will carry (callers that must know it first, e.g. as a progress token). */
  reserveId(): number {
    return this.#nextId++;
  }

  request(
    method: string,
    params: JsonObject | undefined,
    options: { signal?: AbortSignal; timeoutMs?: number; relatedTo?: RequestId; id?: RequestId } = {},
  ): Promise<unknown> {
    if (this.#closed) return Promise.reject(new JsonRpcError(ErrorCode.InternalError, 'Connection closed'));
    const id = options.id ?? this.#nextId++;
    const key = idKey(id);
    return new Promise((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const fail = (error: Error) => {
        if (!this.#pending.delete(key)) return;
        clearTimeout(entry.timer);
        if (!this.#closed) this.#options.onAbandon?.(id, error.message);
        reject(error);
      };
      const entry: Pending = {
        resolve,
        reject,
        timer:
          timeoutMs > 0
            ? setTimeout(() => fail(new JsonRpcError(ErrorCode.RequestTimeout, `Request ${method} timed out after ${timeoutMs} ms`)), timeoutMs)
            : undefined,
      };
      this.#pending.set(key, entry);
      options.signal?.addEventListener('abort', () => fail(new JsonRpcError(ErrorCode.InternalError, `Request ${method} was abandoned`)), {
        once: true,
      });
      const meta: FrameMeta = options.relatedTo === undefined ? { kind: 'request', id } : { kind: 'request', id, relatedTo: options.relatedTo };
      this.#send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }, meta);
    });
  }

  /** Sends a notification; `relatedTo` names the incoming request it was produced for, if any. */
  notify(method: string, params?: JsonObject, relatedTo?: RequestId): void {
    if (this.#closed && !this.#inflight.size) return;
    const meta: FrameMeta = relatedTo === undefined ? { kind: 'notification' } : { kind: 'notification', relatedTo };
    this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, meta);
  }

  /** Closes the transport; waiting outgoing requests are rejected, running incoming requests still finish. */
  close(): void {
    this.#transport.close();
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [key, p] of this.#pending) {
      this.#pending.delete(key);
      clearTimeout(p.timer);
      p.reject(new JsonRpcError(ErrorCode.InternalError, 'Connection closed'));
    }
    this.#options.onClose?.();
    this.#maybeDrained();
  }

  #maybeDrained(): void {
    if (this.#closed && this.#inflight.size === 0) this.#drained();
  }
}
