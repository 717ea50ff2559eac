/**
 * @module a2a/client — transports for the generated A2A client (generated/a2a-1.0/client.ts): the JSON-RPC
 * binding and the HTTP+JSON binding over fetch, with the `A2A-Version` header and Server-Sent Events for the
 * streaming methods. `connect` reads an agent card and picks an interface.
 */
import { pin, validators, type ClientTransport, type MethodEntry } from '@wiregen/a2a-1.0';
import type { A2aCredentials } from '../auth/a2a.ts';
import { A2aClient } from './client-list.ts';
import { cardUrl, InvalidAgentCardError, readCard } from './client-card.ts';
import { A2A_ERROR_TYPES, reasonOf } from './errors.ts';
import { BodyEncodingError } from '../transports/bounded-body.ts';
import { A2A_CLIENT_LIMIT_DEFAULTS, boundedBody, boundedSseJson, LimitExceeded, parseBounded, type A2aClientLimits } from './client-limits.ts';
import type { AgentCard } from './types.ts';
import { paramsInWireOrder, protoJsonName } from './wire-order.ts';

/** A field a request got wrong, as the agent named it (google.rpc.BadRequest fieldViolations, or ErrorInfo metadata). */
export interface ClientFieldViolation {
  readonly field: string;
  readonly description: string;
}

/**
 * An error the agent answered (a JSON-RPC error, or a google.rpc.Status over HTTP+JSON), the same on both
 * bindings: `type` is the A2A error type (§3.3.2, §9.5: `TaskNotFoundError`, `InvalidParamsError`), `code` its
 * JSON-RPC code (§5.4: -32001 over HTTP+JSON too, where the HTTP status is `status`), and the message says both
 * with the reason: `TaskNotFoundError: Task not found`, `InvalidParamsError: Validation failed: url: Webhook host
 * 127.0.0.1 is not allowed.` (the field violations the agent sent in its details).
 */
export class A2aClientError extends Error {
  /** The JSON-RPC code of the error type (the HTTP status for an HTTP failure that carries no A2A error). */
  readonly code: number;
  /** The A2A error type (`TaskNotFoundError`), when the answer names one. */
  readonly type: string | undefined;
  /** The google.rpc.ErrorInfo `reason` (`TASK_NOT_FOUND`), when the answer has one. */
  readonly reason: string | undefined;
  /** The fields the agent said were wrong. */
  readonly violations: readonly ClientFieldViolation[];
  /** The agent's own message, as it sent it (`Validation failed`). */
  readonly agentMessage: string;
  /** JSON-RPC `error.data`, google.rpc.Status `details`, or the body of an HTTP failure. */
  readonly data: unknown;
  /** The HTTP status, when it was not 200 (always, for errors of the HTTP+JSON binding). */
  readonly status: number | undefined;
  /** The `WWW-Authenticate` challenge of a 401 (or 403) answer, if any. */
  readonly challenge: string | undefined;
  constructor(code: number, message: string, data?: unknown, status?: number, challenge?: string, grpcStatus?: string) {
    const { type, reason, violations, jsonRpcCode } = errorType(code, data, grpcStatus);
    const why = violations.map((v) => (v.field ? `${v.field}: ${v.description}` : v.description)).join('; ');
    super(`${type ? `${type}: ` : ''}${message}${why && !message.includes(why) ? `: ${why}` : ''}`);
    this.name = 'A2aClientError';
    this.code = jsonRpcCode;
    this.type = type;
    this.reason = reason;
    this.violations = violations;
    this.agentMessage = message;
    this.data = data;
    this.status = status;
    this.challenge = challenge;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TYPE_OF_REASON = new Map(Object.keys(A2A_ERROR_TYPES).map((type) => [reasonOf(type), type]));
const TYPE_OF_CODE = new Map<number, string>(Object.entries(A2A_ERROR_TYPES).map(([type, { code }]) => [code, type]));
/** Over HTTP+JSON, the error types a google.rpc.Status without an ErrorInfo stands for (§11.6 requires one for A2A's own errors). */
const TYPE_OF_GRPC: Readonly<Record<string, string>> = {
  UNIMPLEMENTED: 'MethodNotFoundError',
  INTERNAL: 'InternalError',
  // What this runtime and the official SDK answer without a reason: a body that could not be read as a request.
  INVALID_ARGUMENT: 'InvalidRequestError',
};

/**
 * The error type an answer names: its ErrorInfo reason (§9.5 `data`, §11.6 `details`), else the JSON-RPC code
 * (`grpcStatus` undefined: the JSON-RPC binding, §9.5's standard codes), else the google.rpc.Status status name;
 * with the field violations of its BadRequest (or of the ErrorInfo metadata `errors`, as the official SDK adds).
 */
function errorType(
  code: number,
  data: unknown,
  grpcStatus: string | undefined,
): { type: string | undefined; reason: string | undefined; violations: ClientFieldViolation[]; jsonRpcCode: number } {
  const details = Array.isArray(data) ? data.filter(isRecord) : [];
  const typeUrl = (d: Record<string, unknown>) => String(d['@type'] ?? '');
  const info = details.find((d) => typeUrl(d).endsWith('google.rpc.ErrorInfo'));
  const reason = typeof info?.['reason'] === 'string' ? info['reason'] : undefined;
  const badRequest = details.find((d) => typeUrl(d).endsWith('google.rpc.BadRequest'));
  const listed = Array.isArray(badRequest?.['fieldViolations'])
    ? (badRequest['fieldViolations'] as unknown[])
        .filter(isRecord)
        .map((v) => ({ field: String(v['field'] ?? ''), description: String(v['description'] ?? '') }))
    : isRecord(info?.['metadata']) && Array.isArray(info['metadata']['errors'])
      ? (info['metadata']['errors'] as unknown[])
          .filter(isRecord)
          .map((v) => ({ field: String(v['field'] ?? ''), description: String(v['message'] ?? '') }))
      : [];
  const violations = listed.filter((v) => v.description !== '');
  const pascal = (r: string) => `${r.toLowerCase().replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())}Error`;
  const type = reason ? (TYPE_OF_REASON.get(reason) ?? pascal(reason)) : grpcStatus === undefined ? TYPE_OF_CODE.get(code) : TYPE_OF_GRPC[grpcStatus];
  const known = type ? A2A_ERROR_TYPES[type as keyof typeof A2A_ERROR_TYPES] : undefined;
  return { type, reason, violations, jsonRpcCode: grpcStatus === undefined ? code : (known?.code ?? code) };
}

/** An agent's answer past one of the client's limits (TransportOptions.limits); `limit` names the option. */
export class A2aClientLimitError extends A2aClientError {
  readonly limit: keyof A2aClientLimits;
  readonly max: number;
  constructor(limit: keyof A2aClientLimits, max: number, message: string) {
    super(-32603, message, { limit, max });
    this.name = 'A2aClientLimitError';
    this.limit = limit;
    this.max = max;
  }
}

/** Runs `read`, turning a limit or an encoding failure into the client's errors. */
async function within<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw clientError(err);
  }
}

/** A limit, bad bytes, or an answer that broke off or is not JSON (while reading it), as an A2aClientError. */
function clientError(err: unknown): unknown {
  if (err instanceof A2aClientError || !(err instanceof Error)) return err;
  if (err instanceof LimitExceeded) return new A2aClientLimitError(err.limit, err.max, err.message);
  if (err instanceof BodyEncodingError || err instanceof SyntaxError) return new A2aClientError(-32700, err.message);
  return new A2aClientError(-32603, `reading the agent's answer failed: ${err.message}`, undefined, undefined, undefined);
}

/** The JSON payloads of an SSE body within `limits`, errors as the client's. */
async function* sseJson(body: ReadableStream<Uint8Array>, limits: Required<A2aClientLimits>): AsyncIterable<unknown> {
  try {
    yield* boundedSseJson(body, limits);
  } catch (err) {
    throw clientError(err);
  }
}

/** An HTTP failure that carries no A2A error (e.g. a 401 from an authentication layer in front of the agent). */
function httpFailure(res: Response, text: string): A2aClientError {
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const challenge = res.headers.get('www-authenticate') ?? undefined;
  const message = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}`;
  return new A2aClientError(res.status, message, data, res.status, challenge);
}

export interface TransportOptions {
  /** Extra headers on every request (e.g. Authorization). */
  readonly headers?: Record<string, string>;
  /** The A2A version sent in `A2A-Version`. Default 1.0. */
  readonly version?: string;
  readonly fetch?: typeof fetch;
  /**
   * Credentials for the card's security schemes (`connect` only): presented as its `securityRequirements`
   * ask (bearer, API key, OAuth 2), by `@wiregen/runtime/auth`, loaded only then. Default none.
   */
  readonly auth?: A2aCredentials;
  /** What the client reads of an answer; past a limit the call fails with A2aClientLimitError. Defaults: A2A_CLIENT_LIMIT_DEFAULTS. */
  readonly limits?: A2aClientLimits;
}

function headersOf(options: TransportOptions, json: boolean): Record<string, string> {
  return { ...(json ? { 'content-type': 'application/json' } : {}), 'a2a-version': options.version ?? pin.revision, ...options.headers };
}

/** The JSON-RPC binding: one endpoint, a POST per call. */
export function jsonRpcTransport(endpoint: string, options: TransportOptions = {}): ClientTransport {
  const post = options.fetch ?? fetch;
  const limits = { ...A2A_CLIENT_LIMIT_DEFAULTS, ...options.limits };
  let next = 1;
  const call = async (method: string, params: unknown, accept: string) => {
    const res = await post(endpoint, {
      method: 'POST',
      headers: { ...headersOf(options, true), accept },
      body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params: paramsInWireOrder(method, params) }),
    });
    return res;
  };
  type Envelope = { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  const unwrap = (message: Envelope, status?: number) => {
    if (message.error) throw new A2aClientError(message.error.code, message.error.message, message.error.data, status);
    if (!('result' in message)) throw new A2aClientError(-32603, 'the response has neither result nor error', message, status);
    return message.result;
  };
  /** A non-streamed answer: a JSON-RPC envelope (whatever the status), else an HTTP failure. */
  const answer = async (res: Response) => {
    const text = await within(() => boundedBody(res, limits));
    let message: unknown;
    try {
      message = parseBounded(text, limits);
    } catch (err) {
      if (err instanceof LimitExceeded) throw clientError(err);
      throw httpFailure(res, text);
    }
    const envelope = message !== null && typeof message === 'object' && (message as { jsonrpc?: unknown }).jsonrpc === '2.0';
    if (!envelope) throw res.ok ? new A2aClientError(-32603, 'the response is not a JSON-RPC message', message, undefined) : httpFailure(res, text);
    return unwrap(message as Envelope, res.ok ? undefined : res.status);
  };
  return {
    async request(method, params, entry) {
      const result = await answer(await call(method, params, 'application/json'));
      // google.protobuf.Empty (DeleteTaskPushNotificationConfig): the official SDKs answer null over JSON-RPC, the
      // ProtoJSON of Empty is {}; both are taken, as {}.
      return result === null && entry.result === validators.Empty ? {} : result;
    },
    async *stream(method, params) {
      const res = await call(method, params, 'text/event-stream');
      if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await answer(res);
        throw new A2aClientError(-32603, 'the agent answered a streaming call with a single result', undefined, res.ok ? undefined : res.status);
      }
      // Each event of a JSON-RPC stream is a JSON-RPC response; unwrap reads its result or its error.
      for await (const message of sseJson(res.body!, limits)) yield unwrap(message as Envelope);
    },
  };
}

/** Fills a route's path template from the params; the rest go in the query (GET, DELETE) or the body. */
function routeRequest(entry: MethodEntry, params: Record<string, unknown>): { verb: string; path: string; query: URLSearchParams; body: unknown } {
  const route = entry.http[0];
  if (!route) throw new Error(`${entry.method} has no HTTP+JSON route`);
  const rest = { ...params };
  const path = route.path.replace(/\{([a-z_]+)(?:=\*)?\}/g, (_, field: string) => {
    const name = protoJsonName(field);
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  const query = new URLSearchParams();
  if (route.body !== '*') for (const [k, v] of Object.entries(rest)) if (v !== undefined) query.set(k, String(v));
  return { verb: route.verb, path, query, body: route.body === '*' ? rest : undefined };
}

type Status = { error: { code: number; status?: unknown; message?: unknown; details?: unknown } };
/** A google.rpc.Status body (§11.6): `{ error: { code, status, message, details } }`, and nothing else. */
function isStatus(body: unknown): body is Status {
  return isRecord(body) && Object.keys(body).length === 1 && isRecord(body['error']) && typeof body['error']['code'] === 'number';
}
function statusError({ error }: Status, httpStatus: number | undefined, challenge: string | undefined): A2aClientError {
  const message = typeof error.message === 'string' ? error.message : `HTTP ${error.code}`;
  const grpc = typeof error.status === 'string' ? error.status : '';
  return new A2aClientError(error.code, message, error.details, httpStatus ?? error.code, challenge, grpc);
}

/** The HTTP+JSON binding: the routes of the proto's google.api.http annotations under `baseUrl`. */
export function restTransport(baseUrl: string, options: TransportOptions = {}): ClientTransport {
  const send = options.fetch ?? fetch;
  const limits = { ...A2A_CLIENT_LIMIT_DEFAULTS, ...options.limits };
  const base = baseUrl.replace(/\/$/, '');
  const call = async (entry: MethodEntry, params: unknown, accept: string) => {
    const { verb, path, query, body } = routeRequest(entry, paramsInWireOrder(entry.method, params ?? {}) as Record<string, unknown>);
    const qs = query.toString();
    const res = await send(`${base}${path}${qs ? `?${qs}` : ''}`, {
      method: verb,
      headers: { ...headersOf(options, body !== undefined), accept },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) {
      const text = await within(() => boundedBody(res, limits));
      let status: unknown;
      try {
        status = parseBounded(text, limits);
      } catch (err) {
        if (err instanceof LimitExceeded) throw clientError(err);
      }
      throw isStatus(status) ? statusError(status, res.status, res.headers.get('www-authenticate') ?? undefined) : httpFailure(res, text);
    }
    return res;
  };
  return {
    async request(_method, params, entry) {
      const res = await call(entry, params, 'application/json');
      const text = await within(() => boundedBody(res, limits));
      if (text === '') return {};
      try {
        return parseBounded(text, limits);
      } catch (err) {
        throw clientError(err);
      }
    },
    async *stream(_method, params, entry) {
      const res = await call(entry, params, 'text/event-stream');
      // An error after the stream began is one more event, a google.rpc.Status (§11.7), then the end.
      for await (const event of sseJson(res.body!, limits)) {
        if (isStatus(event)) throw statusError(event, undefined, undefined);
        yield event;
      }
    },
  };
}

/**
 * Reads the agent card at `baseUrl` and returns a client on it (clientForCard: `binding` chooses the interface).
 * A card that is not JSON, not a valid AgentCard, names a scheme it does not define, or lists no interface of
 * `binding` is an InvalidAgentCardError naming where (client-card.ts), before any credential is looked at.
 */
export async function connect(
  baseUrl: string,
  options: TransportOptions & { readonly binding?: Binding } = {},
): Promise<{ card: AgentCard; client: A2aClient }> {
  const limits = { ...A2A_CLIENT_LIMIT_DEFAULTS, ...options.limits };
  const card = await readCard(baseUrl, options.fetch ?? fetch, options.headers ?? {}, limits).catch((err: unknown) => {
    throw err instanceof InvalidAgentCardError ? err : clientError(err);
  });
  if (card instanceof Response) throw new A2aClientError(card.status, `agent card: HTTP ${card.status}`, undefined, card.status);
  const authorized = options.auth
    ? (await import('../auth/a2a.ts')).a2aClientAuth(card, { ...(options.fetch ? { fetch: options.fetch } : {}), ...options.auth }).fetch
    : options.fetch;
  const chosen = clientForCard(card, { ...options, ...(authorized ? { fetch: authorized } : {}) });
  if (!chosen) {
    const listed = card.supportedInterfaces.map((i) => JSON.stringify(i.protocolBinding)).join(', ');
    throw new InvalidAgentCardError(cardUrl(baseUrl), card, 'cannot be used', [
      { pointer: '/supportedInterfaces', message: `lists no ${options.binding ?? 'JSONRPC or HTTP+JSON'} interface (it lists ${listed})` },
    ]);
  }
  return { card, client: chosen.client };
}

/** The bindings this client speaks, as the card's `protocolBinding` names them. */
export type Binding = 'JSONRPC' | 'HTTP+JSON';

/**
 * A client on the card's first interface of `binding` (default: its first JSON-RPC interface, else its first
 * HTTP+JSON one); undefined when it has none.
 */
export function clientForCard(
  card: AgentCard,
  options: TransportOptions & { readonly binding?: Binding } = {},
): { interface: AgentCard['supportedInterfaces'][number]; client: A2aClient } | undefined {
  const find = (binding: Binding) => card.supportedInterfaces.find((i) => i.protocolBinding === binding);
  const jsonRpc = options.binding === 'HTTP+JSON' ? undefined : find('JSONRPC');
  if (jsonRpc) return { interface: jsonRpc, client: new A2aClient(jsonRpcTransport(jsonRpc.url, options)) };
  const rest = options.binding === 'JSONRPC' ? undefined : find('HTTP+JSON');
  if (rest) return { interface: rest, client: new A2aClient(restTransport(rest.url, options)) };
  return undefined;
}
