/**
 * @module sdk/context — the context an SDK v2 callback receives (`ctx.mcpReq.*`, `ctx.http?`), made from the
 * RequestContext wiregen gives its handlers. Notifications, logs and input requests go through the runtime's
 * context, so they follow the era's rules: progress only for a request that asked for it (a progressToken),
 * log messages at the level the client set (handshake: logging/setLevel; 2026-07-28: the request's _meta),
 * elicitation and sampling sent to the client (handshake) or asked in an input_required round (2026-07-28,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr).
 */
import type { CallParams, CallResult, LoggingLevel } from '@wiregen/mcp-2026-07-28';
import { isObject, type JsonObject, type RequestId } from '../jsonrpc/message.ts';
import type { AuthInfo as WireAuthInfo, RequestContext } from '../mcp/server/types.ts';
import { ProtocolError, ProtocolErrorCode } from './errors.ts';

/** The elicitation/create params (form or URL mode) and answer. */
export type ElicitRequestParams = CallParams<'elicitation/create'>;
export type ElicitResult = CallResult<'elicitation/create'>;
export type CreateMessageRequestParams = CallParams<'sampling/createMessage'>;
export type CreateMessageResult = CallResult<'sampling/createMessage'>;
/** A notification as the SDK's `notify` takes it. */
export interface Notification {
  readonly method: string;
  readonly params?: JsonObject;
}
/** Per-call options of `elicitInput`, `requestSampling` and `send` (accepted; the runtime's own timeout applies). */
export interface RequestOptions {
  readonly timeout?: number;
  readonly signal?: AbortSignal;
}
/** What the SDK's `ctx.http.authInfo` carries (a verified bearer token). */
export interface AuthInfo {
  readonly token: string;
  readonly clientId: string;
  readonly scopes: string[];
  readonly expiresAt?: number;
  readonly resource?: URL;
  readonly extra?: Record<string, unknown>;
}

/**
 * The token wiregen's HTTP authorization verified (RequestContext.auth) as the SDK's AuthInfo: the same
 * token, client, scopes, expiry and resource; the subject, audience and claims under `extra`. A token that
 * names no client has `clientId` "" (the SDK's field is required).
 */
export function sdkAuthInfo(auth: WireAuthInfo): AuthInfo {
  let resource: URL | undefined;
  try {
    resource = auth.resource === undefined ? undefined : new URL(auth.resource);
  } catch {
    resource = undefined;
  }
  return {
    token: auth.token,
    clientId: auth.clientId ?? '',
    scopes: [...auth.scopes],
    ...(auth.expiresAt !== undefined ? { expiresAt: auth.expiresAt } : {}),
    ...(resource ? { resource } : {}),
    extra: { ...(auth.subject !== undefined ? { subject: auth.subject } : {}), audience: [...auth.audience], claims: auth.claims },
  };
}

/** The context of an SDK callback (the SDK's `ServerContext`): what callbacks read of the request. */
export interface ServerContext {
  readonly sessionId?: string;
  readonly mcpReq: {
    readonly id: RequestId;
    readonly method: string;
    /** The request's `_meta` without the reserved `io.modelcontextprotocol/*` keys (e.g. `progressToken`). */
    readonly _meta?: JsonObject;
    /** The reserved `io.modelcontextprotocol/*` keys the request carried (2026-07-28), when it carried any. */
    readonly envelope?: JsonObject;
    /** Aborted when the client cancels the request or goes away. */
    readonly signal: AbortSignal;
    /** The state an earlier round kept (2026-07-28 requestState), if any. */
    requestState<T = unknown>(): T | undefined;
    /** Sends a notification tied to this request: progress and log messages (others are not sent). */
    notify(notification: Notification): Promise<void>;
    /** notifications/message at `level`, when the client's level admits it. */
    log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
    /** Asks the client for input with elicitation/create and resolves with its answer. */
    elicitInput(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult>;
    /** Asks the client to sample with sampling/createMessage and resolves with its answer. */
    requestSampling(params: CreateMessageRequestParams, options?: RequestOptions): Promise<CreateMessageResult>;
    /** A request to the client (elicitation/create, sampling/createMessage, roots/list). */
    send(request: { readonly method: string; readonly params?: JsonObject }, options?: RequestOptions): Promise<JsonObject>;
  };
  readonly http?: { readonly authInfo?: AuthInfo; readonly req?: Request };
}

/** The request's `_meta` split into the reserved keys (envelope) and the rest, as the SDK hands them over. */
function splitMeta(params: JsonObject): { meta?: JsonObject; envelope?: JsonObject } {
  const all = params['_meta'];
  if (!isObject(all)) return {};
  const meta: JsonObject = {};
  const envelope: JsonObject = {};
  for (const [k, v] of Object.entries(all)) (k.startsWith('io.modelcontextprotocol/') ? envelope : meta)[k] = v;
  return { meta, ...(Object.keys(envelope).length ? { envelope } : {}) };
}

/** The input methods a callback may send to the client, and the capability each needs (handshake era). */
const INPUT_METHODS: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/**
 * The context for one callback. Input requests are keyed by their order in the callback (`sdk:1`, `sdk:2`, …):
 * in 2026-07-28 the callback runs again on the retry and asks the same things in the same order, so the keys
 * find the answers the client carried.
 */
export function serverContext(ctx: RequestContext, params: JsonObject, http?: ServerContext['http']): ServerContext {
  // `http`: what createMcpHandler was handed with the request; else the token wiregen's authorization verified.
  const { meta, envelope } = splitMeta(params);
  let asked = 0;
  const ask = async (method: string, requestParams: object | undefined): Promise<unknown> => {
    const capability = INPUT_METHODS[method];
    if (!capability) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not supported from a callback: ${method}`);
    // The SDK refuses before anything is sent when the client did not declare the capability (handshake era);
    // 2026-07-28 answers -32021 for it in the input_required round (stateless/input-required.ts).
    if (ctx.era === 'handshake' && ctx.clientCapabilities[capability] === undefined) {
      const url = method === 'elicitation/create' && (requestParams as { mode?: unknown } | undefined)?.mode === 'url';
      const mode = method === 'elicitation/create' ? (url ? 'url ' : 'form ') : '';
      throw new Error(`Client does not support ${mode}${capability}.`);
    }
    asked += 1;
    const request = requestParams === undefined ? { method } : { method, params: requestParams };
    // The request goes out as written and the answer is checked against the revision's schema (RequestContext.input).
    return ctx.input(`sdk:${asked}`, request as never);
  };
  return {
    mcpReq: {
      id: ctx.id,
      method: ctx.method,
      ...(meta ? { _meta: meta } : {}),
      ...(envelope ? { envelope } : {}),
      get signal() {
        return ctx.signal;
      },
      requestState: <T>() => ctx.state as T | undefined,
      notify: async (n) => {
        const p = n.params ?? {};
        if (n.method === 'notifications/progress')
          ctx.progress(p['progress'] as number, p['total'] as number | undefined, p['message'] as string | undefined);
        else if (n.method === 'notifications/message') ctx.log(p['level'] as LoggingLevel, p['data'], p['logger'] as string | undefined);
      },
      log: async (level, data, logger) => ctx.log(level, data, logger),
      elicitInput: async (p) => (await ask('elicitation/create', p)) as ElicitResult,
      requestSampling: async (p) => (await ask('sampling/createMessage', p)) as CreateMessageResult,
      send: async (request) => (await ask(request.method, request.params)) as JsonObject,
    },
    ...(http ? { http } : ctx.auth ? { http: { authInfo: sdkAuthInfo(ctx.auth) } } : {}),
  };
}
