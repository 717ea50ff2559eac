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

  /** Adds text; returns the events it completed. */
  push(text: string): SseEvent[] {
    this.#buffer += text;
    const out: SseEvent[] = [];
    let nl: number;
    while ((nl = this.#buffer.indexOf('\n')) >= 0) {
      const line = this.#buffer.slice(0, nl).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(nl + 1);
      if (line !== '') this.#field(line);
      else if (this.#seen) out.push(this.#take());
    }
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
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncIterable<SseEvent> {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) yield* parser.push(decoder.decode(chunk, { stream: true }));
  const last = parser.pending();
  if (last) yield last;
}
