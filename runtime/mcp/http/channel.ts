/**
 * @module mcp/http/channel — how the frames of one MCP connection reach HTTP answers (Streamable HTTP,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): each JSON-RPC request POSTed is
 * an `Exchange` waiting for its response, answered as one JSON body, or as Server-Sent Events once a frame
 * related to the request comes first; frames tied to no open request go to the session's GET stream.
 */
import type { AuthInfo } from '../../auth/info.ts';
import { idKey, type Incoming, type RequestId } from '../../jsonrpc/message.ts';
import { sendJson, SseStream, type HttpResponse, type SseLimits } from '../../transports/exchange.ts';
import type { FrameMeta, Transport, TransportSink } from '../../transports/transport.ts';
import type { ReplayLog } from './resume.ts';

export const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** One HTTP request waiting for the response to one JSON-RPC request. */
export class Exchange {
  readonly #res: HttpResponse;
  readonly #headers: Record<string, string>;
  readonly #statusFor: (code: number | undefined) => number;
  readonly #keepAliveMs: number;
  readonly #successHeaders: Record<string, string>;
  readonly #limits: SseLimits;
  /** The session's replay log when its streams are resumable (resume.ts). */
  readonly #log: ReplayLog | undefined;
  #sse: SseStream | undefined;
  /** This exchange's stream in the replay log, once its SSE answer began. */
  #streamNo: number | undefined;
  /** Its SSE stream ended before the response (polling, or the client went away): events are only recorded. */
  #detached = false;
  done = false;
  /** Made when first asked for (`finished`): most exchanges are never. */
  #finished: { readonly promise: Promise<void>; resolve(): void } | undefined;
  /** The verified token of the HTTP request this exchange answers (RequestContext.auth), if any. */
  auth: AuthInfo | undefined;

  /**
   * `successHeaders` go only on a result (the session id of a successful initialize); `limits` bound its SSE
   * queue; with `log`, its SSE answer is resumable.
   */
  constructor(
    res: HttpResponse,
    headers: Record<string, string>,
    statusFor: (code: number | undefined) => number,
    keepAliveMs: number,
    successHeaders: Record<string, string> = NO_HEADERS,
    limits: SseLimits = {},
    log?: ReplayLog,
  ) {
    this.#res = res;
    this.#limits = limits;
    this.#headers = headers;
    this.#successHeaders = successHeaders;
    this.#statusFor = statusFor;
    this.#keepAliveMs = keepAliveMs;
    this.#log = log;
  }

  /** Resolved when the response is given (`finish`), whether or not its stream was still attached. */
  get finished(): Promise<void> {
    if (this.done) return Promise.resolve();
    if (!this.#finished) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#finished = { promise, resolve };
    }
    return this.#finished.promise;
  }

  get streamNo(): number | undefined {
    return this.#streamNo;
  }

  /** Switches the response to SSE (at the first notification, or at once for a stream); resumable: primed. */
  stream(): SseStream {
    if (!this.#sse) {
      this.#sse = new SseStream(this.#res, 200, this.#headers, this.#keepAliveMs, this.#limits);
      if (this.#log) {
        const { stream, primingId } = this.#log.open();
        this.#streamNo = stream;
        this.#sse.prime(primingId, this.#log.retryMs);
      }
    }
    return this.#sse;
  }

  event(text: string, meta?: FrameMeta): void {
    const sse = this.#detached ? undefined : this.stream();
    const id = this.#streamNo === undefined ? undefined : this.#log!.record(this.#streamNo, text);
    sse?.event(text, id, meta);
  }

  /** The answer `text` (`utf8`: its bytes, where they were kept, FrameMeta.utf8), as JSON or the last SSE event. */
  finish(text: string, errorCode: number | undefined, utf8?: () => Uint8Array<ArrayBuffer>): void {
    this.done = true;
    this.#finished?.resolve();
    if (this.#sse) {
      this.event(text);
      if (!this.#detached) this.#sse.end();
    } else
      sendJson(
        this.#res,
        this.#statusFor(errorCode),
        text,
        errorCode === undefined && this.#successHeaders !== NO_HEADERS ? { ...this.#headers, ...this.#successHeaders } : this.#headers,
        utf8?.(),
      );
  }

  /**
   * Ends the SSE answer but not the request (ctx.closeStream), when it is resumable: opened (primed) first if
   * it was not, so the client has an id to come back with. False, and nothing done, otherwise.
   */
  detach(): boolean {
    if (!this.#log || this.done) return false;
    if (this.#detached) return true;
    const sse = this.stream();
    this.#detached = true;
    sse.end();
    return true;
  }

  /** The client went away: a resumable SSE answer waits for a reconnect (true); anything else is over (false). */
  lost(): boolean {
    if (this.#streamNo === undefined || this.done) return false;
    this.#detached = true;
    return true;
  }

  /** A reconnect with Last-Event-ID of this stream: `events` replayed on `sse`, then the rest of the answer. */
  attach(sse: SseStream, events: readonly { id: string; text: string }[]): void {
    for (const e of events) sse.event(e.text, e.id);
    this.#sse = sse;
    this.#detached = false;
  }
}

/** The transport of one connection: frames in from POST bodies, frames out to the exchange they belong to. */
export class HttpChannel implements Transport {
  #sink: TransportSink | undefined;
  readonly exchanges = new Map<string, Exchange>();
  /** The session's GET stream, for frames tied to no request. */
  stream: SseStream | undefined;
  /** With resumability: the session's replay log, and the GET stream's number in it. */
  log: ReplayLog | undefined;
  streamNo: number | undefined;
  onIdle: (() => void) | undefined;

  /** A new GET stream (`sse`), primed when resumable. */
  openStream(sse: SseStream): void {
    this.stream = sse;
    if (!this.log) return;
    const { stream, primingId } = this.log.open();
    this.streamNo = stream;
    sse.prime(primingId, this.log.retryMs);
  }

  /**
   * A GET with `Last-Event-ID`: the events of the stream it names after it, on the stream `open` begins, then
   * that stream goes on there (a request still running, or the GET stream) or ends (a request answered
   * meanwhile). Returns the request's exchange when one goes on, 'stream' for the GET stream, 'ended', or
   * undefined (nothing to resume: unknown id, or its events no longer kept) with nothing opened.
   */
  resume(lastEventId: string, open: () => SseStream): Exchange | 'stream' | 'ended' | undefined {
    const found = this.log?.after(lastEventId);
    if (!found) return undefined;
    const exchange = [...this.exchanges.values()].find((e) => e.streamNo === found.stream);
    if (found.stream === this.streamNo && this.stream && !this.stream.closed) return undefined;
    const sse = open();
    if (exchange) {
      exchange.attach(sse, found.events);
      return exchange;
    }
    for (const e of found.events) sse.event(e.text, e.id);
    if (found.stream === this.streamNo) {
      this.stream = sse;
      return 'stream';
    }
    sse.end();
    return 'ended';
  }

  closeStream(relatedTo: RequestId): void {
    this.exchanges.get(idKey(relatedTo))?.detach();
  }

  /** The token of the POST that carries request `id` (its exchange's), while it is delivered. */
  authOf(id: RequestId): AuthInfo | undefined {
    return this.exchanges.get(idKey(id))?.auth;
  }

  start(sink: TransportSink): void {
    this.#sink = sink;
  }

  deliver(text: string, parsed?: Incoming): void {
    this.#sink?.message(text, parsed);
  }

  send(text: string, meta?: FrameMeta): void {
    if (meta?.kind === 'response') {
      const key = meta.id === null || meta.id === undefined ? undefined : idKey(meta.id);
      const exchange = key === undefined ? undefined : this.exchanges.get(key);
      if (!exchange) return;
      this.exchanges.delete(key!);
      exchange.finish(text, meta.errorCode, meta.utf8);
      if (this.exchanges.size === 0) this.onIdle?.();
      return;
    }
    const exchange = meta?.relatedTo === undefined ? undefined : this.exchanges.get(idKey(meta.relatedTo));
    if (exchange && !exchange.done) return exchange.event(text, meta);
    const id = this.streamNo === undefined ? undefined : this.log!.record(this.streamNo, text);
    if (this.stream && !this.stream.closed) this.stream.event(text, id, meta);
  }

  close(): void {
    this.#sink?.close();
    this.#sink = undefined;
  }
}
