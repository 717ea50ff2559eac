/**
 * @module test/helpers/mcp-pair — an McpServer connected to an in-memory test client over createLinkedPair().
 * The client sends raw JSON (an object, or a string frame sent as is), keeps every frame the server sends
 * (parsed, plus the raw text), correlates responses by id, answers server→client requests through an
 * optional responder, and can assert that nothing arrives for a while. Also the 2026-07-28 `_meta` envelope
 * and a handshake (initialize + notifications/initialized) shortcut shared by the runtime tests.
 */
import { JsonRpcError, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { ConnectionOptions, McpConnection } from '../../runtime/mcp/server/connection.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { createLinkedPair, type Transport } from '../../runtime/transports/transport.ts';
import { sleep, watch } from './wait.ts';

export type Frame = JsonObject;
type Id = string | number;

/** How long quiet() listens by default (request() and waitFor() wait WAIT_MS of wait.ts). */
export const QUIET_MS = 60;

export const SERVER_INFO = { name: 'test-server', version: '1.2.3' };
export const STATELESS_VERSION = '2026-07-28';
export const PV = 'io.modelcontextprotocol/protocolVersion';
export const CAPS = 'io.modelcontextprotocol/clientCapabilities';
export const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The smallest valid 2026-07-28 envelope, plus `extra` keys (client capabilities default to {}). */
export function meta(extra: JsonObject = {}): JsonObject {
  return { [PV]: STATELESS_VERSION, [CAPS]: {}, ...extra };
}

/** `params` with the 2026-07-28 envelope (`metaExtra` added to or overriding the defaults). */
export function withMeta(params: JsonObject = {}, metaExtra: JsonObject = {}): JsonObject {
  return { ...params, _meta: meta(metaExtra) };
}

/** A server→client request the responder answers: return the result, or throw a JsonRpcError. */
export type Responder = (request: Frame) => unknown;

export interface PairOptions {
  readonly connection?: ConnectionOptions;
  readonly responder?: Responder;
}

export interface Answer {
  readonly response: Frame;
  /** Frames without an id (notifications) that arrived after the request was sent and before its response. */
  readonly notifications: Frame[];
}

export interface McpPair {
  readonly server: McpServer;
  readonly connection: McpConnection;
  /** Every frame the server sent, parsed, in order. */
  readonly frames: Frame[];
  /** The same frames as the raw text that arrived. */
  readonly lines: string[];
  /** Sends an object as JSON, or a string exactly as given. */
  send(message: unknown): void;
  /** Sends a request (id: a counter unless given) and resolves with its response. */
  request(method: string, params?: JsonObject, id?: Id): Promise<Answer>;
  notify(method: string, params?: JsonObject): void;
  /** The first frame received so far or later that satisfies `predicate`. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  /** Rejects if any frame arrives within `ms`. */
  quiet(ms?: number): Promise<void>;
  /** Waits `ms` and returns the frames that arrived meanwhile (including those already on their way). */
  settle(ms?: number): Promise<Frame[]>;
  close(): Promise<void>;
}

const sameId = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function isRequestFromServer(frame: Frame): boolean {
  return typeof frame['method'] === 'string' && 'id' in frame;
}

/** Connects a new McpServer built from `options` to a test client. */
export function mcpPair(options: McpServerOptions | McpServer, pairOptions: PairOptions = {}): McpPair {
  const server = options instanceof McpServer ? options : new McpServer({ log: () => {}, ...options });
  const [client, serverSide]: [Transport, Transport] = createLinkedPair();
  const frames: Frame[] = [];
  const lines: string[] = [];
  const arrivals = watch(frames, (timeoutMs) => `no matching frame within ${timeoutMs} ms; received:\n${lines.join('\n')}`);
  let nextId = 1;

  const send = (message: unknown) => client.send(typeof message === 'string' ? message : JSON.stringify(message));

  const answer = async (frame: Frame) => {
    const responder = pairOptions.responder;
    if (!responder) return;
    try {
      send({ jsonrpc: '2.0', id: frame['id'], result: await responder(frame) });
    } catch (err) {
      const error = err instanceof JsonRpcError ? err.toJSON() : { code: -32603, message: String(err) };
      send({ jsonrpc: '2.0', id: frame['id'], error });
    }
  };

  client.start({
    message(text) {
      lines.push(text);
      const frame = JSON.parse(text) as Frame;
      frames.push(frame);
      if (isRequestFromServer(frame)) void answer(frame);
      arrivals.changed();
    },
    close() {},
  });
  const connection = server.connect(serverSide, pairOptions.connection);

  const { waitFor } = arrivals;

  return {
    server,
    connection,
    frames,
    lines,
    send,
    async request(method, params, id) {
      const requestId = id ?? `r${nextId++}`;
      const start = frames.length;
      send(params === undefined ? { jsonrpc: '2.0', id: requestId, method } : { jsonrpc: '2.0', id: requestId, method, params });
      const isResponse = (f: Frame) => !('method' in f) && sameId(f['id'], requestId);
      const response = await waitFor((f) => frames.indexOf(f) >= start && isResponse(f));
      const end = frames.indexOf(response);
      return { response, notifications: frames.slice(start, end).filter((f) => !('id' in f)) };
    },
    notify(method, params) {
      send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
    },
    waitFor,
    async quiet(ms = QUIET_MS) {
      const start = frames.length;
      await sleep(ms);
      if (frames.length > start) throw new Error(`expected no frames, received:\n${lines.slice(start).join('\n')}`);
    },
    async settle(ms = QUIET_MS) {
      const start = frames.length;
      await sleep(ms);
      return frames.slice(start);
    },
    async close() {
      client.close();
      await sleep(0);
    },
  };
}

/** initialize (with `version` and client `capabilities`) then notifications/initialized; returns the result. */
export async function handshake(pair: McpPair, version = '2025-11-25', capabilities: JsonObject = {}): Promise<JsonObject> {
  const { response } = await pair.request('initialize', {
    protocolVersion: version,
    capabilities,
    clientInfo: { name: 'test-client', version: '0.0.1' },
  });
  if (!response['result']) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
  pair.notify('notifications/initialized');
  return response['result'] as JsonObject;
}
