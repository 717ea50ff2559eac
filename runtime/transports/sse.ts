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

export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncIterable<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let retryMs: number | undefined;
  let seen = false;
  const take = (): SseEvent => {
    const event: SseEvent = { data: data.join('\n'), ...(id !== undefined ? { id } : {}), ...(retryMs !== undefined ? { retryMs } : {}) };
    data = [];
    id = retryMs = undefined;
    seen = false;
    return event;
  };
  const field = (line: string): void => {
    const colon = line.indexOf(':');
    if (colon === 0) return; // a comment
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') data.push(value);
    else if (name === 'id') id = value.trim();
    else if (name === 'retry' && /^\d+$/.test(value.trim())) retryMs = Number(value.trim());
    else return;
    seen = true;
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line !== '') field(line);
      else if (seen) yield take();
    }
  }
  // A line cut off by the end of the stream is dropped (it may be half a JSON text); complete lines with
  // no blank line after them still make an event, more lenient than the format, which drops them too.
  if (seen) yield take();
}
