/**
 * The A2A client against a hostile agent (ours: a node:http server on 127.0.0.1 scripted by the first path
 * segment), on both bindings: a result nested 10,000 levels, an oversized body (chunked, or declared), an
 * oversized SSE event, bytes that are not UTF-8, a stream cut mid-event. Each is an A2aClientError (an
 * A2aClientLimitError naming the limit where one applies, with TransportOptions.limits and their defaults,
 * A2A_CLIENT_LIMIT_DEFAULTS), promptly, with no unhandled rejection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../generated/a2a-1.0/index.ts';
import { A2aClientError, A2aClientLimitError, jsonRpcTransport, restTransport } from '../../runtime/a2a/client.ts';

const BIG = 8 * 1024 * 1024;
const PROMPT_MS = 5_000;
const TASK = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
const MESSAGE = { message: { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'x' }] } };

/** Writes `head`, then 64 KiB chunks while the socket takes them up to `size`, then `tail`. */
function pumpBig(res: ServerResponse, head: string, size: number, tail: string): void {
  res.write(head);
  let sent = 0;
  const chunk = 'x'.repeat(64 * 1024);
  const go = () => {
    while (!res.destroyed && sent < size) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', go);
    }
    if (!res.destroyed) res.end(tail);
  };
  res.on('error', () => {});
  go();
}

function answer(mode: string, jsonRpc: boolean, id: unknown, res: ServerResponse): void {
  const open = jsonRpc ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":` : '';
  const close = jsonRpc ? '}' : '';
  const deep = `${open}{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"metadata":{"d":${'['.repeat(10_000)}${']'.repeat(10_000)}}}${close}`;
  const sse = { 'content-type': 'text/event-stream' };
  const json = { 'content-type': 'application/json' };
  switch (mode) {
    case 'deep':
      return void res.writeHead(200, json).end(deep);
    case 'deep-sse':
      return void res.writeHead(200, sse).end(`data: ${deep}\n\n`);
    case 'big':
      res.writeHead(200, json);
      return pumpBig(res, `${open}{"id":"t","contextId":"c","metadata":{"pad":"`, BIG, `"}}${close}`);
    case 'big-declared':
      res.writeHead(200, { ...json, 'content-length': String(BIG) });
      return void res.flushHeaders();
    case 'big-event':
      res.writeHead(200, sse);
      return pumpBig(res, `data: ${open}{"task":{"id":"t","contextId":"c","metadata":{"pad":"`, BIG, `"}}}${close}\n\n`);
    case 'utf8':
    case 'utf8-sse': {
      const [before, after] = `${open}${JSON.stringify({ ...(mode === 'utf8' ? TASK : { task: TASK }), metadata: { s: 'BAD' } })}${close}`.split(
        'BAD',
      ) as [string, string];
      const body = Buffer.concat([Buffer.from(before), Buffer.from([0x61, 0xff, 0x62]), Buffer.from(after)]);
      if (mode === 'utf8') return void res.writeHead(200, json).end(body);
      return void res.writeHead(200, sse).end(Buffer.concat([Buffer.from('data: '), body, Buffer.from('\n\n')]));
    }
    case 'cut':
      res.writeHead(200, sse);
      res.write(`data: ${open}${JSON.stringify({ task: TASK })}${close}\n\n`);
      res.write(`data: ${open}{"statusUpdate":{"taskId":"t","con`);
      return void setTimeout(() => res.socket?.destroy(), 20);
    default:
      return void res.writeHead(404).end();
  }
}

let base = '';
const sockets = new Set<Socket>();
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let text = '';
  req.on('data', (d: Buffer) => (text += d.toString()));
  req.on('end', () => {
    const [, mode = '', binding = ''] = (req.url ?? '/').split('?')[0]!.split('/');
    let id: unknown;
    try {
      id = (JSON.parse(text) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    answer(mode, binding === 'a2a', id, res);
  });
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  expect(unhandled, 'unhandled rejections').toEqual([]);
});
afterAll(() => void process.off('unhandledRejection', onUnhandled));

const BINDINGS = [
  ['JSON-RPC', (mode: string, limits?: { maxMessageBytes: number }) => new Client(jsonRpcTransport(`${base}/${mode}/a2a`, limits ? { limits } : {}))],
  ['HTTP+JSON', (mode: string, limits?: { maxMessageBytes: number }) => new Client(restTransport(`${base}/${mode}/rest`, limits ? { limits } : {}))],
] as const;

async function refusal(call: Promise<unknown>): Promise<A2aClientError> {
  const started = Date.now();
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  expect('error' in outcome, `the call resolved with ${JSON.stringify((outcome as { value?: unknown }).value)?.slice(0, 200)}`).toBe(true);
  expect((outcome as { error: unknown }).error).toBeInstanceOf(A2aClientError);
  expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  return (outcome as { error: A2aClientError }).error;
}

const drain = async (events: AsyncIterable<unknown>) => {
  const seen: unknown[] = [];
  for await (const e of events) seen.push(e);
  return seen;
};

describe.each(BINDINGS)('%s: a hostile agent', (_, client) => {
  it('a result nested 10,000 levels: A2aClientLimitError naming maxDepth', async () => {
    const error = await refusal(client('deep').getTask({ id: 't' }));
    expect(error).toBeInstanceOf(A2aClientLimitError);
    expect(error).toMatchObject({ limit: 'maxDepth', max: 128 });
    expect(error.message).toMatch(/the agent's answer nests deeper than 128 levels \(maxDepth 128\)$/);
  });

  it('a streamed event nested 10,000 levels: the same', async () => {
    expect(await refusal(drain(client('deep-sse').sendStreamingMessage(MESSAGE)))).toMatchObject({ limit: 'maxDepth' });
  });

  it.each(['big', 'big-declared'])('%s: a body past 4 MiB is refused naming maxMessageBytes', async (mode) => {
    const error = await refusal(client(mode).getTask({ id: 't' }));
    expect(error).toMatchObject({ name: 'A2aClientLimitError', limit: 'maxMessageBytes', max: 4 * 1024 * 1024 });
    expect(error.message).toMatch(/the agent's answer is larger than 4194304 bytes \(maxMessageBytes 4194304\)$/);
  });

  it('an SSE event past 4 MiB is refused naming maxMessageBytes; a lower limit applies', async () => {
    expect(await refusal(drain(client('big-event').sendStreamingMessage(MESSAGE)))).toMatchObject({ limit: 'maxMessageBytes', max: 4194304 });
    expect(await refusal(drain(client('big-event', { maxMessageBytes: 1000 }).sendStreamingMessage(MESSAGE)))).toMatchObject({ max: 1000 });
  });

  it.each(['utf8', 'utf8-sse'])('%s: bytes that are not UTF-8 are -32700, not U+FFFD in a task', async (mode) => {
    const call = mode === 'utf8' ? client(mode).getTask({ id: 't' }) : drain(client(mode).sendStreamingMessage(MESSAGE));
    const error = await refusal(call);
    expect(error.code).toBe(-32700);
    expect(error.message).toMatch(/not UTF-8/);
  });

  it('a stream cut mid-event: the first event arrives, then a typed error', async () => {
    const seen: unknown[] = [];
    const error = await refusal(
      (async () => {
        for await (const e of client('cut').sendStreamingMessage(MESSAGE)) seen.push(e);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(error.message).toMatch(/reading the agent's answer failed/);
  });
});
