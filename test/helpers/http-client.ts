/**
 * @module test/helpers/http-client — a raw HTTP client for the Streamable HTTP and A2A tests (node:http, one
 * socket per request, no pooling): exact control of headers (an array value sends the header repeated), of the
 * body, and of when the connection closes; responses read as JSON or as Server-Sent Events. The events are
 * read by the runtime's own reader (runtime/transports/sse.ts, as the MCP and A2A clients read them), each
 * `data:` parsed as JSON; this client checks servers, not that reader (test/runtime/sse.test.ts does).
 * Plus a pool of servers on 127.0.0.1:0 closed after each test, and the 2026-07-28 request shortcuts.
 */
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { listenMcpHttp, type McpHttpOptions, type RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { sseEvents } from '../../runtime/transports/sse.ts';
import { STATELESS_VERSION, withMeta } from './mcp-pair.ts';
import { watch } from './wait.ts';

export { eventually, sleep } from './wait.ts';

export const ACCEPT_BOTH = 'application/json, text/event-stream';
/** The headers every POST needs before the MCP-specific ones. */
export const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT_BOTH } as const;

/** Headers to send; `undefined` leaves a header out (so a default can be removed). */
export type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface SendOptions {
  readonly method?: string;
  readonly headers?: Headers;
  /** Sent whole, then the request ends (unless `end` is false: the body is left unfinished). */
  readonly body?: string | Buffer;
  readonly end?: boolean;
}

/** An HTTP response as it arrives: status and headers at once, body and SSE frames as they come. */
export interface Exchange {
  readonly request: ClientRequest;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body received so far. */
  readonly text: string;
  /** The JSON of every event with data so far (SSE). */
  readonly frames: JsonObject[];
  /**
   * Resolves when the response body has ended (or the connection closed) and every event in it is in
   * `frames`; rejects when an event's data is not JSON.
   */
  readonly ended: Promise<void>;
  /** The first frame (present or future) satisfying `predicate`. */
  waitFor(predicate: (frame: JsonObject) => boolean, timeoutMs?: number): Promise<JsonObject>;
  /** Closes the client's connection. */
  close(): void;
}

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The parsed body when it is JSON, else undefined. */
  readonly json: JsonObject | undefined;
  readonly frames: JsonObject[];
}

function outgoing(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value as string | string[];
  return out;
}

/** Sends a request and resolves at the response headers (rejects when the connection fails before them). */
export function open(url: string, options: SendOptions = {}): Promise<Exchange> {
  return begin(url, options).exchange;
}

/**
 * Sends a request; `request` is there at once (to close it before any response), `exchange` resolves at the
 * response headers (rejects when the connection fails before them).
 */
export function begin(url: string, options: SendOptions = {}): { request: ClientRequest; exchange: Promise<Exchange> } {
  const req = httpRequest(url, { method: options.method ?? 'POST', headers: outgoing(options.headers ?? {}), agent: false });
  const exchange = new Promise<Exchange>((resolve, reject) => {
    let text = '';
    const frames: JsonObject[] = [];
    const arrivals = watch(frames, (timeoutMs) => `no matching SSE frame within ${timeoutMs} ms; received:\n${text}`);
    let ended: () => void = () => {};
    let failed: (err: unknown) => void = () => {};
    const endedPromise = new Promise<void>((ok, fail) => ((ended = ok), (failed = fail)));
    req.on('error', (err) => {
      reject(err);
      ended();
    });
    req.on('response', (res) => {
      // The body as it arrives goes to `text` and to the event reader, which fills `frames`.
      const decoder = new StringDecoder('utf8');
      let feed!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) });
      res.on('data', (chunk: Buffer) => {
        text += decoder.write(chunk);
        feed.enqueue(chunk);
      });
      res.on('error', () => {});
      res.on('close', () => {
        text += decoder.end();
        feed.close();
      });
      void (async () => {
        for await (const event of sseEvents(body)) {
          if (event.data === '') continue; // an event that only sets an id or a retry
          frames.push(JSON.parse(event.data) as JsonObject);
          arrivals.changed();
        }
      })()
        .then(ended, failed)
        .finally(() => arrivals.changed());
      resolve({
        request: req,
        status: res.statusCode!,
        headers: res.headers,
        get text() {
          return text;
        },
        frames,
        ended: endedPromise,
        waitFor: arrivals.waitFor,
        close() {
          req.destroy();
          res.destroy();
        },
      });
    });
  });
  if (options.body !== undefined) req.write(options.body);
  if (options.end !== false) req.end();
  else req.flushHeaders();
  return { request: req, exchange };
}

/** Sends a request and waits for the whole response. */
export async function send(url: string, options: SendOptions = {}): Promise<Reply> {
  const exchange = await open(url, options);
  await exchange.ended;
  let json: JsonObject | undefined;
  try {
    json = JSON.parse(exchange.text) as JsonObject;
  } catch {
    json = undefined;
  }
  return { status: exchange.status, headers: exchange.headers, text: exchange.text, json, frames: exchange.frames };
}

/** The headers of a 2026-07-28 request for `method` (Mcp-Name when given). */
export function statelessHeaders(method: string, name?: string): Record<string, string> {
  return { ...JSON_HEADERS, 'mcp-protocol-version': STATELESS_VERSION, 'mcp-method': method, ...(name !== undefined ? { 'mcp-name': name } : {}) };
}

/** A JSON-RPC request body with the 2026-07-28 `_meta` envelope (`metaExtra` added to it). */
export function statelessBody(id: string | number, method: string, params: JsonObject = {}, metaExtra: JsonObject = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: withMeta(params, metaExtra) });
}

export interface CallOptions {
  readonly id?: string | number;
  /** Added to (or, with undefined, removed from) the default headers. */
  readonly headers?: Headers;
  readonly meta?: JsonObject;
}

/** The Mcp-Name a method mirrors: params.name (tools/call, prompts/get) or params.uri (resources/read). */
function mirroredName(method: string, params: JsonObject): string | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return params['name'] as string;
  if (method === 'resources/read') return params['uri'] as string;
  return undefined;
}

/** The send options of a well-formed 2026-07-28 request, with overrides. */
export function statelessRequest(method: string, params: JsonObject = {}, options: CallOptions = {}): SendOptions {
  return {
    headers: { ...statelessHeaders(method, mirroredName(method, params)), ...options.headers },
    body: statelessBody(options.id ?? 1, method, params, options.meta),
  };
}

/** POSTs a well-formed 2026-07-28 request and waits for the whole response. */
export function call(url: string, method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<Reply> {
  return send(url, statelessRequest(method, params, options));
}

/** Servers started by one test file, closed after each test. */
export function serverPool() {
  const running: RunningHttpServer[] = [];
  return {
    async start(options: McpServerOptions | McpServer, http: McpHttpOptions & { host?: string } = {}): Promise<RunningHttpServer> {
      const server = options instanceof McpServer ? options : new McpServer({ log: () => {}, ...options });
      const r = await listenMcpHttp(server, http);
      running.push(r);
      return r;
    },
    async closeAll(): Promise<void> {
      await Promise.all(running.splice(0).map((r) => r.close()));
    },
  };
}
