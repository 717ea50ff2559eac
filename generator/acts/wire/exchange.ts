/**
 * @module acts/wire/exchange — one request to the agent under test and what came back, for a step: an
 * abstract operation on the JSON-RPC or HTTP+JSON binding (§4.1, §12.3, §12.4: the `A2A-Version` header is the
 * document's spec_version, a JSON-RPC envelope wraps the params and is taken off the answer), or a raw
 * request sent as written (§4.4). Streamed answers (Server-Sent Events) are read to their end or the timeout.
 */
import { sseEvents } from '@wiregen/runtime/transports';
import { type AnsweredError, jsonRpcError, restError } from './errors.ts';
import { OPERATIONS, restRequest, wireParams } from './operations.ts';

export type Binding = 'jsonrpc' | 'rest';

/** Where the agent is, as its card says, and how to talk to it. */
export interface Target {
  readonly binding: Binding;
  /** The agent's base URL (where /.well-known/agent-card.json is). */
  readonly base: string;
  /** The URL of the card's interface of this binding. */
  readonly url: string;
  readonly specVersion: string;
  readonly timeoutMs: number;
}

/** What a step's request got. */
export interface Outcome {
  /** `POST http://…/jsonrpc SendMessage`, for reports. */
  readonly request: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The assertion root (§4.2): the unwrapped A2A object, the raw body, or `{error: {code, message, data}}`. */
  readonly body: unknown;
  /** The A2A error the answer carried (the whole answer, or a streamed event). */
  readonly error?: AnsweredError;
  /** A streamed answer's events: StreamResponse objects (abstract), or each event's JSON as sent (raw). */
  readonly events?: readonly unknown[];
  /** Whether a streamed answer ended before the timeout. */
  readonly closed?: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
let nextId = 1;

async function send(url: string, init: RequestInit, timeoutMs: number): Promise<{ res: Response; signal: AbortSignal }> {
  const signal = AbortSignal.timeout(timeoutMs);
  return { res: await fetch(url, { ...init, signal }), signal };
}

/** The JSON payloads of an SSE body (a payload that is not JSON is kept as its text); `closed` false on timeout. */
async function readEvents(res: Response): Promise<{ events: unknown[]; closed: boolean }> {
  const events: unknown[] = [];
  try {
    for await (const e of sseEvents(res.body!)) {
      if (e.data.trim() === '') continue;
      try {
        events.push(JSON.parse(e.data));
      } catch {
        events.push(e.data);
      }
    }
    return { events, closed: true };
  } catch (e) {
    if ((e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError') return { events, closed: false };
    throw e;
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const headersOf = (res: Response) => Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
const isSse = (res: Response) => (res.headers.get('content-type') ?? '').includes('text/event-stream');
const errorRoot = (e: AnsweredError) => ({ error: { type: e.type, code: e.code, message: e.message, data: e.data } });

/**
 * Runs abstract `operation` with `params` (already interpolated). `get_agent_card` is an HTTP GET of the card
 * on either binding; with `extended: true` in its params (as SEC-EXTCARD-003 writes it) it is
 * GetExtendedAgentCard.
 */
export async function runOperation(target: Target, operation: string, params: Record<string, unknown>): Promise<Outcome> {
  const op = OPERATIONS[operation]!;
  let method = op.method;
  const rest = { ...params };
  if (method === undefined && rest['extended'] === true) {
    method = 'GetExtendedAgentCard';
    delete rest['extended'];
  }
  const accept = op.streaming ? 'text/event-stream' : 'application/json';
  const common = { 'a2a-version': target.specVersion, accept };
  if (method === undefined) {
    const url = new URL('/.well-known/agent-card.json', target.base).href;
    const { res } = await send(url, { headers: common }, target.timeoutMs);
    const body = await readBody(res);
    return { request: `GET ${url}`, status: res.status, headers: headersOf(res), body };
  }
  const wire = wireParams(method, rest);
  if (target.binding === 'jsonrpc') {
    const envelope = { jsonrpc: '2.0', id: nextId++, method, params: wire };
    const { res } = await send(
      target.url,
      { method: 'POST', headers: { ...common, 'content-type': 'application/json' }, body: JSON.stringify(envelope) },
      target.timeoutMs,
    );
    const request = `POST ${target.url} ${method}`;
    if (isSse(res)) {
      const { events, closed } = await readEvents(res);
      const results: unknown[] = [];
      let error: AnsweredError | undefined;
      for (const e of events) {
        if (isObj(e) && isObj(e['error'])) error = jsonRpcError(e['error']);
        else results.push(isObj(e) && 'result' in e ? e['result'] : e);
      }
      return {
        request,
        status: res.status,
        headers: headersOf(res),
        body: error ? errorRoot(error) : undefined,
        events: results,
        closed,
        ...(error ? { error } : {}),
      };
    }
    const body = await readBody(res);
    if (isObj(body) && isObj(body['error'])) {
      const error = jsonRpcError(body['error']);
      return { request, status: res.status, headers: headersOf(res), body: errorRoot(error), error };
    }
    return { request, status: res.status, headers: headersOf(res), body: isObj(body) && 'result' in body ? body['result'] : body };
  }
  const { verb, path, body: payload } = restRequest(method, wire);
  const url = `${target.url.replace(/\/$/, '')}${path}`;
  const { res } = await send(
    url,
    {
      method: verb,
      headers: { ...common, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
    },
    target.timeoutMs,
  );
  const request = `${verb} ${url}`;
  if (res.ok && isSse(res)) {
    const { events, closed } = await readEvents(res);
    const results: unknown[] = [];
    let error: AnsweredError | undefined;
    // An error after the stream began is one more event, a google.rpc.Status (A2A 1.0 §11.7).
    for (const e of events)
      if (isObj(e) && Object.keys(e).length === 1 && isObj(e['error'])) error = restError(500, e);
      else results.push(e);
    return {
      request,
      status: res.status,
      headers: headersOf(res),
      body: error ? errorRoot(error) : undefined,
      events: results,
      closed,
      ...(error ? { error } : {}),
    };
  }
  const body = await readBody(res);
  if (!res.ok) {
    const error = restError(res.status, body);
    return { request, status: res.status, headers: headersOf(res), body: errorRoot(error), error };
  }
  // google.protobuf.Empty (DeleteTaskPushNotificationConfig) may come back as no body at all.
  return { request, status: res.status, headers: headersOf(res), body: body ?? {} };
}

/**
 * The URL a raw step's path names: the card's well-known path under the agent's base URL (§8.2 of A2A), any
 * other path under the interface URL of the binding under test, `/` being that URL itself, since the
 * shipped suites post JSON-RPC to `/` and HTTP+JSON routes as `/tasks/…` whatever prefix the agent serves
 * them under.
 */
export function rawUrl(target: Target, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  if (path.startsWith('/.well-known/')) return new URL(path, target.base).href;
  if (path === '/' || path === '') return target.url;
  return `${target.url.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Sends a raw request as written (§4.4): its headers only, its body as JSON or `body_raw` as it is. */
/**
 * A raw body whose message has no `messageId` gets one: §12.4 ("if a request includes a `message` and no
 * `messageId` is specified in the test, the runner MUST auto-generate a unique `messageId`"; a2a.proto's
 * Message.message_id is REQUIRED). The suites' raw sends (a JSON-RPC `params.message`, an HTTP+JSON body's
 * `message`) rely on it; a body written as text (`body_raw`, the malformed-input tests) is never touched.
 */
export function withMessageIds(body: unknown): unknown {
  if (!isObject(body)) return body;
  const fill = (holder: Record<string, unknown>): Record<string, unknown> => {
    const message = holder['message'];
    return isObject(message) && !('messageId' in message) ? { ...holder, message: { messageId: crypto.randomUUID(), ...message } } : holder;
  };
  const params = body['params'];
  if (body['jsonrpc'] !== undefined) return isObject(params) ? { ...body, params: fill(params) } : body;
  return fill(body);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function runRaw(
  target: Target,
  raw: { method: string; path: string; headers?: Readonly<Record<string, string>>; body?: unknown; body_raw?: string },
): Promise<Outcome> {
  const url = rawUrl(target, raw.path);
  const body = raw.body_raw ?? (raw.body !== undefined ? JSON.stringify(withMessageIds(raw.body)) : undefined);
  const { res } = await send(url, { method: raw.method, headers: { ...raw.headers }, ...(body !== undefined ? { body } : {}) }, target.timeoutMs);
  const request = `${raw.method} ${url}`;
  if (isSse(res)) {
    const { events, closed } = await readEvents(res);
    return { request, status: res.status, headers: headersOf(res), body: undefined, events, closed };
  }
  return { request, status: res.status, headers: headersOf(res), body: await readBody(res) };
}
