/**
 * @module mcp/http-channel — how the frames of one MCP connection reach HTTP answers (Streamable HTTP,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): each JSON-RPC request POSTed is
 * an `Exchange` waiting for its response, answered as one JSON body, or as Server-Sent Events once a frame
 * related to the request comes first; frames tied to no open request go to the session's GET stream.
 */
import { idKey, type Incoming } from '../jsonrpc/message.ts';
import { sendJson, SseStream, type HttpResponse, type SseLimits } from '../transports/exchange.ts';
import type { FrameMeta, Transport, TransportSink } from '../transports/transport.ts';

export const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** One HTTP request waiting for the response to one JSON-RPC request. */
export class Exchange {
  readonly #res: HttpResponse;
  readonly #headers: Record<string, string>;
  readonly #statusFor: (code: number | undefined) => number;
  readonly #keepAliveMs: number;
  readonly #successHeaders: Record<string, string>;
  readonly #limits: SseLimits;
  #sse: SseStream | undefined;
  done = false;

  /** `successHeaders` go only on a result (the session id of a successful initialize); `limits` bound its SSE queue. */
  constructor(
    res: HttpResponse,
    headers: Record<string, string>,
    statusFor: (code: number | undefined) => number,
    keepAliveMs: number,
    successHeaders: Record<string, string> = NO_HEADERS,
    limits: SseLimits = {},
  ) {
    this.#res = res;
    this.#limits = limits;
    this.#headers = headers;
    this.#successHeaders = successHeaders;
    this.#statusFor = statusFor;
    this.#keepAliveMs = keepAliveMs;
  }

  /** Switches the response to SSE (at the first notification, or at once for a stream). */
  stream(): SseStream {
    this.#sse ??= new SseStream(this.#res, 200, this.#headers, this.#keepAliveMs, this.#limits);
    return this.#sse;
  }

  event(text: string, meta?: FrameMeta): void {
    this.stream().event(text, undefined, meta);
  }

  finish(text: string, errorCode: number | undefined): void {
    this.done = true;
    if (this.#sse) {
      this.#sse.event(text);
      this.#sse.end();
    } else
      sendJson(
        this.#res,
        this.#statusFor(errorCode),
        text,
        errorCode === undefined && this.#successHeaders !== NO_HEADERS ? { ...this.#headers, ...this.#successHeaders } : this.#headers,
      );
  }
}

/** The transport of one connection: frames in from POST bodies, frames out to the exchange they belong to. */
export class HttpChannel implements Transport {
  #sink: TransportSink | undefined;
  readonly exchanges = new Map<string, Exchange>();
  /** The session's GET stream, for frames tied to no request. */
  stream: SseStream | undefined;
  onIdle: (() => void) | undefined;

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
      exchange.finish(text, meta.errorCode);
      if (this.exchanges.size === 0) this.onIdle?.();
      return;
    }
    const exchange = meta?.relatedTo === undefined ? undefined : this.exchanges.get(idKey(meta.relatedTo));
    if (exchange && !exchange.done) exchange.event(text, meta);
    else if (this.stream && !this.stream.closed) this.stream.event(text, undefined, meta);
  }

  close(): void {
    this.#sink?.close();
    this.#sink = undefined;
  }
}
