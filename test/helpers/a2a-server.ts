/**
 * @module test/helpers/a2a-server — in-process A2A agents for the runtime tests: `new A2aServer({...})` behind
 * `listenA2aHttp` on 127.0.0.1:0, closed after each test; JSON-RPC calls (to a pooled agent, or with `a2aRpc`
 * to any A2A server's base URL) and HTTP+JSON calls; a card to start from; gates an executor waits on; a fake
 * clock (the kit's, kit/ids.ts, from another start); a webhook server that records what it is sent.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kitClock } from '../../kit/ids.ts';
import type { A2aHttpOptions, RunningA2aServer } from '../../runtime/a2a/http.ts';
import { listenA2aHttp } from '../../runtime/a2a/http.ts';
import { A2aServer, type A2aServerOptions } from '../../runtime/a2a/server.ts';
import type { AgentCard, AgentExecutor } from '../../runtime/a2a/types.ts';
import { open, send, type Exchange, type Reply } from './http-client.ts';

/** Replies are read loosely: the assertions say what shape they must have. */
export type Json = Record<string, any>;

export const JSONRPC_URL = 'http://127.0.0.1/a2a';
export const REST_URL = 'http://127.0.0.1/rest';

/** A card with both bindings (JSON-RPC at /a2a, HTTP+JSON under /rest) and the capabilities asked for. */
export function testCard(capabilities: AgentCard['capabilities'] = { streaming: true }): AgentCard {
  return {
    name: 'Test agent',
    description: 'An agent the runtime tests script.',
    supportedInterfaces: [
      { url: JSONRPC_URL, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: REST_URL, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    version: '1.0.0',
    capabilities,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'test', name: 'Test', description: 'Does what the test says.', tags: ['test'] }],
  };
}

export interface CallOptions {
  readonly id?: unknown;
  /** The A2A-Version header; null sends none. Default "1.0". */
  readonly version?: string | null;
  readonly headers?: Record<string, string>;
}

export interface TestAgent {
  readonly url: string;
  readonly server: A2aServer;
  /** One JSON-RPC call; the parsed answer. */
  rpc(method: string, params?: unknown, options?: CallOptions): Promise<Json>;
  /** One JSON-RPC call of a streaming method; the response as it arrives. */
  stream(method: string, params?: unknown, options?: CallOptions): Promise<Exchange>;
  /** One HTTP+JSON call to `path` (under the host, e.g. `/rest/tasks`). */
  rest(verb: string, path: string, body?: unknown, options?: CallOptions): Promise<Reply>;
}

function headersFor(options: CallOptions = {}, contentType = 'application/json'): Record<string, string> {
  const version = options.version === undefined ? '1.0' : options.version;
  return { 'content-type': contentType, ...(version === null ? {} : { 'a2a-version': version }), ...options.headers };
}

const rpcBody = (method: string, params: unknown, options: CallOptions) =>
  JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method, ...(params === undefined ? {} : { params }) });

/** One JSON-RPC call to the A2A server at `url` (its base: the endpoint is `<url>/a2a`); the parsed answer. */
export async function a2aRpc(url: string, method: string, params?: unknown, options: CallOptions = {}): Promise<Json> {
  const reply = await send(`${url}/a2a`, { headers: headersFor(options), body: rpcBody(method, params, options) });
  if (!reply.json) throw new Error(`HTTP ${reply.status}, not JSON: ${reply.text}`);
  return reply.json as Json;
}

/** Agents started by one test file; `closeAll` after each test. */
export function agentPool() {
  const running: RunningA2aServer[] = [];
  return {
    async start(options: Partial<A2aServerOptions> & { executor: AgentExecutor }, http: A2aHttpOptions = {}): Promise<TestAgent> {
      const server = new A2aServer({ card: testCard(), log: () => {}, ...options });
      const r = await listenA2aHttp(server, http);
      running.push(r);
      return {
        url: r.url,
        server,
        rpc: (method, params, options) => a2aRpc(r.url, method, params, options),
        stream: (method, params, options = {}) => open(`${r.url}/a2a`, { headers: headersFor(options), body: rpcBody(method, params, options) }),
        rest: (verb, path, body, options = {}) =>
          send(`${r.url}${path}`, {
            method: verb,
            headers: headersFor(options, 'application/a2a+json'),
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
      };
    },
    async closeAll(): Promise<void> {
      await Promise.all(running.splice(0).map((r) => r.close()));
    },
  };
}

/** A promise an executor waits on until the test opens it. */
export function gate(): { readonly promise: Promise<void>; open(): void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open: () => open() };
}

/** A clock that moves `stepMs` each time it is read, from `start`: the kit's clock, started elsewhere. */
export function fakeClock(start = '2026-01-01T00:00:00.000Z', stepMs = 1000): () => Date {
  return kitClock(start, stepMs);
}

/** The message params of SendMessage / SendStreamingMessage. */
export function userMessage(text: string, extra: Json = {}, configuration?: Json): Json {
  return {
    message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
    ...(configuration ? { configuration } : {}),
  };
}

export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: Json;
  readonly at: number;
}

export interface Webhook {
  /** `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  /** Every POST so far, in order. */
  readonly received: Delivery[];
  close(): Promise<void>;
}

/** A webhook on 127.0.0.1:0 recording every POST; the first `failures` requests get HTTP 500. */
export async function webhookServer(failures = 0): Promise<Webhook> {
  const received: Delivery[] = [];
  let left = failures;
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json, at: Date.now() });
      res.writeHead(left-- > 0 ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))),
  };
}
