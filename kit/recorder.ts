/**
 * @module kit/recorder — a fetch that records every exchange a scenario makes: the request as written
 * (URL with the written address, body), the response status, headers and body, and for an event stream
 * every frame, as the client consumed them, and who closed it. Webhook receptions are added as exchanges
 * too. The record is turned into the `.http` transcript by kit/transcript.ts.
 */
import { SseParser } from '../runtime/transports/sse.ts';
import type { Reception } from './webhooks.ts';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string | undefined;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body; undefined for an event stream. */
  readonly body: string | undefined;
  /** An event stream's frames (the `data:` of each event), once it has ended. */
  frames?: string[];
  /** Who ended the event stream: the server (end of body), the client (it stopped reading) or an error. */
  closedBy?: 'server' | 'client' | 'error';
}

export interface Exchange {
  readonly n: number;
  readonly title: string;
  readonly notes: readonly string[];
  /** Sent by the scenario's client (`out`), or received by the kit's webhook receiver (`in`). */
  readonly direction: 'out' | 'in';
  readonly request: RecordedRequest;
  response?: RecordedResponse;
  failure?: string;
}

/** The `data:` payloads of the complete events in an SSE text (an unfinished last event is left out). */
export function sseFrames(text: string): string[] {
  return new SseParser()
    .push(text)
    .filter((e) => e.data !== '')
    .map((e) => e.data);
}

/** Responses that cannot have a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

export class Recorder {
  readonly #inner: typeof fetch;
  readonly #exchanges: Exchange[] = [];
  readonly #open = new Set<Promise<void>>();
  #title: string | undefined;
  #notes: string[] = [];

  constructor(inner: typeof fetch) {
    this.#inner = inner;
  }

  /** Titles the next exchange (and adds notes to it); later ones default to their method or route. */
  step(title: string, ...notes: string[]): void {
    this.#title = title;
    this.#notes = notes;
  }

  get exchanges(): readonly Exchange[] {
    return this.#exchanges;
  }

  /** Resolves when every event stream recorded so far has ended. */
  async settled(): Promise<void> {
    while (this.#open.size) await Promise.all([...this.#open]);
  }

  /** A new exchange: an outgoing one takes the pending step's title and notes, a reception its own title. */
  #next(direction: Exchange['direction'], request: RecordedRequest, receptionTitle?: string): Exchange {
    const title = receptionTitle ?? this.#title ?? defaultTitle(request);
    const exchange: Exchange = { n: this.#exchanges.length + 1, title, notes: direction === 'out' ? this.#notes : [], direction, request };
    if (direction === 'out') {
      this.#title = undefined;
      this.#notes = [];
    }
    this.#exchanges.push(exchange);
    return exchange;
  }

  /** A webhook delivery the receiver got (the agent's POST and the receiver's 200). */
  received(reception: Reception, writtenOrigin: string, title: string): void {
    const headers = new Headers();
    for (const [k, v] of Object.entries(reception.headers)) if (typeof v === 'string') headers.set(k, v);
    const exchange = this.#next('in', { method: reception.method, url: writtenOrigin + reception.path, headers, body: reception.body }, title);
    exchange.response = { status: 200, headers: new Headers(), body: '' };
  }

  readonly fetch: typeof fetch = async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = typeof init.body === 'string' ? init.body : undefined;
    const exchange = this.#next('out', { method: init.method ?? 'GET', url, headers: new Headers(init.headers), body });
    let res: Response;
    try {
      res = await this.#inner(url, init);
    } catch (err) {
      exchange.failure = (err as Error).message;
      throw err;
    }
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream') && res.body) return this.#stream(exchange, res);
    const text = await res.text();
    exchange.response = { status: res.status, headers: res.headers, body: text };
    return new Response(NULL_BODY.has(res.status) ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  /** Passes the stream through to the client, keeping what the client reads. */
  #stream(exchange: Exchange, res: Response): Response {
    const response: RecordedResponse = { status: res.status, headers: res.headers, body: undefined };
    exchange.response = response;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let finish: (by: NonNullable<RecordedResponse['closedBy']>) => void = () => {};
    this.#track(
      new Promise<void>((resolve) => {
        finish = (by) => {
          if (response.closedBy) return;
          response.closedBy = by;
          response.frames = sseFrames(text);
          resolve();
        };
      }),
    );
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let r: Awaited<ReturnType<typeof reader.read>>;
        try {
          r = await reader.read();
        } catch (err) {
          finish('error');
          controller.error(err);
          return;
        }
        if (r.done) {
          finish('server');
          controller.close();
          return;
        }
        text += decoder.decode(r.value, { stream: true });
        controller.enqueue(r.value);
      },
      async cancel(reason) {
        finish('client');
        await reader.cancel(reason).catch(() => undefined);
      },
    });
    return new Response(stream, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  #track(p: Promise<void>): void {
    this.#open.add(p);
    void p.then(() => this.#open.delete(p));
  }
}

/** A JSON-RPC request's method, else the verb and path. */
function defaultTitle(request: RecordedRequest): string {
  try {
    const method = (JSON.parse(request.body ?? '') as { method?: unknown }).method;
    if (typeof method === 'string') return method;
  } catch {
    // not JSON: fall through
  }
  return `${request.method} ${new URL(request.url).pathname}`;
}
