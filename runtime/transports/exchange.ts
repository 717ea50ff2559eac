/**
 * @module transports/exchange — the transport-neutral HTTP exchange the MCP and A2A HTTP servers are written
 * against: what they read of a request (method, target, headers, a bounded body) and how they answer (a whole
 * response, or a stream of text such as Server-Sent Events, and a signal when the exchange is over). One
 * implementation per way of being served: node:http (`node-exchange.ts`, also Express) and the web-standard
 * fetch API (`fetch-exchange.ts`), so the servers decide every status, header and body in one place.
 * Plus the rules every binding applies the same way: DNS-rebinding checks (Origin, Host), Accept and
 * Content-Type matching, JSON answers and the SSE writer.
 */
import { admitFrame, OUTBOUND_DEFAULTS, type FrameMeta, type OutboundLimits } from './transport.ts';
import { stderrLine } from '../jsonrpc/stderr.ts';

/** A failure to answer at the HTTP level, before any JSON-RPC processing (413, 408, 400 for an unreadable body). */
export class HttpFailure extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Request headers as node:http presents them (lower-case names); what an `authenticate` callback reads. */
export type HeaderRecord = Readonly<Record<string, string | string[] | undefined>>;

/** What a server reads of one HTTP request. */
export interface HttpRequest {
  readonly method: string;
  /** The request target in origin form, as received: path and query (`/mcp?x=1`). */
  readonly target: string;
  /**
   * The one value of header `name` (lower case), trimmed: `undefined` when absent, `null` when repeated.
   * Where the platform joins repeated headers into one value (the fetch API does, with ", "), a comma means
   * repeated unless `mayHoldComma` says the header's values can contain one (then a repeat is not seen).
   */
  header(name: string, mayHoldComma?: boolean): string | undefined | null;
  /** The value of header `name` (lower case) as the platform gives it (repeats joined, or the first kept); `undefined` when absent. */
  headerValue(name: string): string | undefined;
  /** Every header, as node:http presents them. */
  readonly headers: HeaderRecord;
  /**
   * The body as UTF-8 text (a leading BOM dropped): at most `limit` bytes (HttpFailure 413 beyond, without
   * reading the rest), all of it within `timeoutMs` (HttpFailure 408 otherwise).
   */
  body(limit: number, timeoutMs: number): Promise<string>;
  /**
   * Keeps `work` of this request running after its answer ended, where the platform ends a request's work with
   * its response (a Cloudflare Worker's `ctx.waitUntil`); absent where work goes on anyway (Node, Bun, Deno).
   */
  readonly keepAlive?: ((work: Promise<unknown>) => void) | undefined;
}

/** An answer being written. */
export interface HttpStream {
  /** Sends `text` at once (nothing happens once the exchange is over). */
  write(text: string): void;
  /** Ends the answer. */
  end(): void;
  /** Bytes written that the client has not taken yet (the stream's outbound queue). */
  readonly queued: number;
  /** Ends the answer abruptly (the connection is dropped): the client is not reading and nothing more can go. */
  abort(): void;
}

/** How a server answers one HTTP request. */
export interface HttpResponse {
  /** Whether the status line is decided (a whole answer was sent, or a stream began). */
  readonly started: boolean;
  /** A whole answer; the headers are sent as given (callers add content-length, `sendJson` does). */
  send(status: number, headers: Readonly<Record<string, string | number>>, body?: string | Uint8Array<ArrayBuffer>): void;
  /** Begins a streamed answer: the status and headers go out at once, the body as it is written. */
  stream(status: number, headers: Readonly<Record<string, string>>): HttpStream;
  /** Ends an answer that has started (a stream); a no-op otherwise. */
  end(): void;
  /** Runs `listener` once, when the exchange is over: the answer has gone out, or the client went away first. */
  onClose(listener: () => void): void;
}

/** The UTF-8 length of `text` (Buffer where the platform has one: faster than encoding). */
export const utf8Length: (text: string) => number =
  typeof Buffer === 'function' ? (text) => Buffer.byteLength(text) : (text) => new TextEncoder().encode(text).length;

/**
 * Answers `body` (a JSON text) with `status`, its content-type and content-length, then `headers`; `utf8`, the
 * body's UTF-8 where the caller has it (FrameMeta.utf8), is sent instead of encoding the text.
 */
export function sendJson(
  res: HttpResponse,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
  utf8?: Uint8Array<ArrayBuffer>,
): void {
  if (res.started) return;
  const all: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': utf8 ? utf8.length : utf8Length(body) };
  for (const name in headers) all[name] = headers[name]!;
  res.send(status, all, utf8 ?? body);
}

export interface OriginPolicy {
  /** Hostnames an Origin may name. Default: the loopback names (`LOOPBACK_HOSTS`). */
  readonly allowedOrigins?: readonly string[];
  /** Hostnames the Host header may name; `undefined` disables the check. */
  readonly allowedHosts?: readonly string[];
}

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

function hostnameOf(hostHeader: string): string {
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim());
  return (m ? m[1]! : hostHeader).toLowerCase();
}

/**
 * DNS-rebinding protection (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports,
 * "Security Warning"): an Origin (when present) must be a plain http(s) origin on an allowed host, and the
 * Host header must name an allowed host when that check is on. Returns the reason to refuse, or undefined.
 */
export function refusedOrigin(req: HttpRequest, policy: OriginPolicy): string | undefined {
  const origin = req.header('origin');
  if (origin !== undefined) {
    if (origin === null) return 'Origin is not allowed';
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return 'Origin is not allowed';
    }
    const allowed = policy.allowedOrigins ?? LOOPBACK_HOSTS;
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !allowed.includes(url.hostname.toLowerCase()))
      return 'Origin is not allowed';
  }
  if (policy.allowedHosts) {
    const host = req.headerValue('host');
    if (!host || !policy.allowedHosts.includes(hostnameOf(host))) return 'Host is not allowed';
  }
  return undefined;
}

/** Does an Accept header value list `type` (or a wildcard covering it, with a q above 0)? */
export function acceptsMedia(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  // A client sends the same Accept on every request, and each is asked about twice: the verdicts on the
  // last value seen are kept (the function is pure, so a kept verdict is the one it would compute).
  if (accept !== lastAccept) {
    lastAccept = accept;
    lastVerdicts.clear();
  }
  let verdict = lastVerdicts.get(type);
  if (verdict === undefined) lastVerdicts.set(type, (verdict = computeAcceptsMedia(accept, type)));
  return verdict;
}

let lastAccept: string | undefined;
const lastVerdicts = new Map<string, boolean>();

function computeAcceptsMedia(accept: string, type: string): boolean {
  const [major] = type.split('/');
  return accept.split(',').some((part) => {
    const [mediaPart, ...params] = part.split(';');
    const media = mediaPart!.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return media === type || media === `${major}/*` || media === '*/*';
  });
}

/** The media type of a Content-Type value, lower case, without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  // The same value on every request of a client: the last answer is kept (a pure function of its input).
  if (contentType === lastContentType) return lastMediaType;
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  lastContentType = contentType;
  lastMediaType = media;
  return media;
}

let lastContentType: string | undefined;
let lastMediaType = '';

/** The outbound queue of an SSE answer (transports/transport.ts OutboundLimits), and where an overflow is told. */
export interface SseLimits extends OutboundLimits {
  /** Where dropped notifications and a closed stream are reported. Default: stderr. */
  readonly log?: (line: string) => void;
}

/**
 * An open Server-Sent Events answer (https://html.spec.whatwg.org/multipage/server-sent-events.html): `data:`
 * events with optional ids, keep-alive comments. Its outbound queue is bounded (`SseLimits`): past the soft
 * limit droppable events are left out, past the hard limit the stream is aborted with a logged reason.
 */
export class SseStream {
  readonly #out: HttpStream;
  readonly #limits: SseLimits;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  #dropped = 0;

  /** Begins the answer on `res` (status 200 by default); a keep-alive comment every `keepAliveMs` (0: none). */
  constructor(res: HttpResponse, status = 200, headers: Readonly<Record<string, string>> = {}, keepAliveMs = 15_000, limits: SseLimits = {}) {
    this.#limits = limits;
    this.#out = res.stream(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', ...headers });
    if (keepAliveMs > 0) {
      this.#timer = setInterval(() => this.#write(': keepalive\n\n'), keepAliveMs);
      // A keep-alive must not hold the process open (node); other platforms have no unref.
      (this.#timer as { unref?: () => void }).unref?.();
    }
    res.onClose(() => this.#stop());
  }

  get closed(): boolean {
    return this.#closed;
  }

  #write(text: string, meta?: FrameMeta): void {
    if (this.#closed) return;
    const verdict = admitFrame(this.#out.queued, meta, this.#limits);
    if (verdict === 'send') {
      if (this.#dropped > 0 && this.#out.queued === 0) this.#reportDropped();
      this.#out.write(text);
    } else if (verdict === 'drop') this.#dropped++;
    else {
      this.#log(
        `SSE stream aborted: outbound queue over ${this.#limits.maxQueueBytes ?? OUTBOUND_DEFAULTS.maxQueueBytes} bytes (the client is not reading)`,
      );
      this.#stop();
      this.#out.abort();
    }
  }

  #log(line: string): void {
    (this.#limits.log ?? stderrLine)(line);
  }

  #reportDropped(): void {
    this.#log(`SSE stream: left out ${this.#dropped} progress/log notification(s) while the client was not reading`);
    this.#dropped = 0;
  }

  /** One event carrying `data` (a JSON text: never contains a newline); `meta` says whether it may be left out. */
  event(data: string, id?: string, meta?: FrameMeta): void {
    if (id !== undefined && /[\r\n]/.test(id)) throw new Error('SSE event ids cannot contain CR or LF');
    this.#write(`${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`, meta);
  }

  /**
   * The priming event of a resumable stream (SEP-1699): an event id with empty data, so the client has an id
   * to reconnect with before any message, and the `retry` delay (ms) it waits before reconnecting.
   */
  prime(id: string, retryMs: number): void {
    if (/[\r\n]/.test(id)) throw new Error('SSE event ids cannot contain CR or LF');
    this.#write(`id: ${id}\nretry: ${Math.max(0, Math.floor(retryMs))}\ndata: \n\n`);
  }

  #stop(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  end(): void {
    if (this.#closed) return;
    if (this.#dropped > 0) this.#reportDropped();
    this.#stop();
    this.#out.end();
  }
}
