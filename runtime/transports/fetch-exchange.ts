/**
 * @module transports/fetch-exchange — the HTTP exchange on the web-standard fetch API
 * (https://fetch.spec.whatwg.org/): a `Request` in, a `Promise<Response>` out, as Hono, Bun, Deno and
 * workers serve. The response is decided when the server answers (a whole body) or begins a stream (a
 * `ReadableStream` body whose headers go out at once); the exchange is over when the stream ends, when the
 * client cancels it, or when `request.signal` aborts (the client went away).
 */
import { HttpFailure, type HeaderRecord, type HttpRequest, type HttpResponse, type HttpStream } from './exchange.ts';

/** A fetch `Request` as an HttpRequest. */
export class FetchRequest implements HttpRequest {
  readonly request: Request;
  readonly target: string;
  readonly #url: URL;
  #headers: HeaderRecord | undefined;

  readonly keepAlive: ((work: Promise<unknown>) => void) | undefined;

  /** `waitUntil`: a Worker's `ctx.waitUntil` (HttpRequest.keepAlive). */
  constructor(request: Request, waitUntil?: (work: Promise<unknown>) => void) {
    this.request = request;
    this.keepAlive = waitUntil;
    this.#url = new URL(request.url);
    this.target = this.#url.pathname + this.#url.search;
  }

  get method(): string {
    return this.request.method;
  }

  get headers(): HeaderRecord {
    this.#headers ??= Object.fromEntries(this.request.headers);
    return this.#headers;
  }

  /** Fetch joins a repeated header's values with ", " (https://fetch.spec.whatwg.org/#concept-header-list-get): a comma is taken as a repeat. */
  header(name: string, mayHoldComma = false): string | undefined | null {
    const value = this.request.headers.get(name);
    if (value === null) return undefined;
    if (!mayHoldComma && value.includes(',')) return null;
    return value.trim();
  }

  headerValue(name: string): string | undefined {
    const value = this.request.headers.get(name);
    // A platform may keep Host out of the headers (it is a forbidden request header); the URL carries it.
    if (value === null) return name === 'host' ? this.#url.host : undefined;
    return value;
  }

  body(limit: number, timeoutMs: number): Promise<string> {
    const declared = Number(this.request.headers.get('content-length') ?? undefined);
    if (Number.isFinite(declared) && declared > limit) return Promise.reject(new HttpFailure(413, `Request body larger than ${limit} bytes`));
    if (this.request.bodyUsed)
      return Promise.reject(new Error('The request body was already read: pass the original Request to the fetch handler, before anything reads it'));
    // A declared length within the limit bounds the body (the HTTP framing delivers no more): it is read
    // whole, which a server such as @hono/node-server answers from the socket, without the web stream and the
    // full Request that `request.body` makes it build (about a third of a small request's CPU there).
    if (Number.isFinite(declared)) return withinTime(this.request.text(), timeoutMs);
    const stream = this.request.body;
    if (!stream) return Promise.resolve('');
    const reader = stream.getReader();
    return withinTime(readStream(reader, limit), timeoutMs, () => reader.cancel().catch(() => {}));
  }
}

/**
 * The body `read`, or 408 when it has not arrived within `timeoutMs` (`onTimeout` then stops the reading), or
 * 400 when it could not be read (an HttpFailure of the reading, 413, passes through).
 */
function withinTime(read: Promise<string>, timeoutMs: number, onTimeout?: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new HttpFailure(408, `Request body not received within ${timeoutMs} ms`));
    }, timeoutMs);
    read.then(
      (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof HttpFailure ? err : new HttpFailure(400, 'Request body could not be read'));
      },
    );
  });
}

/** Reads a body stream whole: at most `limit` bytes (413, the stream cancelled). */
function readStream(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const pump = (): void => {
      reader.read().then(({ done, value }) => {
        if (done) {
          // TextDecoder drops a leading BOM (its ignoreBOM is false by default).
          const whole = new Uint8Array(size);
          let at = 0;
          for (const chunk of chunks) whole.set(chunk, (at += chunk.length) - chunk.length);
          return resolve(new TextDecoder().decode(whole));
        }
        size += value.length;
        if (size > limit) {
          reader.cancel().catch(() => {});
          return reject(new HttpFailure(413, `Request body larger than ${limit} bytes`));
        }
        chunks.push(value);
        pump();
      }, reject);
    };
    pump();
  });
}

const encoder = new TextEncoder();

function stringHeaders(headers: Readonly<Record<string, string | number>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name] = String(headers[name]);
  return out;
}

/** Runs `f` after the current turn of the event loop (setImmediate where the platform has it). */
const afterTurn: (f: () => void) => void = typeof setImmediate === 'function' ? (f) => void setImmediate(f) : (f) => void setTimeout(f, 0);

/**
 * The answer to a fetch `Request`: `response` resolves when the server answers or begins a stream. When the
 * client goes away (`signal` aborts) before either, it resolves to an empty 499 (nginx's "client closed
 * request"; nobody reads it) so that no caller waits forever.
 *
 * `signal` may be given as a function, read only if the exchange is still open after the turn it began in:
 * a server may make the signal only when it is read (@hono/node-server makes an AbortController then, a
 * tenth of a small request's CPU there), and an answer given within its first turn never needs it. A client
 * gone meanwhile is noticed then: the signal is read already aborted.
 */
export class FetchResponse implements HttpResponse, HttpStream {
  readonly response: Promise<Response>;
  #resolve!: (response: Response) => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #started = false;
  #over = false;
  readonly #listeners: (() => void)[] = [];

  constructor(signal?: AbortSignal | (() => AbortSignal | undefined)) {
    this.response = new Promise((resolve) => (this.#resolve = resolve));
    if (typeof signal === 'function')
      afterTurn(() => {
        if (!this.#over) this.#watch(signal());
      });
    else this.#watch(signal);
  }

  #watch(signal: AbortSignal | undefined): void {
    if (signal?.aborted) queueMicrotask(() => this.#gone());
    else signal?.addEventListener('abort', () => this.#gone(), { once: true });
  }

  get started(): boolean {
    return this.#started;
  }

  send(status: number, headers: Readonly<Record<string, string | number>>, body?: string | Uint8Array<ArrayBuffer>): void {
    if (this.#started) return;
    this.#started = true;
    this.#resolve(new Response(body ?? null, { status, headers: stringHeaders(headers) }));
    queueMicrotask(() => this.#finish());
  }

  stream(status: number, headers: Readonly<Record<string, string>>): HttpStream {
    this.#started = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.#controller = controller),
        // The consumer stopped reading: the client went away.
        cancel: () => this.#finish(),
      },
      // Counted in bytes, with no high-water mark: desiredSize is minus the bytes not yet read (`queued`).
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.#resolve(new Response(body, { status, headers: { ...headers } }));
    return this;
  }

  write(text: string): void {
    if (this.#over || !this.#controller) return;
    this.#controller.enqueue(encoder.encode(text));
  }

  end(): void {
    if (this.#over || !this.#controller) return;
    this.#controller.close();
    this.#finish();
  }

  get queued(): number {
    return this.#over || !this.#controller ? 0 : -(this.#controller.desiredSize ?? 0);
  }

  abort(): void {
    if (this.#over || !this.#controller) return;
    this.#controller.error(new Error('The client is not reading: the stream was aborted'));
    this.#finish();
  }

  onClose(listener: () => void): void {
    if (this.#over) queueMicrotask(listener);
    else this.#listeners.push(listener);
  }

  /** The client went away. */
  #gone(): void {
    if (!this.#started) {
      this.#started = true;
      this.#resolve(new Response(null, { status: 499 }));
    }
    if (this.#controller && !this.#over)
      try {
        this.#controller.close();
      } catch {
        // Already cancelled by the consumer.
      }
    this.#finish();
  }

  #finish(): void {
    if (this.#over) return;
    this.#over = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}
