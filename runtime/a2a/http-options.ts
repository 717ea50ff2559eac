/**
 * @module a2a/http-options — what an A2A agent's HTTP serving takes (A2aHttpOptions), and the authentication
 * hook every adapter runs before any A2A method (Authenticate): the types the handler (http.ts), the agent
 * server and its card security (security.ts) share.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '../auth/info.ts';
import type { HeaderRecord } from '../transports/exchange.ts';
import type { HttpServerTimeouts } from '../transports/http.ts';
import type { OutboundLimits } from '../transports/transport.ts';

/** What `authenticate` reads of a request: a node:http IncomingMessage is one (node adapters pass it as is). */
export interface AuthRequest {
  readonly method?: string | undefined;
  /** The request target (path and query). */
  readonly url?: string | undefined;
  /** The headers, lower-case names (repeats joined, as node:http joins them). */
  readonly headers: HeaderRecord;
}

/** Whether the request may proceed, and who is calling when it can say. May be async (a token check). */
export type Authenticate = (req: AuthRequest) => AuthResult | Promise<AuthResult>;
/** `auth`, when given, reaches the executor as `ctx.auth` (SendMessage, SendStreamingMessage). */
export type AuthResult = { readonly ok: true; readonly auth?: AuthInfo | undefined } | { readonly ok: false; readonly challenge: string };

/**
 * Besides its own options: the bounds of each SSE answer's outbound queue (OutboundLimits, transports/transport.ts:
 * an answer the client does not read is aborted past maxQueueBytes, 16 MiB) and, for `listenA2aHttp` only, the
 * node:http server's timeouts (HttpServerTimeouts, transports/http.ts).
 */
export interface A2aHttpOptions extends OutboundLimits, HttpServerTimeouts {
  /** The JSON-RPC endpoint. Default: the path of the card's JSONRPC interface URL, else `/a2a`. */
  readonly jsonRpcPath?: string;
  /** Prefix of the HTTP+JSON routes. Default: the path of the card's HTTP+JSON interface URL, else none. */
  readonly restPath?: string;
  /**
   * Runs before any A2A method (not the public card): a refusal is HTTP 401 with its WWW-Authenticate challenge.
   * Default: the agent's own (A2aServerOptions `http.authenticate`), else its card's requirements checked by its
   * `verifiers` (security.ts). A card that requires a scheme with none of these to check it does not serve.
   */
  readonly authenticate?: Authenticate;
  /**
   * Extra routes the agent serves outside A2A, tried after the card and before authentication; returns true
   * when it answered. They take node's req/res, so only the node:http adapters run them (`listenA2aHttp`,
   * `a2aNodeHandler`, `a2aExpress`); the fetch handler refuses the option (route in front of it instead).
   */
  readonly routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;
  /**
   * Where clients reach the agent (e.g. `https://agents.example.com/research` behind a proxy): the cards'
   * interface URLs are advertised under it, their paths kept (the routes stay at those paths). Default: the
   * card as given (A2aServer.advertiseAt changes it later, e.g. to the port `listenA2aHttp` got).
   */
  readonly publicUrl?: string;
  /** Largest request body. Default 4 MiB (413 beyond). */
  readonly maxBodyBytes?: number;
  /** How long a client may take to send its body. Default 30 s (408 after). */
  readonly bodyTimeoutMs?: number;
}
