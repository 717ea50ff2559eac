/**
 * Reading a `text/event-stream` body (the WHATWG event-stream format): one event per blank line, `data:`
 * lines joined with newlines, `id:` and `retry:` carried with the event. Shared by the MCP client's HTTP
 * channel and the A2A client's streaming calls; the server side writes frames in http.ts (SseStream).
 */
export interface SseEvent {
  /** The joined `data:` lines; '' for an event with no data (e.g. a priming event that only sets an id). */
  readonly data: string;
  /** The `id:` of this event, if it had one. */
  readonly id?: string;
  /** The `retry:` reconnection hint in milliseconds, if the event had a valid one. */
  readonly retryMs?: number;
}

/** What reading an event stream may hold at once. */
export interface SseLimits {
  /**
   * Most characters one event may take (its lines, data joined, comments and a line still arriving included):
   * past it the parser throws an SseLimitError instead of buffering on. Default unbounded.
   */
  readonly maxEventChars?: number;
  /** Refuse bytes that are not UTF-8 (a TypeError from TextDecoder) instead of replacing them with U+FFFD. Default false. */
  readonly fatalUtf8?: boolean;
}

/** An event (or a line of one) larger than SseLimits.maxEventChars. */
export class SseLimitError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`an event-stream event is larger than ${limit} characters`);
    this.name = 'SseLimitError';
    this.limit = limit;
  }
}

/**
 * The event-stream parser: text in (any chunking), complete events out. `pending()` is the event whose
 * lines have all arrived but whose closing blank line has not; a line cut off mid-way is never used.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #id: string | undefined;
  #retryMs: number | undefined;
  #seen = false;
  /** Characters of the event being read, in lines already taken from the buffer. */
  #size = 0;
  readonly #max: number;

  constructor(limits: SseLimits = {}) {
    this.#max = limits.maxEventChars ?? Number.POSITIVE_INFINITY;
  }

  /** Adds text; returns the events it completed (throws SseLimitError past maxEventChars). */
  push(text: string): SseEvent[] {
    this.#buffer += text;
    const out: SseEvent[] = [];
    let nl: number;
    let start = 0;
    while ((nl = this.#buffer.indexOf('\n', start)) >= 0) {
      const line = this.#buffer.slice(start, nl).replace(/\r$/, '');
      start = nl + 1;
      this.#size += line.length + 1;
      if (this.#size > this.#max) throw new SseLimitError(this.#max);
      if (line !== '') this.#field(line);
      else {
        this.#size = 0;
        if (this.#seen) out.push(this.#take());
      }
    }
    this.#buffer = this.#buffer.slice(start);
    if (this.#size + this.#buffer.length > this.#max) throw new SseLimitError(this.#max);
    return out;
  }

  /** The event of complete lines still waiting for its blank line, if any. */
  pending(): SseEvent | undefined {
    return this.#seen ? this.#take() : undefined;
  }

  #take(): SseEvent {
    const event: SseEvent = {
      data: this.#data.join('\n'),
      ...(this.#id !== undefined ? { id: this.#id } : {}),
      ...(this.#retryMs !== undefined ? { retryMs: this.#retryMs } : {}),
    };
    this.#data = [];
    this.#id = this.#retryMs = undefined;
    this.#seen = false;
    return event;
  }

  #field(line: string): void {
    const colon = line.indexOf(':');
    if (colon === 0) return; // a comment
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') this.#data.push(value);
    else if (name === 'id') this.#id = value.trim();
    else if (name === 'retry' && /^\d+$/.test(value.trim())) this.#retryMs = Number(value.trim());
    else return;
    this.#seen = true;
  }
}

/**
 * The events of an SSE body. A line cut off by the end of the stream is dropped (it may be half a JSON
 * text); complete lines with no blank line after them still make an event, more lenient than the format.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>, limits: SseLimits = {}): AsyncIterable<SseEvent> {
  const decoder = new TextDecoder('utf-8', { fatal: limits.fatalUtf8 === true });
  const parser = new SseParser(limits);
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) yield* parser.push(decoder.decode(chunk, { stream: true }));
  parser.push(decoder.decode());
  const last = parser.pending();
  if (last) yield last;
}
