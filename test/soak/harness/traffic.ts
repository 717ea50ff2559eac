/**
 * @module test/soak/harness/traffic — the soak run's mixed traffic: one operation after another per worker, a
 * fixed number of workers, each operation picked in turn from {@link KINDS}. Nothing is kept between operations
 * but the counters (every client, session and stream an operation opens is closed before it returns).
 *
 * MCP (Streamable HTTP, https://modelcontextprotocol.io/specification/draft/basic/transports): tools/call in the
 * 2026-07-28 era; a handshake-era session (initialize, calls, DELETE); a call cancelled mid-way (the client
 * sends notifications/cancelled and drops its fetch); a `subscriptions/listen` stream opened then cancelled; a
 * session's GET stream dropped and opened again with Last-Event-ID. A2A (JSON-RPC binding,
 * https://a2a-protocol.org/latest/specification/): SendMessage then GetTask; SendStreamingMessage read to its
 * end; a stream aborted after its first event; a task that works until cancelled, started with returnImmediately, then CancelTask, GetTask.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpChannel } from '../../../runtime/mcp/client/channels.ts';
import { McpClient } from '../../../runtime/mcp/client/client.ts';
import type { ClientMode } from '../../../runtime/mcp/client/types.ts';
import { sseEvents } from '../../../runtime/transports/sse.ts';

/** Every kind of operation, in the order the workers take them. */
export const KINDS = [
  'mcp-call',
  'a2a-send',
  'mcp-session',
  'a2a-stream',
  'mcp-cancel',
  'a2a-stream-abort',
  'mcp-listen',
  'a2a-cancel',
  'mcp-reconnect',
] as const;
export type Kind = (typeof KINDS)[number];

export interface TrafficCounts {
  /** Operations completed, by kind. */
  readonly done: Record<Kind, number>;
  /** Operations that failed, by kind. */
  readonly errors: Record<Kind, number>;
  /** The first few error messages (at most 20 kept). */
  readonly firstErrors: string[];
}

export interface Endpoints {
  /** The MCP endpoint (…/mcp). */
  readonly mcp: string;
  /** The agent's JSON-RPC endpoint (…/a2a). */
  readonly a2a: string;
}

const zero = (): Record<Kind, number> => Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;

function mcpClient(url: string, mode: ClientMode): McpClient {
  return new McpClient(new HttpChannel(url), {
    clientInfo: { name: 'soak', version: '1.0.0' },
    mode,
    cache: false,
    checkStructuredContent: false,
    timeoutMs: 15_000,
  });
}

const isAbort = (err: unknown) => (err as Error | undefined)?.name === 'AbortError' || /abort/i.test(String((err as Error)?.message));

/** Runs `body` with a signal aborted after `ms`; an abort it causes is the expected ending. */
async function abortedAfter(ms: number, body: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    await body(controller.signal);
  } catch (err) {
    if (!controller.signal.aborted || !isAbort(err)) throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function mcpCall(url: string, n: number): Promise<void> {
  const client = mcpClient(url, 'stateless');
  await client.connect();
  const result = (await client.call('tools/call', { name: 'echo', arguments: { text: `n${n}` } })) as { content?: { text?: string }[] };
  if (result.content?.[0]?.text !== `echo: n${n}`) throw new Error(`mcp-call: unexpected result ${JSON.stringify(result)}`);
  await client.close();
}

async function mcpSession(url: string, n: number): Promise<void> {
  const client = mcpClient(url, 'handshake');
  await client.connect();
  try {
    for (let i = 0; i < 2; i++) await client.call('tools/call', { name: 'echo', arguments: { text: `s${n}.${i}` } });
    await client.call('tools/call', { name: 'wait', arguments: { ms: 20 } });
  } finally {
    await client.close(); // DELETE of the session
  }
}

async function mcpCancel(url: string, n: number): Promise<void> {
  const client = mcpClient(url, n % 2 ? 'stateless' : 'handshake');
  await client.connect();
  try {
    await abortedAfter(30 + (n % 5) * 20, (signal) => client.call('tools/call', { name: 'wait', arguments: { ms: 5000 } }, { signal }));
  } finally {
    await client.close();
  }
}

async function mcpListen(url: string, n: number): Promise<void> {
  const client = mcpClient(url, 'stateless');
  await client.connect();
  await abortedAfter(150 + (n % 4) * 100, (signal) => client.call('subscriptions/listen', { notifications: { toolsListChanged: true } }, { signal }));
  await client.close();
}

/** POSTs one JSON-RPC message of a handshake-era session; returns the response and its body text. */
async function post(url: string, headers: Record<string, string>, message: object): Promise<{ res: Response; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${JSON.stringify(message).slice(0, 60)}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return { res, text };
}

/** The `retry` hint the MCP server sends (server.ts), waited before a GET stream is opened again. */
const RETRY_MS = 100;

/** A session's GET stream, read until `ms` passed, then dropped; the last event id seen. */
async function getStream(url: string, headers: Record<string, string>, ms: number, lastEventId?: string): Promise<string | undefined> {
  let last = lastEventId;
  await abortedAfter(ms, async (signal) => {
    let res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers, ...(last ? { 'last-event-id': last } : {}) }, signal });
    // 409: the server has not yet seen the dropped stream close; wait as the retry hint says, then again.
    for (let attempt = 0; res.status === 409 && attempt < 5; attempt++) {
      await res.arrayBuffer();
      await sleep(RETRY_MS, undefined, { signal });
      res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers, ...(last ? { 'last-event-id': last } : {}) }, signal });
    }
    if (!res.ok) throw new Error(`GET stream: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    for await (const event of sseEvents(res.body!)) if (event.id !== undefined) last = event.id;
  });
  return last;
}

async function mcpReconnect(url: string): Promise<void> {
  const version = '2025-11-25';
  const { res } = await post(
    url,
    {},
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'soak', version: '1.0.0' } },
    },
  );
  const session = res.headers.get('mcp-session-id');
  if (!session) throw new Error('initialize: no Mcp-Session-Id');
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': version };
  try {
    await post(url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const last = await getStream(url, headers, 100);
    await sleep(RETRY_MS);
    await getStream(url, headers, 100, last);
  } finally {
    const del = await fetch(url, { method: 'DELETE', headers });
    await del.arrayBuffer();
  }
}

type Json = Record<string, unknown>;

function message(text: string): Json {
  return { message: { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text }] } };
}

/** One JSON-RPC call to the agent; its result, or an error naming the method. */
async function rpc(url: string, method: string, params: Json): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: Json; error?: { code: number; message: string } };
  if (body.error) throw Object.assign(new Error(`${method}: ${body.error.code} ${body.error.message}`), { code: body.error.code });
  return body.result!;
}

/** SendStreamingMessage; the events read (all of them, or the first `stopAfter` when the fetch is aborted then). */
async function stream(url: string, text: string, stopAfter = Infinity): Promise<Json[]> {
  const controller = new AbortController();
  const events: Json[] = [];
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: message(text) }),
    signal: controller.signal,
  });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
    throw new Error(`SendStreamingMessage: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  try {
    for await (const event of sseEvents(res.body!)) {
      const body = JSON.parse(event.data) as { result?: Json; error?: { message: string } };
      if (body.error) throw new Error(`SendStreamingMessage: ${body.error.message}`);
      events.push(body.result!);
      if (events.length >= stopAfter) {
        controller.abort();
        break;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return events;
}

const stateOf = (task: Json | undefined) => (task?.['status'] as Json | undefined)?.['state'];

async function a2aSend(url: string): Promise<void> {
  const task = (await rpc(url, 'SendMessage', message('quick')))['task'] as Json | undefined;
  if (!task) throw new Error('SendMessage: no task');
  const got = await rpc(url, 'GetTask', { id: task['id'] });
  if (stateOf(got) !== 'TASK_STATE_COMPLETED') throw new Error(`GetTask: state ${String(stateOf(got))}`);
}

async function a2aStream(url: string): Promise<void> {
  const events = await stream(url, 'work');
  const last = events.at(-1);
  if (stateOf(last?.['statusUpdate'] as Json) !== 'TASK_STATE_COMPLETED' && stateOf(last?.['task'] as Json) !== 'TASK_STATE_COMPLETED')
    throw new Error(`SendStreamingMessage: last event ${JSON.stringify(last).slice(0, 200)}`);
}

async function a2aCancel(url: string): Promise<void> {
  const task = (await rpc(url, 'SendMessage', { ...message('hold'), configuration: { returnImmediately: true } }))['task'] as Json;
  await sleep(40);
  const canceled = await rpc(url, 'CancelTask', { id: task['id'] });
  if (stateOf(canceled) !== 'TASK_STATE_CANCELED') throw new Error(`CancelTask: state ${String(stateOf(canceled))}`);
  const got = await rpc(url, 'GetTask', { id: task['id'], historyLength: 0 });
  if (stateOf(got) !== 'TASK_STATE_CANCELED') throw new Error(`GetTask after CancelTask: state ${String(stateOf(got))}`);
}

/** One operation of `kind` (its `n`th). */
export function operation(kind: Kind, at: Endpoints, n: number): Promise<unknown> {
  switch (kind) {
    case 'mcp-call':
      return mcpCall(at.mcp, n);
    case 'mcp-session':
      return mcpSession(at.mcp, n);
    case 'mcp-cancel':
      return mcpCancel(at.mcp, n);
    case 'mcp-listen':
      return mcpListen(at.mcp, n);
    case 'mcp-reconnect':
      return mcpReconnect(at.mcp);
    case 'a2a-send':
      return a2aSend(at.a2a);
    case 'a2a-stream':
      return a2aStream(at.a2a);
    case 'a2a-stream-abort':
      return stream(at.a2a, 'work', 1);
    case 'a2a-cancel':
      return a2aCancel(at.a2a);
  }
}

/** Runs `concurrency` workers until `until` (ms since the epoch); each takes the next kind in turn. */
export async function drive(at: Endpoints, concurrency: number, until: number): Promise<TrafficCounts> {
  const counts: TrafficCounts = { done: zero(), errors: zero(), firstErrors: [] };
  let next = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const n = next++;
      const kind = KINDS[n % KINDS.length]!;
      try {
        await operation(kind, at, n);
        counts.done[kind]++;
      } catch (err) {
        counts.errors[kind]++;
        if (counts.firstErrors.length < 20) counts.firstErrors.push(`${kind}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return counts;
}
