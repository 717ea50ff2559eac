/**
 * @module transports/node-exchange — the HTTP exchange on node:http's IncomingMessage and ServerResponse
 * (`listen…`, the node request listeners, and Express, whose req/res are node's): headers read from
 * `rawHeaders` (so a repeated header is seen as repeated), the body read from the request stream with a size
 * limit and a deadline, answers written with writeHead/end. An Express request a body parser has already
 * read (`req.body` set) is answered from that body, under the same limits.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifyIterative } from '../jsonrpc/limits.ts';
import { HttpFailure, type HeaderRecord, type HttpRequest, type HttpResponse, type HttpStream } from './exchange.ts';

/**
 * Reads the request body, at most `limit` bytes (413 beyond, without reading the rest); the whole body must
 * arrive within `timeoutMs` (408 otherwise: a client that stops sending). A leading UTF-8 BOM is dropped.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return reject(new HttpFailure(413, `Request body larger than ${limit} bytes`));
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(new HttpFailure(413, `Request body larger than ${limit} bytes`));
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(new HttpFailure(400, 'Request body could not be read'));
    const finish = (err?: HttpFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Every listener goes: a request whose answer is a long-lived stream (an SSE GET, subscriptions/listen)
      // would otherwise keep these closures, and the chunks they hold, for as long as the stream is open.
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      const body = chunks;
      chunks = [];
      if (err) {
        // A request left unread may still fail (the client resets it): a listener that ignores it keeps
        // that from being an unhandled 'error' event.
        req.on('error', ignore);
        req.pause();
        reject(err);
      } else {
        let text = (body.length === 1 ? body[0]! : Buffer.concat(body)).toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        resolve(text);
      }
    };
    const timer = setTimeout(() => finish(new HttpFailure(408, `Request body not received within ${timeoutMs} ms`)), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** The 'error' listener left on a request whose body was given up on (one function for every request). */
function ignore(): void {}

/**
 * The one value of header `name`; `undefined` when absent and `null` when repeated (a repeated header is an
 * error for the headers MCP mirrors). Values are trimmed.
 */
export function singleHeader(req: IncomingMessage, name: string): string | undefined | null {
  // A scan of rawHeaders (name, value, name, value…): req.headersDistinct would build arrays for every header.
  const raw = req.rawHeaders;
  const wanted = name.toLowerCase();
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length !== wanted.length || key.toLowerCase() !== wanted) continue;
    if (found !== undefined) return null;
    found = raw[i + 1]!;
  }
  return found === undefined ? undefined : found.trim();
}

/** An IncomingMessage as an HttpRequest. */
export class NodeRequest implements HttpRequest {
  readonly req: IncomingMessage;
  readonly target: string;

  /** `target` defaults to `req.url` (Express adapters pass `req.originalUrl`: the path wherever they are mounted). */
  constructor(req: IncomingMessage, target = req.url ?? '/') {
    this.req = req;
    this.target = target;
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get headers(): HeaderRecord {
    return this.req.headers;
  }

  header(name: string): string | undefined | null {
    return singleHeader(this.req, name);
  }

  headerValue(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  body(limit: number, timeoutMs: number): Promise<string> {
    return readBody(this.req, limit, timeoutMs);
  }
}

/**
 * Answers whose bodies are written at the end of this turn of the event loop (setImmediate), in the order
 * they were given, so the answers to requests that arrived together leave back to back. Why: on loopback (a
 * client on the same host) writing an answer hands it to the client's socket there and then, and wakes the
 * client if it sleeps; answers written one at a time between reading the next requests can wake it once each,
 * and that wake-up is charged to the server's write (bench/: the HTTP part's CPU per request). The status and
 * headers are set at once (`writeHead` only stores them; `headersSent` is true from then on), so a header
 * that cannot be sent still throws to the caller; no answer waits longer than the turn it was ready in.
 */
const answers: { res: ServerResponse; body: string | Uint8Array | undefined }[] = [];

/** Writes the answers waiting for the end of the turn now (before connections are closed). */
export function flushAnswers(): void {
  if (answers.length === 0) return;
  for (const { res, body } of answers.splice(0)) {
    if (res.destroyed) continue;
    try {
      res.end(body);
    } catch (err) {
      res.destroy(err as Error);
    }
  }
}

/** A ServerResponse as an HttpResponse (and the HttpStream of its streamed answer). */
export class NodeResponse implements HttpResponse, HttpStream {
  readonly res: ServerResponse;

  constructor(res: ServerResponse) {
    this.res = res;
  }

  get started(): boolean {
    return this.res.headersSent;
  }

  send(status: number, headers: Readonly<Record<string, string | number>>, body?: string | Uint8Array): void {
    if (this.res.headersSent) return;
    this.res.writeHead(status, headers);
    if (answers.length === 0) setImmediate(flushAnswers);
    answers.push({ res: this.res, body });
  }

  stream(status: number, headers: Readonly<Record<string, string>>): HttpStream {
    this.res.writeHead(status, headers);
    this.res.flushHeaders();
    return this;
  }

  write(text: string): void {
    this.res.write(text);
  }

  end(): void {
    this.res.end();
  }

  /** The response's buffer plus its socket's (ServerResponse.writableLength counts both). */
  get queued(): number {
    return this.res.writableLength;
  }

  abort(): void {
    this.res.destroy();
  }

  onClose(listener: () => void): void {
    this.res.on('close', listener);
  }
}

/** What a body parser in front (express.json(), express.text(), express.raw()…) leaves on the request. */
export interface ParsedBodyFields {
  /** The parsed body; `undefined` when no parser read the body (Express 5 leaves it undefined). */
  body?: unknown;
}

/** The part of a body parser's error the adapters read (body-parser's http-errors: `type`, `limit`, `body`). */
export interface BodyParserError {
  readonly type?: string;
  readonly limit?: number;
  readonly body?: unknown;
}

/**
 * The answer a body parser's error stands for, when it is one the servers answer themselves: a body over the
 * parser's limit (413, naming that limit), or a body that did not parse (its text, which the server then
 * answers as it answers any unparsable body). `undefined` for any other error.
 */
export function bodyFromParserError(err: unknown): HttpFailure | { readonly text: string } | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { type, limit, body } = err as BodyParserError;
  if (type === 'entity.too.large' && typeof limit === 'number') return new HttpFailure(413, `Request body larger than ${limit} bytes`);
  if (type === 'entity.parse.failed' && typeof body === 'string') return { text: body };
  return undefined;
}

/**
 * An Express request: when a body parser in front has read the stream, its body is the one the parser set on
 * `req.body` (or the one its error carries), else it is read from the stream as with node:http. A parsed body
 * is held to the same limit: its declared Content-Length, else the length of its text (a JSON body serialised
 * again, without the client's spacing); `bodyTimeoutMs` cannot apply to a body read before the adapter ran.
 */
export class ExpressRequest extends NodeRequest {
  readonly #fromParser: { readonly text: string } | HttpFailure | undefined;

  constructor(req: IncomingMessage & ParsedBodyFields & { originalUrl?: string }, fromParser?: { readonly text: string } | HttpFailure) {
    super(req, req.originalUrl ?? req.url ?? '/');
    this.#fromParser = fromParser;
  }

  override body(limit: number, timeoutMs: number): Promise<string> {
    // Express 4's parsers set req.body = {} without reading a body of a type they skip: the stream tells.
    if (this.#fromParser === undefined && !this.req.readableEnded) return super.body(limit, timeoutMs);
    const parsed = this.#fromParser ?? parsedText(this.req);
    if (parsed instanceof HttpFailure) return Promise.reject(parsed);
    if (parsed === undefined)
      return Promise.reject(
        new Error('The request body was read by a body parser that did not set req.body: mount the adapter before it, or use one that sets req.body'),
      );
    const declared = Number(this.req.headers['content-length']);
    if ((Number.isFinite(declared) && declared > limit) || Buffer.byteLength(parsed.text) > limit)
      return Promise.reject(new HttpFailure(413, `Request body larger than ${limit} bytes`));
    return Promise.resolve(parsed.text);
  }
}

/** The text of the body a parser set on `req.body`, or undefined when none did. */
function parsedText(req: IncomingMessage & ParsedBodyFields): { readonly text: string } | undefined {
  const body = req.body;
  if (body === undefined) return undefined;
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  // express.json() parses an empty body as {}: a declared empty body stays empty (unparsable, as it was sent).
  else if (req.headers['content-length'] === '0') text = '';
  else text = jsonText(body);
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/** The JSON text of a parsed body; one nested too deep for JSON.stringify is written without recursion. */
function jsonText(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return stringifyIterative(body);
  }
}
