/**
 * @module mcp/client/client — an MCP client over any channel (stdio, in-memory, Streamable HTTP), in either era:
 * the handshake era (`initialize`, negotiating down to a revision both sides know; server→client requests
 * answered by handlers) or 2026-07-28 (per-request `_meta`; `server/discover` first in auto mode; the
 * multi round-trip loop; caching by ttlMs). `request` is typed by the newest pin (`CallParams`,
 * `CallResult` of `@wiregen/mcp-2026-07-28`); every result is checked against the negotiated revision's schema.
 */
import { ErrorCode, isObject, JsonRpcError, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import type { Check, MethodEntry } from '../../core/index.ts';
import type {
  CallResult,
  ClientCapabilities,
  ClientRequestMethod,
  DiscoverResult,
  Implementation,
  ServerCapabilities,
  Tool,
} from '@wiregen/mcp-2026-07-28';
import { canonicalJson } from '../../jsonrpc/canonical.ts';
import { McpClientError } from './errors.ts';
import { ServerTools } from './tools.ts';
import type { CallOptions, ClientChannel, McpClientOptions, RequestArgs, ServerRequestHandlers } from './types.ts';
import { implementationOf, META } from '../stateless/meta.ts';
import { MCP_ERRORS } from '../protocol.ts';
import {
  isHandshakeVersion,
  isStatelessVersion,
  LATEST_HANDSHAKE,
  LATEST_STATELESS,
  loadRevision,
  requireRevision,
  STATELESS_VERSIONS,
  type Revision,
} from '../revisions.ts';
import type { Open } from '../server/types.ts';

export { McpClientError };
export type {
  CallContext,
  CallOptions,
  ClientChannel,
  ClientMode,
  McpClientExtension,
  McpClientOptions,
  RequestArgs,
  ServerRequestHandlers,
} from './types.ts';

const notAnObject = (method: string, result: unknown) =>
  new McpClientError(ErrorCode.InternalError, `${method}: the result is not an object: ${JSON.stringify(result)}`, undefined, {
    cause: new TypeError(`expected a JSON object, got ${result === null ? 'null' : typeof result}`),
  });

/**
 * Whether server/discover's failure means "no 2026-07-28 era here" (fall back to initialize): any error the
 * server answered, whatever its code (a handshake-era server answers -32601, -32600 or -32602; the official
 * SDK 1.x HTTP server answers HTTP 400 with -32000 "Server not initialized" or "Unsupported protocol
 * version"), as the official v2 client does. A timeout, no answer at all (a broken connection), and HTTP 401
 * or 403 (an authorization challenge, which initialize would meet the same way) are not.
 */
function refusedDiscovery(err: unknown): boolean {
  if (!(err instanceof McpClientError) || !(err.cause instanceof JsonRpcError) || err.code === ErrorCode.RequestTimeout) return false;
  const status = isObject(err.data) ? err.data['status'] : undefined;
  return status !== 401 && status !== 403;
}

const CACHEABLE_KEY = (method: string, params: JsonObject | undefined) => {
  const { _meta, ...rest } = params ?? {};
  return `${method} ${canonicalJson(rest)}`;
};

export class McpClient {
  readonly options: McpClientOptions;
  readonly channel: ClientChannel;
  #era: 'handshake' | 'stateless' | undefined;
  #revision: Revision | undefined;
  #serverCapabilities: Open<ServerCapabilities> = {};
  #serverInfo: Open<Implementation> | undefined;
  readonly #tools: ServerTools;
  readonly #cache = new Map<string, { expires: number; result: unknown }>();
  /** onProgress callbacks of the calls in flight, by progressToken. */
  readonly #progress = new Map<string | number, NonNullable<CallOptions['onProgress']>>();
  /** What is declared: the options' capabilities with each extension's under `extensions`. */
  readonly #capabilities: Open<ClientCapabilities>;
  /** The extensions' method entries, for methods the negotiated revision does not define. */
  readonly #extensionEntries = new Map<string, MethodEntry>();
  /** The extensions' result checks, by `<method> <resultType>`. */
  readonly #extensionResults = new Map<string, Check>();

  constructor(channel: ClientChannel, options: McpClientOptions) {
    this.channel = channel;
    this.options = options;
    // ajv is imported only when a structuredContent needs checking (servers and most calls never do).
    this.#tools = new ServerTools(
      () => this.call('tools/list'),
      () => import('ajv/dist/2020.js').then((m) => new m.Ajv2020({ strict: false, allErrors: false, validateSchema: false })),
    );
    const extensions = options.extensions ?? [];
    const declared = Object.fromEntries(extensions.filter((e) => e.capability !== undefined).map((e) => [e.id, e.capability!]));
    const own = options.capabilities ?? {};
    this.#capabilities = Object.keys(declared).length
      ? { ...own, extensions: { ...(isObject(own['extensions']) ? own['extensions'] : {}), ...declared } }
      : own;
    for (const extension of extensions) {
      for (const [method, entry] of Object.entries(extension.methods ?? {})) this.#extensionEntries.set(method, entry);
      for (const [resultType, { methods, check }] of Object.entries(extension.results ?? {}))
        for (const method of methods) this.#extensionResults.set(`${method} ${resultType}`, check);
    }
    channel.attach?.(this);
    for (const extension of extensions) extension.attach?.(this);
  }

  /** What this client declares: its options' capabilities, with its extensions' under `extensions`. */
  get capabilities(): Open<ClientCapabilities> {
    return this.#capabilities;
  }

  get era(): 'handshake' | 'stateless' | undefined {
    return this.#era;
  }
  get protocolVersion(): string | undefined {
    return this.#revision?.version;
  }
  /** What the server advertised (initialize or server/discover), checked by the negotiated revision's schema; typed as the newest's. */
  get serverCapabilities(): Open<ServerCapabilities> {
    return this.#serverCapabilities;
  }
  get serverInfo(): Open<Implementation> | undefined {
    return this.#serverInfo;
  }

  /** Opens the session: initialize (handshake), server/discover (auto), or nothing (stateless). */
  async connect(): Promise<void> {
    const mode = this.options.mode ?? 'auto';
    if (mode === 'handshake') return this.#initialize();
    this.#era = 'stateless';
    this.#revision = await requireRevision(LATEST_STATELESS);
    if (mode === 'stateless') return;
    try {
      // call() checked the result against the revision's DiscoverResult.
      const discovered = (await this.call('server/discover', {})) as Partial<DiscoverResult>;
      const versions = Array.isArray(discovered.supportedVersions) ? discovered.supportedVersions : [];
      const version = versions.find(isStatelessVersion);
      if (!version)
        throw new McpClientError(
          MCP_ERRORS.unsupportedVersion,
          `the server supports none of ${STATELESS_VERSIONS.join(', ')} (it offers ${versions.join(', ')})`,
        );
      this.#revision = await requireRevision(version);
      this.#serverCapabilities = isObject(discovered.capabilities) ? discovered.capabilities : {};
      const meta: unknown = discovered._meta;
      this.#serverInfo = isObject(meta) ? implementationOf(meta[META.serverInfo]) : undefined;
    } catch (err) {
      // Only an answer means "no 2026-07-28 here"; a timeout or a broken connection is reported as it is.
      if (!refusedDiscovery(err)) throw err;
      await this.#initialize();
    }
  }

  async #initialize(): Promise<void> {
    const asked = this.options.protocolVersion ?? LATEST_HANDSHAKE;
    const revision = isHandshakeVersion(asked) ? await loadRevision(asked) : undefined;
    if (!revision) throw new McpClientError(ErrorCode.InvalidRequest, `unknown handshake revision ${asked}`);
    this.#era = 'handshake';
    this.#revision = revision;
    const result = (await this.#send(
      'initialize',
      { protocolVersion: asked, capabilities: this.#capabilities, clientInfo: this.options.clientInfo },
      {},
    )) as JsonObject;
    const agreed = result['protocolVersion'];
    const negotiated = typeof agreed === 'string' && isHandshakeVersion(agreed) ? await loadRevision(agreed) : undefined;
    if (!negotiated)
      throw new McpClientError(
        MCP_ERRORS.unsupportedVersion,
        `the server answered initialize with ${String(agreed)}, which this client does not speak`,
      );
    this.#revision = negotiated;
    this.#serverCapabilities = isObject(result['capabilities']) ? result['capabilities'] : {};
    this.#serverInfo = implementationOf(result['serverInfo']);
    this.channel.negotiated?.(negotiated.version);
    await this.channel.notify('notifications/initialized');
  }

  /**
   * One typed call of a request the newest revision defines (`tools/call`, `resources/read`, …), on a connection
   * of either era: `params` as the caller writes them (`_meta` optional: the client adds the envelope), the
   * result as {@link call} checks it, typed `CallResult<M>` (the envelope optional: a handshake server sends none).
   * Methods outside the newest pin (ping, logging/setLevel, …) go through {@link call}.
   */
  request<M extends ClientRequestMethod>(method: M, ...[params, options]: RequestArgs<M>): Promise<CallResult<M>> {
    // call() checked the result against the negotiated revision's schema for `method`; the newest pin types it.
    return this.call(method, params as JsonObject | undefined, options) as Promise<CallResult<M>>;
  }

  /**
   * One call, with everything the era asks: the `_meta` envelope (2026-07-28), the input_required loop,
   * caching, the result checked against the schema, and the structuredContent check of tool results.
   */
  async call(method: string, params: JsonObject | undefined = undefined, options: CallOptions = {}): Promise<unknown> {
    if (!this.#era) throw new McpClientError(ErrorCode.InvalidRequest, 'not connected: call connect() first');
    const entry = this.#entry(method);
    const cacheKey = entry?.cacheable && this.options.cache !== false ? CACHEABLE_KEY(method, params) : undefined;
    const cached = cacheKey ? this.#cache.get(cacheKey) : undefined;
    if (cached && cached.expires > Date.now()) return structuredClone(cached.result);
    if (method === 'tools/call') this.#tools.refuseInvalidHeaders(String(params?.['name']));
    let result = await this.#send(method, params, options);
    if (!isObject(result)) throw notAnObject(method, result);
    if (this.#era === 'stateless' && entry?.inputRequired) result = await this.#rounds(method, params, result, options);
    // A result without resultType (an older server) is complete (schema Result.resultType).
    const checked =
      isObject(result) && this.#era === 'stateless' && result['resultType'] === undefined ? { ...result, resultType: 'complete' } : result;
    // A resultType an extension adds (the tasks extension's "task") is checked by the extension's schema.
    const resultType = isObject(checked) ? checked['resultType'] : undefined;
    const added = typeof resultType === 'string' ? this.#extensionResults.get(`${method} ${resultType}`) : undefined;
    const check = added ?? entry?.result;
    if (check && isObject(checked) && resultType !== 'input_required' && !check(checked))
      throw new McpClientError(
        ErrorCode.InternalError,
        `${method}: the result does not match the ${added ? `${resultType} result's` : `${this.#revision!.version}`} schema`,
        check.errors,
      );
    if (cacheKey && isObject(result) && typeof result['ttlMs'] === 'number' && result['ttlMs'] > 0)
      this.#cache.set(cacheKey, { expires: Date.now() + result['ttlMs'], result: structuredClone(result) });
    if (method === 'tools/list' && isObject(result) && !params?.['cursor']) this.#tools.remember(result);
    if (method === 'tools/call' && isObject(result) && result['structuredContent'] !== undefined && this.options.checkStructuredContent !== false)
      await this.#tools.checkStructured(String(params?.['name']), result);
    return result;
  }

  /** The dispatch entry of `method`: the negotiated revision's, or an extension's. */
  #entry(method: string): MethodEntry | undefined {
    return this.#revision!.lookup(method) ?? this.#extensionEntries.get(method);
  }

  /** The input_required loop: answer the input requests, retry with a new id, until complete. */
  async #rounds(method: string, params: JsonObject | undefined, first: unknown, options: CallOptions): Promise<unknown> {
    let result = first;
    for (let round = 0; isObject(result) && result['resultType'] === 'input_required'; round++) {
      // Each round must be an object too: anything else is a broken server.
      if (round >= (this.options.maxRounds ?? 10))
        throw new McpClientError(ErrorCode.InternalError, `${method}: still input_required after ${round} rounds`);
      const requests = isObject(result['inputRequests']) ? result['inputRequests'] : {};
      const inputResponses: JsonObject = {};
      for (const [key, request] of Object.entries(requests)) inputResponses[key] = await this.answerInput(request as JsonObject);
      // A retry carries the answers and the server's requestState byte for byte; nothing from another call.
      const retry: JsonObject = { ...(params ?? {}) };
      delete retry['inputResponses'];
      delete retry['requestState'];
      if (Object.keys(inputResponses).length) retry['inputResponses'] = inputResponses;
      if (typeof result['requestState'] === 'string') retry['requestState'] = result['requestState'];
      result = await this.#send(method, retry, options);
      if (!isObject(result)) throw notAnObject(method, result);
    }
    return result;
  }

  /**
   * Answers one server request (handshake era) or input request (2026-07-28, or a task's `inputRequests`) with
   * the handlers, after checking its params against the negotiated revision's schema (-32602 otherwise): the
   * handler gets what its type says.
   */
  async answerInput(request: { readonly method?: unknown; readonly params?: unknown }): Promise<unknown> {
    const method = String(request.method);
    const handler = this.options.handlers?.[method as keyof ServerRequestHandlers] as ((params: JsonObject) => unknown) | undefined;
    if (!handler) throw new McpClientError(ErrorCode.MethodNotFound, `the server asked for ${method}, which this client does not handle`);
    const params = isObject(request.params) ? request.params : {};
    const check = this.#revision?.lookup(method)?.params;
    if (check && !check(params))
      throw new McpClientError(
        ErrorCode.InvalidParams,
        `the server's ${method} params do not match the ${this.#revision!.version} schema`,
        check.errors,
      );
    return handler(params);
  }

  /** Answers a server→client request arriving on the channel (handshake era). */
  async handleServerRequest(method: string, params: JsonObject | undefined): Promise<unknown> {
    if (this.#era === 'stateless')
      throw new JsonRpcError(ErrorCode.InvalidRequest, `Server sent request '${method}'; the stateless protocol forbids this (use input_required)`);
    try {
      return await this.answerInput({ method, params: params ?? {} });
    } catch (err) {
      if (err instanceof McpClientError) throw new JsonRpcError(err.code, err.message);
      throw err;
    }
  }

  /** Notifications from the server. */
  handleNotification(method: string, params: JsonObject | undefined): void {
    if (method === 'notifications/tools/list_changed') this.#tools.forget();
    const token = params?.['progressToken'];
    const onProgress =
      method === 'notifications/progress' && (typeof token === 'string' || typeof token === 'number') ? this.#progress.get(token) : undefined;
    if (onProgress && typeof params?.['progress'] === 'number') {
      const { total, message } = params;
      onProgress(params['progress'], typeof total === 'number' ? total : undefined, typeof message === 'string' ? message : undefined);
    }
    for (const extension of this.options.extensions ?? []) extension.notification?.(method, params ?? {});
    this.options.onNotification?.(method, params ?? {});
  }

  async #send(method: string, params: JsonObject | undefined, options: CallOptions, retried = false): Promise<unknown> {
    const id = this.channel.reserveId();
    const token = id as string | number;
    if (options.onProgress) this.#progress.set(token, options.onProgress);
    try {
      return await this.#sendAs(id, method, params, options, retried);
    } finally {
      this.#progress.delete(token);
    }
  }

  async #sendAs(id: RequestId, method: string, params: JsonObject | undefined, options: CallOptions, retried: boolean): Promise<unknown> {
    const progress = options.progress === true || options.onProgress !== undefined;
    let sent = params;
    if (this.#era === 'stateless') {
      const meta: JsonObject = {
        [META.protocolVersion]: this.#revision!.version,
        [META.clientInfo]: this.options.clientInfo,
        [META.clientCapabilities]: this.#capabilities,
        ...(this.options.logLevel ? { [META.logLevel]: this.options.logLevel } : {}),
        ...(isObject(params?.['_meta']) ? params!['_meta'] : {}),
        ...(progress ? { progressToken: id as string | number } : {}),
      };
      sent = { ...(params ?? {}), _meta: meta };
    } else if (progress)
      sent = { ...(params ?? {}), _meta: { ...(isObject(params?.['_meta']) ? params!['_meta'] : {}), progressToken: id as string | number } };
    const toolSchema = method === 'tools/call' ? this.#tools.listed?.get(String(params?.['name'])) : undefined;
    try {
      return await this.#callChannel(id, method, sent, options, toolSchema);
    } catch (err) {
      // UnsupportedProtocolVersionError naming a version this client speaks: use it and try once more (SEP-2575).
      const supported =
        err instanceof JsonRpcError && err.code === MCP_ERRORS.unsupportedVersion
          ? (err.data as { supported?: unknown } | undefined)?.supported
          : undefined;
      const version = Array.isArray(supported) ? [...STATELESS_VERSIONS].reverse().find((v) => (supported as unknown[]).includes(v)) : undefined;
      if (this.#era === 'stateless' && version && !retried) {
        this.#revision = await requireRevision(version);
        return this.#send(method, params, options, true);
      }
      if (err instanceof JsonRpcError) throw new McpClientError(err.code, err.message, err.data, { cause: err });
      if (err instanceof McpClientError) throw err;
      throw new McpClientError(ErrorCode.InternalError, `${method}: ${(err as Error).message}`, undefined, { cause: err });
    }
  }

  #callChannel(id: RequestId, method: string, sent: JsonObject | undefined, options: CallOptions, toolSchema: Tool | undefined): Promise<unknown> {
    return this.channel.call(id, method, sent, {
      era: this.#era!,
      protocolVersion: this.#revision!.version,
      entry: this.#entry(method),
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? 60_000,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(toolSchema ? { toolSchema: toolSchema.inputSchema } : {}),
    });
  }

  /** The tools the server listed (after a tools/list), by name. */
  get tools(): ReadonlyMap<string, Tool> | undefined {
    return this.#tools.listed;
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
