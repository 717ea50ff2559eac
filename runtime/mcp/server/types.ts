/**
 * @module mcp/server/types — the server's configuration and what a handler sees. Handlers are typed by the newest
 * 2026-07-28 pin (`ServerHandlers` of `@wiregen/mcp-2026-07-28`) and era-neutral: the runtime adds each era's
 * envelope (resultType, serverInfo, cache hints) around what they return, and checks params before and
 * results after against the schema of the revision in use.
 */
import type { ServerCapabilities as HandshakeServerCapabilities } from '@wiregen/mcp-2025-11-25';
import type {
  CallParams,
  CallResult,
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
  ServerHandlers,
  ServerRequestMethod,
} from '@wiregen/mcp-2026-07-28';
import type { AuthInfo } from '../../auth/info.ts';
import type { JsonObject, RequestId } from '../../jsonrpc/message.ts';
import type { ThrownErrors } from './thrown.ts';
import type { McpServerExtension } from './extensions.ts';

export type { AuthInfo, HandshakeServerCapabilities, LoggingLevel };
export { LOGGING_LEVELS } from '../protocol.ts';

export type Era = 'handshake' | 'stateless';

/**
 * A schema type open to members the schema does not list, as the schema says of capabilities ("not a closed
 * set: any client can define its own, additional capabilities") and of implementations ("other fields are
 * optional").
 */
export type Open<T> = T & { readonly [key: string]: unknown };

/** The requests a server may ask of the client (elicitation/create, sampling/createMessage, roots/list): the newest pin's. */
export type InputMethod = ServerRequestMethod;
type InputParams<M extends InputMethod> = object extends CallParams<M> ? { readonly params?: CallParams<M> } : { readonly params: CallParams<M> };
/** A request the server asks of the client, typed by its method (params as the caller writes them: `_meta` optional). */
export type InputRequest<M extends InputMethod = InputMethod> = { [K in M]: { readonly method: K } & InputParams<K> }[M];
/** The client's answer to an input request of method `M` (checked against the schema of the revision in use). */
export type InputResult<M extends InputMethod> = CallResult<M>;
/**
 * An input request as the runtime handles it, whatever its method (the typed {@link InputRequest} is what a
 * handler writes; its params reach the client checked by the schema: handshake, the client's; 2026-07-28, the
 * InputRequiredResult check of the result carrying them).
 */
export interface WireInputRequest {
  readonly method: string;
  readonly params?: JsonObject;
}
/** The answers to several input requests, by key. */
export type InputResults<R extends Readonly<Record<string, InputRequest>>> = { -readonly [K in keyof R]: InputResult<R[K]['method']> };

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
  /**
   * The client's capabilities: negotiated once (handshake era) or declared on this request (2026-07-28),
   * checked by the schema of the revision in use; typed as the newest revision's.
   */
  readonly clientCapabilities: Open<ClientCapabilities>;
  /** The client's identity (initialize's clientInfo, or the request's `_meta` clientInfo), when it sent one. */
  readonly clientInfo: Open<Implementation> | undefined;
  /**
   * Who is calling: the access token the HTTP request carrying this request presented, as the server's
   * `authorization` verified it (`McpHttpOptions.authorization`, e.g. `protectedResource` of
   * `@wiregen/runtime/auth`). Per request, also in a handshake-era session: each POST's own token. Undefined
   * without HTTP authorization, and on stdio, which has no token
   * (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization: stdio servers take their
   * credentials from the environment instead).
   */
  readonly auth?: AuthInfo | undefined;
  /** Sends notifications/progress when the request asked for it (a progressToken); otherwise nothing. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends notifications/message when the client's log level admits `level`; otherwise nothing. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the client for input. Handshake era: sends the request to the client and waits for its answer.
   * 2026-07-28: returns the answer carried in the retry's inputResponses, or ends this round with an
   * input_required result asking for it (the handler runs again on the retry).
   */
  input<M extends InputMethod>(key: string, request: InputRequest<M>): Promise<InputResult<M>>;
  /** Several inputs at once (2026-07-28 asks for all that are missing in one round). */
  inputs<R extends Readonly<Record<string, InputRequest>>>(requests: R): Promise<InputResults<R>>;
  /** Tells subscribed clients that a list changed (listen streams; handshake clients when advertised). */
  listChanged(kind: 'tools' | 'prompts' | 'resources'): void;
  /** Tells subscribers of `uri` that the resource changed. */
  resourceUpdated(uri: string): void;
  /** Data the handler kept on an earlier round (verified requestState), if any. */
  readonly state: unknown;
  /** Data to carry to the next round in a signed requestState (2026-07-28); call it on every round that needs it. */
  keepState(data: unknown): void;
  /**
   * Ends the SSE stream this request is answered on without ending the request (SEP-1699 polling,
   * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery):
   * the client reconnects with Last-Event-ID and gets what was sent meanwhile, then the rest. Only where the
   * transport can resume (Streamable HTTP sessions with `McpHttpOptions.resumability`); a no-op elsewhere.
   */
  closeStream(): void;
}

/**
 * The handlers a server serves: one typed function per method of the newest pin (params and results
 * era-neutral, see `HandlerParams`/`HandlerResult` of `@wiregen/mcp-2026-07-28`).
 *
 * What a handler throws becomes, on every way of writing a server (these handlers, a spec file's or a
 * code-first catalog):
 * - a `JsonRpcError`: that error response as it is (a protocol error, e.g. -32602 for an unknown name);
 * - `InputRequired` (thrown by `ctx.input`): the input_required round (2026-07-28);
 * - anything else (a behaviour's failure), logged once with its stack through `McpServerOptions.log`, then by
 *   `McpServerOptions.thrownErrors`: in `tools/call`, a tool execution error, an `isError` result whose text is
 *   the thrown message (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling;
 *   $def CallToolResult, isError); in any other method, -32603 with the thrown message. Both as the TypeScript
 *   SDK v2 sends them. With `thrownErrors: 'mask'`, the Python SDK's answers instead: "Error executing tool
 *   <name>" and -32603 "Internal error", unless the error is a `PublicError`, whose message is always sent.
 */
export type McpHandlers = ServerHandlers<RequestContext>;

/**
 * The loose shape the runtime dispatches by method name. Params have passed the revision's schema before a
 * handler runs and its result is checked after (`validateResults`), so dispatch does not need the types.
 */
export type Handler = (params: JsonObject, ctx: RequestContext) => unknown;

/**
 * A notification from the client. Loose: the handshake era's notifications (notifications/roots/list_changed…)
 * are not in the newest pin; params are as received.
 */
export type NotificationHandler = (params: JsonObject, ctx: { readonly era: Era | undefined }) => void;

export interface CacheHints {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

export interface McpServerOptions {
  /** Reported as serverInfo (handshake) and result `_meta` io.modelcontextprotocol/serverInfo (2026-07-28). */
  readonly serverInfo: Open<Implementation>;
  readonly instructions?: string;
  /**
   * Where the handshake era's initialize result carries `instructions`: `result` (default; the schema, $def
   * InitializeResult) or `serverInfo`, inside the Implementation (the reference Golden Server,
   * test/golden/README.md). server/discover always has them at the top (the schema, $def DiscoverResult).
   */
  readonly instructionsIn?: 'result' | 'serverInfo';
  /** The revisions server/discover and -32022 list (revisions.ts `advertisedVersions`). Default `stateless`. */
  readonly supportedVersions?: 'stateless' | 'all';
  /**
   * -32601 in the 2026-07-28 era for a method a handshake revision has but 2026-07-28 removed (initialize,
   * ping, logging/setLevel, resources/(un)subscribe): `data` (default), "Method not found" with the method as
   * data (the official SDK), or `revision`, "Method not found: <method> (not part of protocol revision
   * 2026-07-28)" without data (the reference Golden Server). A method no revision has, and every -32601 of the
   * handshake era, is always the former (the SDK's recorded sessions, test/helpers/legacy-oracle.ts).
   */
  readonly methodNotFound?: 'data' | 'revision';
  /**
   * Capabilities advertised by initialize (handshake; typed as the newest handshake revision's) and by
   * server/discover (2026-07-28).
   */
  readonly capabilities: { readonly handshake: Open<HandshakeServerCapabilities>; readonly stateless: Open<ServerCapabilities> };
  /**
   * One handler per method the server serves (tools/call, resources/read, …), typed by the newest pin. The
   * runtime answers server/discover, subscriptions/listen, ping, logging/setLevel and resources/(un)subscribe
   * itself; a method without a handler is -32601.
   */
  readonly handlers: McpHandlers;
  /** Notifications from the client, by method (notifications/cancelled and notifications/initialized are the runtime's). */
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
  /**
   * Where failures are reported, one line each (a thrown error's with its stack): a behaviour's thrown error,
   * a result the schema rejects, a response that cannot be written. Default: stderr (never stdout, which a
   * stdio server keeps for protocol messages).
   */
  readonly log?: (line: string) => void;
  /**
   * What the client reads of an error a handler throws (not a JsonRpcError): `show` (default), its message
   * (tools/call: an isError result; other methods: -32603), as the TypeScript SDK v2; `mask`, "Error executing
   * tool <name>" and -32603 "Internal error", as the Python SDK, but a `PublicError`'s message all the same.
   * Logged either way (`log`). See {@link McpHandlers}.
   */
  readonly thrownErrors?: ThrownErrors;
  /**
   * The longest one incoming request may run, in ms: past it, its signal aborts and it is answered -32001
   * "Request timed out after N ms" (PeerOptions.handlerTimeoutMs). Default 0: no limit (a listen stream runs
   * until it ends; with a limit, it is cut at the limit too).
   */
  readonly requestTimeoutMs?: number;
  /**
   * MCP extensions served on top of 2026-07-28 (mcp/extensions.ts), each advertised under
   * `capabilities.extensions` of server/discover: `new McpTasks()` (`@wiregen/runtime/mcp/ext/tasks`),
   * `new McpSkills({ skills })` (`@wiregen/runtime/mcp/ext/skills`). Default none.
   */
  readonly extensions?: readonly McpServerExtension[];
  /**
   * Change notifications shared with other instances of this server (README, Deployment): what this one
   * announces (listChanged, resourceUpdated) is published, and what the others publish reaches this one's
   * clients (listen streams, handshake clients). E.g. `mcpNotificationBus` of `@wiregen/runtime/a2a/postgres`.
   * Default: none (this process's clients only).
   */
  readonly notificationBus?: NotificationBus;
}

/** A catalog change one instance announces to the others (see McpServerOptions.notificationBus). */
export type CatalogChange = { readonly list: 'tools' | 'prompts' | 'resources' } | { readonly resource: string };

/** Carries catalog changes between the instances of one server; each instance's own come back to it or not. */
export interface NotificationBus {
  publish(change: CatalogChange): Promise<void>;
  /** Calls `listener` with the changes other instances publish; returns what stops it. */
  subscribe(listener: (change: CatalogChange) => void): () => void;
}
