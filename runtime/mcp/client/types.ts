/**
 * @module mcp/client/types — what McpClient is given and gives: its options, the per-call options, the channel
 * a client calls through (stdio, in-memory, Streamable HTTP) and what an extension adds to a client
 * (https://modelcontextprotocol.io/seps/2133-extensions: the tasks extension's `resultType: "task"`, the skills
 * extension's methods). Kept apart from client.ts so the class stays readable.
 */
import type { JsonObject, RequestId } from '../../jsonrpc/message.ts';
import type { Check, MethodEntry } from '../../core/index.ts';
import type {
  CallParams,
  ClientCapabilities,
  ClientRequestMethod,
  HandlerParams,
  HandlerResult,
  Implementation,
  JSONObject,
  ServerRequestMethod,
} from '@wiregen/mcp-2026-07-28';
import type { McpClient } from './client.ts';
import type { LoggingLevel, Open } from '../server/types.ts';

export type ClientMode = 'handshake' | 'stateless' | 'auto';

/**
 * What the client answers for the server: one handler per server-to-client request of the newest revision's
 * manifest, with its params and result as the newest pin types them (era-neutral: `_meta` optional). A handler
 * may throw a JsonRpcError to answer with that error (handshake era).
 */
export type ServerRequestHandlers = {
  [M in ServerRequestMethod]?: (params: HandlerParams<M>) => HandlerResult<M> | Promise<HandlerResult<M>>;
};

/** The arguments of {@link McpClient.request} after the method: params (optional when nothing in them is required) and options. */
export type RequestArgs<M extends ClientRequestMethod> =
  object extends CallParams<M> ? [params?: CallParams<M>, options?: CallOptions] : [params: CallParams<M>, options?: CallOptions];

export interface McpClientOptions {
  readonly clientInfo: Open<Implementation>;
  /** Declared once (handshake) or on every request (2026-07-28). Default `{}`. */
  readonly capabilities?: Open<ClientCapabilities>;
  /** handshake, stateless (2026-07-28), or auto (server/discover first, falling back to initialize). Default auto. */
  readonly mode?: ClientMode;
  /** The handshake revision to ask for. Default the newest. */
  readonly protocolVersion?: string;
  /** 2026-07-28: ask for notifications/message at this level and above. */
  readonly logLevel?: LoggingLevel;
  /** Answers to elicitation, sampling and roots, in both eras (input requests in 2026-07-28). */
  readonly handlers?: ServerRequestHandlers;
  /** Notifications from the server (progress, log messages, list changes). */
  readonly onNotification?: (method: string, params: JsonObject) => void;
  /** How long one request may take. Default 60 s. */
  readonly timeoutMs?: number;
  /** Most input_required rounds of one call. Default 10. */
  readonly maxRounds?: number;
  /** Reuse results the server marks fresh (ttlMs > 0). Default true. */
  readonly cache?: boolean;
  /** After a tool result with structuredContent, list the tools (if not yet) and check it against the outputSchema, as the SDK does. Default true. */
  readonly checkStructuredContent?: boolean;
  /** Extensions the client uses (McpTasksClient, McpSkillsClient): their capability is declared, their methods and results known. Default none. */
  readonly extensions?: readonly McpClientExtension[];
}

export interface CallOptions {
  /** Ask for progress: the request carries a progressToken (its own id). Implied by `onProgress`. Default false. */
  readonly progress?: boolean;
  /**
   * Called with each notifications/progress the server sends for this call (its progressToken is the request's
   * id; each input_required round has its own). Notifications also reach `onNotification`. Default none.
   */
  readonly onProgress?: (progress: number, total?: number, message?: string) => void;
  /** Aborting it gives the call up: the server is sent notifications/cancelled. Default none. */
  readonly signal?: AbortSignal;
  /** How long each round trip of this call may take. Default the client's `timeoutMs` (60 s). */
  readonly timeoutMs?: number;
}

/** What a channel does with one call: send it, deliver what comes back, resolve with the result. */
export interface ClientChannel {
  /** The id the next request will use. */
  reserveId(): RequestId;
  /** Sends a request; resolves with its result or throws the JsonRpcError the server answered. */
  call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext): Promise<unknown>;
  notify(method: string, params?: JsonObject): Promise<void>;
  close(): Promise<void>;
  /** Called once by the client: where the channel delivers server requests and notifications. */
  attach?(client: McpClient): void;
  /** The handshake revision initialize agreed on (HTTP sends it as MCP-Protocol-Version). */
  negotiated?(version: string): void;
}

/** What a channel needs to know about a call (HTTP builds its headers from it). */
export interface CallContext {
  readonly era: 'handshake' | 'stateless';
  readonly protocolVersion: string;
  readonly entry: MethodEntry | undefined;
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
  /** The called tool's inputSchema, for Mcp-Param-* headers (HTTP, tools/call). */
  readonly toolSchema?: JsonObject;
}

/**
 * An MCP extension on the client side (https://modelcontextprotocol.io/seps/2133-extensions), given to a client
 * in `extensions` so the extension lives in an area of its own (`@wiregen/runtime/mcp/ext/tasks`,
 * `…/ext/skills`) and a client that does not use one never loads it.
 */
export interface McpClientExtension {
  /** The extension identifier (e.g. `io.modelcontextprotocol/tasks`). */
  readonly id: string;
  /**
   * Declared under `capabilities.extensions[id]` (initialize, or every 2026-07-28 request), when present: an
   * extension the server may only use with a client that declared it (the tasks extension) sets it. Default
   * none (not declared).
   */
  readonly capability?: JSONObject;
  /** The dispatch entries of its methods (params and result checks), used for methods the negotiated revision does not define. */
  readonly methods?: Readonly<Record<string, MethodEntry>>;
  /** Result shapes it adds, by `resultType`: which methods may answer with one, and the schema check of it. */
  readonly results?: Readonly<Record<string, { readonly methods: readonly string[]; readonly check: Check }>>;
  /** Called once with the client it was given to. */
  attach?(client: McpClient): void;
  /** Each notification the server sends, after the client's own handling and before `onNotification`. */
  notification?(method: string, params: JsonObject): void;
}
