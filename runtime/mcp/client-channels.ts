/**
 * @module mcp/client-channels — where an McpClient's calls go: a stream transport (stdio of a child process,
 * or an in-memory pair) through the JSON-RPC peer, or Streamable HTTP (JSON or SSE answers; the handshake
 * era's session id; 2026-07-28's mirrored headers, with the base64 wrapper for values that need it).
 */
import { spawn } from 'node:child_process';
import { ErrorCode, JsonRpcError, parseJson, serialize, type JsonObject, type RequestId } from '../jsonrpc/message.ts';
import { Peer } from '../jsonrpc/peer.ts';
import { stdioTransport } from '../transports/stdio.ts';
import type { Transport } from '../transports/transport.ts';
import type { CallContext, ClientChannel, McpClient } from './client.ts';
import { paramHeaders } from './http-headers.ts';

/** A channel over a stream transport: one JSON-RPC peer, server requests answered by the client. */
export class PeerChannel implements ClientChannel {
  readonly peer: Peer;
  #client: McpClient | undefined;
  readonly #onClose: (() => Promise<void>) | undefined;

  constructor(transport: Transport, onClose?: () => Promise<void>) {
    this.#onClose = onClose;
    this.peer = new Peer(transport, {
      onRequest: async (req) => {
        if (!this.#client) throw new JsonRpcError(ErrorCode.InternalError, 'no client attached');
        return this.#client.handleServerRequest(req.method, req.params);
      },
      onNotification: (method, params) => this.#client?.handleNotification(method, params),
    });
  }

  attach(client: McpClient): void {
    this.#client = client;
  }

  reserveId(): RequestId {
    return this.peer.reserveId();
  }

  call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext): Promise<unknown> {
    return this.peer.request(method, params, { id, timeoutMs: context.timeoutMs, ...(context.signal ? { signal: context.signal } : {}) });
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    this.peer.notify(method, params);
  }

  async close(): Promise<void> {
    this.peer.close();
    await this.#onClose?.();
  }
}

/** Spawns an MCP server speaking stdio and returns a channel to it; closing ends its stdin and waits for it. */
export function spawnStdio(command: string, args: readonly string[], options: { cwd?: string; stderr?: (chunk: string) => void } = {}): PeerChannel {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', (d: Buffer) => options.stderr?.(d.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return new PeerChannel(stdioTransport(child.stdout, child.stdin), async () => {
    child.stdin.end();
    await exited;
  });
}

export interface HttpChannelOptions {
  readonly headers?: Record<string, string>;
  readonly fetch?: typeof fetch;
}

/** A header value as sent: plain visible ASCII as is, anything else in the `=?base64?…?=` wrapper. */
export function headerValue(value: string): string {
  return /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value) || value === '' ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncIterable<unknown> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (data.length) yield parseJson(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
  }
  if (data.length) yield parseJson(data.join('\n'));
}

/** A channel over Streamable HTTP at `url` (one POST per message). */
export class HttpChannel implements ClientChannel {
  readonly #url: string;
  readonly #options: HttpChannelOptions;
  #client: McpClient | undefined;
  #session: string | undefined;
  #version: string | undefined;
  #next = 1;

  constructor(url: string, options: HttpChannelOptions = {}) {
    this.#url = url;
    this.#options = options;
  }

  attach(client: McpClient): void {
    this.#client = client;
  }

  reserveId(): RequestId {
    return this.#next++;
  }

  #headers(context: CallContext | undefined, method: string, params: JsonObject | undefined): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...this.#options.headers };
    if (this.#session) headers['mcp-session-id'] = this.#session;
    const version = context?.protocolVersion ?? this.#version;
    if (version && method !== 'initialize') headers['mcp-protocol-version'] = version;
    if (context?.era !== 'stateless') return headers;
    headers['mcp-method'] = method;
    const mcpName = context.entry?.mcpName;
    if (mcpName !== undefined && params?.[mcpName] !== undefined) headers['mcp-name'] = headerValue(String(params[mcpName]));
    const args = (params?.['arguments'] ?? {}) as JsonObject;
    for (const { property, name } of paramHeaders(context.toolSchema).values()) {
      const value = args[property];
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = headerValue(String(value));
    }
    return headers;
  }

  async #post(body: JsonObject, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    return (this.#options.fetch ?? fetch)(this.#url, { method: 'POST', headers, body: serialize(body), ...(signal ? { signal } : {}) });
  }

  async call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext): Promise<unknown> {
    const signal = AbortSignal.any([AbortSignal.timeout(context.timeoutMs), ...(context.signal ? [context.signal] : [])]);
    const message: JsonObject = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    const res = await this.#post(message, this.#headers(context, method, params), signal);
    const session = res.headers.get('mcp-session-id');
    if (session && method === 'initialize') this.#session = session;
    if (method === 'initialize') this.#version = context.protocolVersion;
    const type = res.headers.get('content-type') ?? '';
    const messages: AsyncIterable<unknown> = type.includes('text/event-stream') ? sseMessages(res.body!) : (async function* () { yield parseJson(await res.text()); })();
    for await (const m of messages) {
      if (m === null || typeof m !== 'object') throw new JsonRpcError(ErrorCode.InternalError, `HTTP ${res.status}: the answer is not a JSON-RPC message`);
      const msg = m as JsonObject;
      if (typeof msg['method'] === 'string' && 'id' in msg) {
        await this.#answerServerRequest(msg, context);
        continue;
      }
      if (typeof msg['method'] === 'string') {
        this.#client?.handleNotification(msg['method'], msg['params'] as JsonObject | undefined);
        continue;
      }
      if (msg['id'] !== id && msg['id'] !== null) continue;
      const error = msg['error'] as { code: number; message: string; data?: unknown } | undefined;
      if (error) throw new JsonRpcError(error.code, error.message, error.data);
      if ('result' in msg) return msg['result'];
    }
    throw new JsonRpcError(ErrorCode.InternalError, `HTTP ${res.status}: the stream ended without the response to ${method}`);
  }

  /** A server request on a handshake-era stream: answered by the client's handlers, the answer POSTed back. */
  async #answerServerRequest(msg: JsonObject, context: CallContext): Promise<void> {
    let response: JsonObject;
    try {
      const result = await this.#client!.handleServerRequest(String(msg['method']), msg['params'] as JsonObject | undefined);
      response = { jsonrpc: '2.0', id: msg['id'], result };
    } catch (err) {
      if (context.era === 'stateless') throw err;
      const e = err instanceof JsonRpcError ? err : new JsonRpcError(ErrorCode.InternalError, (err as Error).message);
      response = { jsonrpc: '2.0', id: msg['id'], error: e.toJSON() };
    }
    await this.#post(response, this.#headers(undefined, '', undefined));
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    const res = await this.#post(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, this.#headers(undefined, method, params));
    await res.arrayBuffer();
  }

  async close(): Promise<void> {
    if (!this.#session) return;
    const res = await (this.#options.fetch ?? fetch)(this.#url, { method: 'DELETE', headers: this.#headers(undefined, 'DELETE', undefined) }).catch(() => undefined);
    await res?.arrayBuffer();
    this.#session = undefined;
  }
}
