/**
 * @module a2a/client — transports for the generated A2A client (generated/a2a-1.0/client.ts): the JSON-RPC
 * binding and the HTTP+JSON binding over fetch, with the `A2A-Version` header and Server-Sent Events for the
 * streaming methods. `connect` reads an agent card and picks an interface.
 */
import { pin, validators, type ClientTransport, type MethodEntry } from '@wiregen/a2a-1.0';
import type { A2aCredentials } from '../auth/a2a.ts';
import { A2aClient } from './client-list.ts';
import { sseEvents } from '../transports/sse.ts';
import type { AgentCard } from './types.ts';
import { paramsInWireOrder, protoJsonName } from './wire-order.ts';

/** An error the agent answered (JSON-RPC error, or google.rpc.Status over HTTP+JSON). */
export class A2aClientError extends Error {
  readonly code: number;
  readonly data: unknown;
  /** The HTTP status, when it was not 200 (always, for errors of the HTTP+JSON binding). */
  readonly status: number | undefined;
  /** The `WWW-Authenticate` challenge of a 401 (or 403) answer, if any. */
  readonly challenge: string | undefined;
  constructor(code: number, message: string, data?: unknown, status?: number, challenge?: string) {
    super(message);
    this.name = 'A2aClientError';
    this.code = code;
    this.data = data;
    this.status = status;
    this.challenge = challenge;
  }
}

/** An HTTP failure that carries no A2A error (e.g. a 401 from an authentication layer in front of the agent). */
async function httpFailure(res: Response): Promise<A2aClientError> {
  const text = await res.text().catch(() => '');
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const challenge = res.headers.get('www-authenticate') ?? undefined;
  return new A2aClientError(res.status, `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, data, res.status, challenge);
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
}

/** The JSON payloads of an SSE body, one per event with data. */
async function* sseJson(body: ReadableStream<Uint8Array>): AsyncIterable<unknown> {
  for await (const event of sseEvents(body)) if (event.data.trim() !== '') yield JSON.parse(event.data);
}

function headersOf(options: TransportOptions, json: boolean): Record<string, string> {
  return { ...(json ? { 'content-type': 'application/json' } : {}), 'a2a-version': options.version ?? pin.revision, ...options.headers };
}

/** The JSON-RPC binding: one endpoint, a POST per call. */
export function jsonRpcTransport(endpoint: string, options: TransportOptions = {}): ClientTransport {
  const post = options.fetch ?? fetch;
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
    const copy = res.clone();
    let message: unknown;
    try {
      message = await res.json();
    } catch {
      throw await httpFailure(copy);
    }
    const envelope = message !== null && typeof message === 'object' && (message as { jsonrpc?: unknown }).jsonrpc === '2.0';
    if (!envelope) throw res.ok ? new A2aClientError(-32603, 'the response is not a JSON-RPC message', message, undefined) : await httpFailure(copy);
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
      for await (const message of sseJson(res.body!)) yield unwrap(message as Envelope);
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

/** The HTTP+JSON binding: the routes of the proto's google.api.http annotations under `baseUrl`. */
export function restTransport(baseUrl: string, options: TransportOptions = {}): ClientTransport {
  const send = options.fetch ?? fetch;
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
      const copy = res.clone();
      const status = (await res.json().catch(() => undefined)) as { error?: { code?: number; message?: string; details?: unknown } } | undefined;
      if (typeof status?.error?.code !== 'number') throw await httpFailure(copy);
      throw new A2aClientError(
        status.error.code,
        status.error.message ?? res.statusText,
        status.error.details,
        res.status,
        res.headers.get('www-authenticate') ?? undefined,
      );
    }
    return res;
  };
  return {
    async request(_method, params, entry) {
      const res = await call(entry, params, 'application/json');
      const text = await res.text();
      return text === '' ? {} : JSON.parse(text);
    },
    async *stream(_method, params, entry) {
      const res = await call(entry, params, 'text/event-stream');
      yield* sseJson(res.body!);
    },
  };
}

/** Reads the agent card at `baseUrl` and returns a client on it (clientForCard: `binding` chooses the interface). */
export async function connect(
  baseUrl: string,
  options: TransportOptions & { readonly binding?: Binding } = {},
): Promise<{ card: AgentCard; client: A2aClient }> {
  const get = options.fetch ?? fetch;
  const res = await get(new URL('/.well-known/agent-card.json', baseUrl), { headers: options.headers ?? {} });
  if (!res.ok) throw new A2aClientError(res.status, `agent card: HTTP ${res.status}`, undefined, res.status);
  const card = (await res.json()) as AgentCard;
  const authorized = options.auth
    ? (await import('../auth/a2a.ts')).a2aClientAuth(card, { ...(options.fetch ? { fetch: options.fetch } : {}), ...options.auth }).fetch
    : options.fetch;
  const chosen = clientForCard(card, { ...options, ...(authorized ? { fetch: authorized } : {}) });
  if (!chosen) throw new A2aClientError(-32004, `the agent card lists no ${options.binding ?? 'JSONRPC or HTTP+JSON'} interface`);
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
