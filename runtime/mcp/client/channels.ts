/**
 * @module mcp/client/channels — where an McpClient's calls go: a stream transport (stdio of a child process,
 * or an in-memory pair) through the JSON-RPC peer, or Streamable HTTP (JSON or SSE answers; the handshake
 * era's session id; 2026-07-28's mirrored headers, with the base64 wrapper for values that need it).
 */
import {
  classify,
  ErrorCode,
  errorResponse,
  idKey,
  JsonRpcError,
  parseJson,
  response,
  serialize,
  type Incoming,
  type JsonObject,
  type RequestId,
} from '../../jsonrpc/message.ts';
import { Peer } from '../../jsonrpc/peer.ts';
import { stdioTransport } from '../../transports/stdio.ts';
import type { Transport } from '../../transports/transport.ts';
import type { CallContext, ClientChannel, McpClient } from './client.ts';
import { headerAnnotations } from '../http/headers.ts';
import { nodeChildProcess } from '../node-builtins.ts';
import { boundedText, checkDepth, McpClientLimitError, resolveLimits, type McpClientLimits } from './limits.ts';
import { resumableMessages, sseMessages } from './resume.ts';

/** A channel over a stream transport: one JSON-RPC peer, server requests answered by the client. */
export class PeerChannel implements ClientChannel {
  readonly peer: Peer;
  #client: McpClient | undefined;
  readonly #onClose: (() => Promise<void>) | undefined;

  constructor(transport: Transport, onClose?: () => Promise<void>) {
    this.#onClose = onClose;
    this.peer = new Peer(transport, {
      // A line over the transport's limit may be the answer a call waits for: every waiting call fails, named.
      onOversize: (limit) =>
        this.peer.failPending(new McpClientLimitError('maxMessageBytes', limit, `a line from the server is larger than ${limit} bytes`)),
      onRequest: async (req) => {
        if (!this.#client) throw new JsonRpcError(ErrorCode.InternalError, 'no client attached');
        return this.#client.handleServerRequest(req.method, req.params);
      },
      onNotification: (method, params) => this.#client?.handleNotification(method, params),
      // A call given up (timed out, or its signal aborted): the server is told (MCP cancellation).
      onAbandon: (id, reason) => this.peer.notify('notifications/cancelled', { requestId: id, reason }),
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

/** How long close() waits for the server after ending its stdin, and again after SIGTERM, before SIGKILL. */
export const STDIO_CLOSE_GRACE_MS = 2000;

/**
 * Spawns an MCP server speaking stdio and returns a channel to it. Closing ends its stdin and waits for it to
 * exit; a server that does not is sent SIGTERM, then SIGKILL (each after STDIO_CLOSE_GRACE_MS). A line over
 * `limits.maxMessageBytes` (default 4 MiB) is dropped unread and fails every waiting call (McpClientLimitError).
 */
export function spawnStdio(
  command: string,
  args: readonly string[],
  options: { cwd?: string; stderr?: (chunk: string) => void; limits?: Pick<McpClientLimits, 'maxMessageBytes'> } = {},
): PeerChannel {
  const child = nodeChildProcess().spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', (d: Buffer) => options.stderr?.(d.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const within = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  const maxLineBytes = resolveLimits(options.limits).maxMessageBytes;
  return new PeerChannel(stdioTransport(child.stdout, child.stdin, { maxLineBytes }), async () => {
    child.stdin.end();
    if (await within(STDIO_CLOSE_GRACE_MS)) return;
    child.kill('SIGTERM');
    if (await within(STDIO_CLOSE_GRACE_MS)) return;
    child.kill('SIGKILL');
    await exited;
  });
}

export interface HttpChannelOptions {
  readonly headers?: Record<string, string>;
  readonly fetch?: typeof fetch;
  /**
   * Authorization for a protected server: every request goes through its `fetch` (an `OAuthClient` from
   * `@wiregen/runtime/auth`, which answers 401 and 403 challenges itself). Default none: a 401 or 403 is an error
   * naming the status and the server's `WWW-Authenticate` challenge.
   */
  readonly auth?: { readonly fetch: typeof fetch };
  /** What the channel accepts from the server, and the largest mirrored headers it sends. Defaults: CLIENT_LIMIT_DEFAULTS. */
  readonly limits?: McpClientLimits;
}

/** A header value as sent: plain visible ASCII as is, anything else in the `=?base64?…?=` wrapper. */
export function headerValue(value: string): string {
  return /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value) || value === ''
    ? value
    : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A channel over Streamable HTTP at `url` (one POST per message). */
export class HttpChannel implements ClientChannel {
  readonly #url: string;
  readonly #options: HttpChannelOptions;
  /** Where requests go: the authorization's fetch, else the given one, else the global one. */
  readonly #send: typeof fetch;
  readonly #limits: Required<McpClientLimits>;
  #client: McpClient | undefined;
  #session: string | undefined;
  #version: string | undefined;
  #next = 1;
  /** The handshake-era session's GET stream (server messages tied to no request), while open. */
  #standalone: AbortController | undefined;

  constructor(url: string, options: HttpChannelOptions = {}) {
    this.#url = url;
    this.#options = options;
    this.#send = options.auth?.fetch ?? options.fetch ?? ((input, init) => fetch(input, init));
    this.#limits = resolveLimits(options.limits);
  }

  attach(client: McpClient): void {
    this.#client = client;
  }

  negotiated(version: string): void {
    this.#version = version;
  }

  reserveId(): RequestId {
    return this.#next++;
  }

  #headers(context: CallContext | undefined, method: string, params: JsonObject | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...this.#options.headers,
    };
    if (this.#session) headers['mcp-session-id'] = this.#session;
    const version = context?.protocolVersion ?? this.#version;
    if (version && method !== 'initialize') headers['mcp-protocol-version'] = version;
    if (context?.era !== 'stateless') return headers;
    headers['mcp-method'] = method;
    const mcpName = context.entry?.mcpName;
    if (mcpName !== undefined && params?.[mcpName] !== undefined) headers['mcp-name'] = headerValue(String(params[mcpName]));
    const args = (params?.['arguments'] ?? {}) as JsonObject;
    for (const { property, name } of headerAnnotations(context.toolSchema).headers.values()) {
      const value = args[property];
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = headerValue(String(value));
    }
    // Mirrored values past a server's header limit would be refused (431) or the connection reset: not sent.
    const max = this.#limits.maxHeaderBytes;
    let size = 0;
    for (const [name, value] of Object.entries(headers))
      if (name.startsWith('mcp-') && name !== 'mcp-session-id') size += name.length + value.length + 4;
    if (size > max) throw new McpClientLimitError('maxHeaderBytes', max, `${method}: the headers mirrored from the request take ${size} bytes`);
    return headers;
  }

  async #post(body: JsonObject, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    return this.#send(this.#url, { method: 'POST', headers, body: serialize(body), ...(signal ? { signal } : {}) });
  }

  async call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext): Promise<unknown> {
    // A timer of our own, not AbortSignal.timeout: that one's timer does not keep the signal alive, and an
    // AbortSignal.any over it can be collected before it fires, leaving the call waiting forever.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new JsonRpcError(ErrorCode.RequestTimeout, `Request ${method} timed out after ${context.timeoutMs} ms`)),
      context.timeoutMs,
    );
    try {
      return await this.#call(id, method, params, context, context.signal ? AbortSignal.any([deadline.signal, context.signal]) : deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async #call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext, signal: AbortSignal): Promise<unknown> {
    const message: JsonObject = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    const res = await this.#post(message, this.#headers(context, method, params), signal);
    if (res.status === 401 || res.status === 403) {
      await res.arrayBuffer().catch(() => undefined);
      const challenge = res.headers.get('www-authenticate');
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `HTTP ${res.status} from ${this.#url}: ${challenge ? `WWW-Authenticate: ${challenge}` : 'no challenge'}`,
        {
          status: res.status,
          ...(challenge ? { challenge } : {}),
        },
      );
    }
    const session = res.headers.get('mcp-session-id');
    if (session && method === 'initialize') this.#session = session;
    if (method === 'initialize') this.#version = context.protocolVersion;
    const type = res.headers.get('content-type') ?? '';
    const messages: AsyncIterable<unknown> = type.includes('text/event-stream') ? this.#resumable(res, method, context, signal) : this.#json(res);
    for await (const m of messages) {
      if (m === null || typeof m !== 'object')
        throw new JsonRpcError(ErrorCode.InternalError, `HTTP ${res.status}: the answer is not a JSON-RPC message`);
      const msg = classify(m);
      if (msg.kind === 'request') await this.#answerServerRequest(msg, context);
      else if (msg.kind === 'notification') this.#client?.handleNotification(msg.method, msg.params);
      // Ours: a response to this id, or an error with id null (the server could not read the request's id).
      else if (msg.kind === 'response' && (msg.id === null ? msg.error !== undefined : idKey(msg.id) === idKey(id))) {
        if (msg.error) throw new JsonRpcError(msg.error.code, msg.error.message, msg.error.data);
        return msg.result;
      }
    }
    throw new JsonRpcError(ErrorCode.InternalError, `HTTP ${res.status}: the stream ended without the response to ${method}`);
  }

  /** The one message of a JSON answer, within the limits. */
  async *#json(res: Response): AsyncIterable<unknown> {
    const text = await boundedText(res, this.#limits);
    checkDepth(text, this.#limits);
    yield parseJson(text);
  }

  /** The messages of a POST's SSE stream, resumed with Last-Event-ID when it ends or breaks off early (resume.ts). */
  #resumable(res: Response, method: string, context: CallContext, signal: AbortSignal): AsyncIterable<unknown> {
    return resumableMessages(res.body!, {
      method,
      limits: this.#limits,
      signal,
      resume: (lastEventId) =>
        this.#send(this.#url, {
          method: 'GET',
          headers: { ...this.#headers(context, '', undefined), accept: 'text/event-stream', 'last-event-id': lastEventId },
          signal,
        }),
    });
  }

  /** After initialize (handshake era): the session's GET stream, for server requests and notifications tied to no request. */
  #openStandalone(): void {
    if (!this.#session || this.#standalone) return;
    const controller = new AbortController();
    this.#standalone = controller;
    void (async () => {
      try {
        const res = await this.#send(this.#url, {
          method: 'GET',
          headers: { ...this.#headers(undefined, '', undefined), accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream'))
          return void (await res.arrayBuffer().catch(() => undefined));
        for await (const m of sseMessages(res.body!, {}, this.#limits)) {
          const msg = classify(m);
          if (msg.kind === 'request')
            await this.#answerServerRequest(msg, { era: 'handshake', protocolVersion: this.#version ?? '', entry: undefined, timeoutMs: 0 });
          else if (msg.kind === 'notification') this.#client?.handleNotification(msg.method, msg.params);
        }
      } catch {
        // The stream ended (closed, aborted, or the server has none): nothing to do.
      }
    })();
  }

  /** A server request on a handshake-era stream: answered by the client's handlers, the answer POSTed back. */
  async #answerServerRequest(msg: Extract<Incoming, { kind: 'request' }>, context: CallContext): Promise<void> {
    let answer: JsonObject;
    try {
      answer = response(msg.id, await this.#client!.handleServerRequest(msg.method, msg.params));
    } catch (err) {
      if (context.era === 'stateless') throw err;
      answer = errorResponse(msg.id, err instanceof JsonRpcError ? err : new JsonRpcError(ErrorCode.InternalError, (err as Error).message));
    }
    await this.#post(answer, this.#headers(undefined, '', undefined));
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    const res = await this.#post(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
      this.#headers(undefined, method, params),
    );
    await res.arrayBuffer();
    if (method === 'notifications/initialized') this.#openStandalone();
  }

  async close(): Promise<void> {
    this.#standalone?.abort();
    this.#standalone = undefined;
    if (!this.#session) return;
    const res = await this.#send(this.#url, { method: 'DELETE', headers: this.#headers(undefined, 'DELETE', undefined) }).catch(() => undefined);
    await res?.arrayBuffer();
    this.#session = undefined;
  }
}
