/**
 * @module jsonrpc/peer — one end of a JSON-RPC 2.0 connection over a Transport: runs incoming requests
 * concurrently (each with an AbortSignal), answers them, never answers notifications, routes responses to
 * the outgoing request they answer, and issues outgoing requests with ids of its own.
 */
import type { FrameMeta, Transport } from '../transports/transport.ts';
import { type Answering, type IncomingRequest, LazyAbort, notificationFrame, respondError, runIncoming } from './incoming.ts';
import { ErrorCode, idKey, JsonRpcError, parseFrame, serialize, type Incoming, type JsonObject, type RequestId } from './message.ts';
import { stderrLine } from './stderr.ts';

export { DROPPABLE_NOTIFICATIONS, type IncomingRequest } from './incoming.ts';

/** How long an outgoing request waits for its answer by default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The key of an incoming request in the running ones: a safe-integer id as itself (a Map tells 1 from "1",
 * and no string is made per request), any other (a string, a WideId beyond 2^53) as idKey writes it.
 */
const inflightKey = (id: RequestId): string | number => (typeof id === 'number' && Number.isSafeInteger(id) ? id : idKey(id));

export interface PeerOptions {
  /** Answers a request: resolves with the result or throws a JsonRpcError. */
  onRequest(request: IncomingRequest): Promise<unknown>;
  /** Receives a notification (errors it throws are logged, never answered). */
  onNotification?(method: string, params: JsonObject | undefined): void;
  /** Answer a frame that is not JSON with -32700 (JSON-RPC 2.0) instead of silence (the MCP SDK's stdio). Default false. */
  readonly answerParseErrors?: boolean;
  /**
   * Called once when the transport closes (incoming requests keep running and may still answer; when the
   * transport failed, e.g. its outbound queue overflowed, they are aborted instead).
   */
  onClose?(): void;
  /** Called when an outgoing request is given up (its signal aborted, or it timed out): tell the other side. */
  onAbandon?(id: RequestId, reason: string): void;
  /**
   * Called when the transport dropped a frame over its size limit, instead of answering the other side -32600
   * with id null (a client sets it: the dropped frame may be the answer it waits for). Default none.
   */
  onOversize?(limit: number): void;
  /** Where to report internal failures. Default: stderr. */
  readonly log?: (line: string) => void;
  /** Notifications marked droppable for the transport. Default: DROPPABLE_NOTIFICATIONS. */
  readonly droppableNotifications?: ReadonlySet<string>;
  /**
   * The longest an incoming request may run, in ms: past it, its signal aborts and it is answered -32001
   * ("Request timed out"); whatever the handler returns later is dropped. A handler that never yields cannot be
   * stopped this way (it holds the event loop). Default 0: no limit.
   */
  readonly handlerTimeoutMs?: number;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

export class Peer {
  readonly #transport: Transport;
  readonly #options: PeerOptions;
  readonly #inflight = new Map<string | number, LazyAbort>();
  /** Outgoing requests waiting for their answer; made at the first (a server's connection seldom sends any). */
  #waiting: Map<string, Pending> | undefined;
  #nextId = 1;
  #closed = false;
  #drained: () => void = () => {};
  /** Resolves once the transport has closed and every running request has finished. */
  readonly finished: Promise<void>;
  /** How this peer's incoming requests are run and answered (incoming.ts). */
  readonly #answering: Answering;

  constructor(transport: Transport, options: PeerOptions) {
    this.#transport = transport;
    this.#options = options;
    this.finished = new Promise((resolve) => (this.#drained = resolve));
    this.#answering = new Peer.#Answers(this, options.handlerTimeoutMs ?? 0);
    transport.start({
      message: (text, parsed) => {
        // Nothing one frame holds may take the connection down: a failure here is logged, and serving goes on.
        try {
          this.#receive(text, parsed);
        } catch (err) {
          this.#log(`incoming frame failed: ${(err as Error)?.stack ?? String(err)}`);
        }
      },
      oversize: (limit) => {
        if (options.onOversize) return options.onOversize(limit);
        respondError(this.#answering, null, new JsonRpcError(ErrorCode.InvalidRequest, `Invalid Request: message larger than ${limit} bytes`));
      },
      close: (reason) => this.#onClose(reason),
    });
  }

  /**
   * How the peer's incoming requests are answered (incoming.ts Answering, whose methods runIncoming calls on
   * it): prototype methods rather than an object literal of closures, since a connection holds it for as
   * long as it is open (a held subscriptions/listen stream is a connection).
   */
  static readonly #Answers = class implements Answering {
    readonly #peer: Peer;
    readonly handlerTimeoutMs: number;

    constructor(peer: Peer, handlerTimeoutMs: number) {
      this.#peer = peer;
      this.handlerTimeoutMs = handlerTimeoutMs;
    }

    onRequest(req: IncomingRequest): Promise<unknown> {
      return this.#peer.#options.onRequest(req);
    }

    write(text: string, meta: FrameMeta): void {
      this.#peer.#transport.send(text, meta);
    }

    log(line: string): void {
      this.#peer.#log(line);
    }

    settled(id: RequestId, controller: LazyAbort): void {
      const peer = this.#peer;
      const key = inflightKey(id);
      if (peer.#inflight.get(key) === controller) peer.#inflight.delete(key);
      peer.#maybeDrained();
    }
  };

  #log(line: string): void {
    (this.#options.log ?? stderrLine)(line);
  }

  #send(message: unknown, meta?: FrameMeta): void {
    this.#transport.send(serialize(message), meta);
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
        const pending = msg.id === null ? undefined : this.#waiting?.get(idKey(msg.id));
        if (!pending) return; // an answer to nothing we asked: ignored
        this.#waiting!.delete(idKey(msg.id!));
        clearTimeout(pending.timer);
        if (msg.error) pending.reject(new JsonRpcError(msg.error.code, msg.error.message, msg.error.data));
        else pending.resolve(msg.result);
        return;
      }
      case 'invalid':
        respondError(this.#answering, msg.id, msg.error);
        return;
      case 'ignored':
        return;
    }
  }

  #run(id: RequestId, method: string, params: JsonObject | undefined): void {
    const controller = new LazyAbort();
    this.#inflight.set(inflightKey(id), controller);
    runIncoming(this.#answering, id, method, params, controller);
  }

  /** Ids of the incoming requests still running. */
  get running(): number {
    return this.#inflight.size;
  }

  /** Stops a running incoming request: its signal aborts and no response is sent. */
  cancelIncoming(id: RequestId): boolean {
    const key = inflightKey(id);
    const controller = this.#inflight.get(key);
    if (!controller) return false;
    this.#inflight.delete(key);
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
        if (!this.#waiting?.delete(key)) return;
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
      (this.#waiting ??= new Map()).set(key, entry);
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
    const { text, meta } = notificationFrame(method, params, relatedTo, this.#options.droppableNotifications);
    this.#transport.send(text, meta);
  }

  /** Rejects every outgoing request still waiting with `error` (the connection stays open). */
  failPending(error: Error): void {
    if (this.#waiting)
      for (const [key, p] of this.#waiting) {
        this.#waiting.delete(key);
        clearTimeout(p.timer);
        p.reject(error);
      }
  }

  /** Closes the transport; waiting outgoing requests are rejected, running incoming requests still finish. */
  close(): void {
    this.#transport.close();
  }

  /** The transport closed; with a `reason` it failed (it cannot write any more), so running requests are aborted. */
  #onClose(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    if (reason !== undefined) {
      this.#log(`connection closed: ${reason}`);
      for (const [key, controller] of this.#inflight) {
        this.#inflight.delete(key);
        controller.abort(new JsonRpcError(ErrorCode.InternalError, `Connection closed: ${reason}`));
      }
    }
    if (this.#waiting)
      for (const [key, p] of this.#waiting) {
        this.#waiting.delete(key);
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
