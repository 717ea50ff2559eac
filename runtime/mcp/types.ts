/**
 * @module mcp/types — the server's configuration and what a handler sees. Handlers are era-neutral: the
 * runtime adds each era's envelope (resultType, serverInfo, cache hints) around what they return.
 */
import type { JsonObject, RequestId } from '../jsonrpc/message.ts';

export type Era = 'handshake' | 'stateless';
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export const LOGGING_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A request the server asks of the client: elicitation/create, sampling/createMessage or roots/list. */
export interface InputRequest {
  readonly method: string;
  readonly params?: JsonObject;
}

/** What every handler receives beside its params. */
export interface RequestContext {
  readonly method: string;
  readonly id: RequestId;
  readonly era: Era;
  /** The revision this request is served in (negotiated by initialize, or carried in _meta). */
  readonly protocolVersion: string;
  /**
   * Aborted when the client cancels the request (notifications/cancelled, or an HTTP client going away).
   * When a stdio peer closes its input, running requests still finish and answer.
   */
  readonly signal: AbortSignal;
  /** The client's capabilities: negotiated once (handshake era) or declared on this request (2026-07-28). */
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: JsonObject | undefined;
  /** Sends notifications/progress when the request asked for it (a progressToken); otherwise nothing. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends notifications/message when the client's log level admits `level`; otherwise nothing. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the client for input. Handshake era: sends the request to the client and waits for its answer.
   * 2026-07-28: returns the answer carried in the retry's inputResponses, or ends this round with an
   * input_required result asking for it (the handler runs again on the retry).
   */
  input<T = JsonObject>(key: string, request: InputRequest): Promise<T>;
  /** Several inputs at once (2026-07-28 asks for all that are missing in one round). */
  inputs(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, JsonObject>>;
  /** Tells subscribed clients that a list changed (listen streams; handshake clients when advertised). */
  listChanged(kind: 'tools' | 'prompts' | 'resources'): void;
  /** Tells subscribers of `uri` that the resource changed. */
  resourceUpdated(uri: string): void;
  /** Data the handler kept on an earlier round (verified requestState), if any. */
  readonly state: unknown;
  /** Data to carry to the next round in a signed requestState (2026-07-28); call it on every round that needs it. */
  keepState(data: unknown): void;
}

export type Handler = (params: JsonObject, ctx: RequestContext) => unknown;
export type NotificationHandler = (params: JsonObject, ctx: { readonly era: Era | undefined }) => void;

export interface CacheHints {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

export interface McpServerOptions {
  /** Reported as serverInfo (handshake) and result `_meta` io.modelcontextprotocol/serverInfo (2026-07-28). */
  readonly serverInfo: { readonly name: string; readonly version: string } & JsonObject;
  readonly instructions?: string;
  /** Capabilities advertised by initialize (handshake) and by server/discover (2026-07-28). */
  readonly capabilities: { readonly handshake: JsonObject; readonly stateless: JsonObject };
  /** One handler per method the server serves (tools/call, resources/read, …). */
  readonly handlers: Readonly<Partial<Record<string, Handler>>>;
  readonly notificationHandlers?: Readonly<Partial<Record<string, NotificationHandler>>>;
  /** ttlMs/cacheScope put on cacheable results that do not set them. Default 0 / private. */
  readonly cache?: CacheHints;
  /** Key for signing requestState (at least 32 bytes). Default: random per process. */
  readonly requestStateSecret?: Buffer;
  /** How long a requestState stays valid. Default 300 s. */
  readonly requestStateTtlSeconds?: number;
  /** How long the handshake era waits for the client to answer elicitation, sampling or roots. Default 10 min. */
  readonly clientRequestTimeoutMs?: number;
  /** Validate every result against the revision's schema before sending (a failure becomes -32603). Default true. */
  readonly validateResults?: boolean;
  /** A tool's inputSchema, for checking the Mcp-Param-* headers its `x-mcp-header` annotations ask for (HTTP). */
  readonly toolInputSchema?: (name: string) => JsonObject | undefined;
  /** Where internal failures are reported. Default: stderr. */
  readonly log?: (line: string) => void;
}
