/**
 * The MCP client against hostile servers (ours: test/hostile/hostile-http-server.ts on 127.0.0.1 and
 * test/hostile/hostile-stdio-server.mjs as a child on stdio): deep nesting, oversized bodies, events and lines,
 * a flood of notifications, a trickled answer, a stream cut mid-event, bytes that are not UTF-8, duplicate and
 * unknown response ids. Each ends in a typed error naming the limit (McpClientLimitError, limits in
 * docs/client.md) or in the right result, promptly; no promise is left rejected unhandled; memory stays bounded.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient, McpClientError, type ClientChannel } from '../../runtime/mcp/client/client.ts';
import { HttpChannel, spawnStdio } from '../../runtime/mcp/client/channels.ts';
import { McpClientLimitError } from '../../runtime/mcp/client/limits.ts';
import { ROOT } from '../helpers/project.ts';
import { startHostileHttpServer, type HostileHttpServer } from './hostile-http-server.ts';

const SCRIPT = join(ROOT, 'test/hostile/hostile-stdio-server.mjs');
const CLIENT_INFO = { name: 'hostile-test', version: '1.0.0' };
/** What a refusal must come well within (the call's own timeout is far longer). */
const PROMPT_MS = 5_000;
/** How much more heap a flood of 100,000 notifications may leave in use than before it. */
const FLOOD_HEAP_BOUND = 64 * 1024 * 1024;
const CALL = { name: 'anything', arguments: {} };

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
const clients: McpClient[] = [];
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await new Promise((r) => setTimeout(r, 20));
  expect(unhandled, 'unhandled rejections').toEqual([]);
});
afterAll(() => void process.off('unhandledRejection', onUnhandled));

function client(channel: ClientChannel, notes?: { count: number }): McpClient {
  const c = new McpClient(channel, {
    clientInfo: CLIENT_INFO,
    mode: 'stateless',
    timeoutMs: 30_000,
    ...(notes ? { onNotification: () => void notes.count++ } : {}),
  });
  clients.push(c);
  return c;
}

/** The call's error, which must be an McpClientError (`cls`, when given) and come within PROMPT_MS. */
async function refusal<T extends McpClientError>(call: Promise<unknown>, cls?: new (...args: never[]) => T): Promise<T> {
  const started = Date.now();
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  expect('error' in outcome, `the call resolved with ${JSON.stringify((outcome as { value?: unknown }).value)?.slice(0, 200)}`).toBe(true);
  const error = (outcome as { error: unknown }).error;
  expect(error).toBeInstanceOf(cls ?? McpClientError);
  expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  return error as T;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

async function heapAfterGc(): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 10));
  return process.memoryUsage().heapUsed;
}

describe('Streamable HTTP: a hostile server', () => {
  let server: HostileHttpServer;
  beforeAll(async () => {
    server = await startHostileHttpServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const http = async (path: string, notes?: { count: number }) => {
    const c = client(new HttpChannel(`${server.base}${path}`), notes);
    await c.connect();
    return c;
  };

  it.each(['/deep', '/deep-sse'])('%s: a result nested 10,000 levels is refused naming maxDepth', async (path) => {
    const error = await refusal((await http(path)).call('tools/call', CALL), McpClientLimitError);
    expect([error.limit, error.max]).toEqual(['maxDepth', 128]);
    expect(error.message).toBe('a message from the server nests deeper than 128 levels (maxDepth 128)');
  });

  it.each([
    ['/big', "the server's answer is larger than 4194304 bytes (maxMessageBytes 4194304)"],
    ['/big-declared', "the server's answer is larger than 4194304 bytes (maxMessageBytes 4194304)"],
    ['/big-event', 'an SSE event from the server is larger than 4194304 bytes (maxMessageBytes 4194304)'],
    ['/endless-line', 'an SSE event from the server is larger than 4194304 bytes (maxMessageBytes 4194304)'],
  ])('%s: refused at maxMessageBytes, the rest unread', async (path, message) => {
    const error = await refusal((await http(path)).call('tools/call', CALL), McpClientLimitError);
    expect([error.limit, error.message]).toEqual(['maxMessageBytes', message]);
  });

  it('a lower maxMessageBytes applies', async () => {
    const c = client(new HttpChannel(`${server.base}/flood`, { limits: { maxMessageBytes: 50 } }));
    await c.connect();
    const error = await refusal(c.call('tools/call', CALL), McpClientLimitError);
    expect([error.limit, error.max]).toEqual(['maxMessageBytes', 50]);
  });

  it('/flood: 100,000 notifications are delivered one by one, then the result; the heap stays bounded', async () => {
    const notes = { count: 0 };
    const c = await http('/flood', notes);
    const before = await heapAfterGc();
    const result = await c.call('tools/call', CALL);
    const after = await heapAfterGc();
    expect(textOf(result)).toBe('after the flood');
    expect(notes.count).toBe(100_000);
    expect(after - before).toBeLessThan(FLOOD_HEAP_BOUND);
  }, 60_000);

  it('/trickle: one byte per 50 ms runs into the call timeout, a typed -32001', async () => {
    const c = await http('/trickle');
    const error = await refusal(c.call('tools/call', CALL, { timeoutMs: 500 }));
    expect([error.code, error.message]).toEqual([-32001, 'Request tools/call timed out after 500 ms']);
  });

  it('/cut: a stream cut mid-event ends the call at once, naming what is missing', async () => {
    const notes = { count: 0 };
    const error = await refusal((await http('/cut', notes)).call('tools/call', CALL));
    expect(error.message).toMatch(/ended without the response to tools\/call|terminated|closed/);
    expect(notes.count).toBe(1);
  });

  it.each(['/utf8', '/utf8-sse'])('%s: bytes that are not UTF-8 are a -32700, not U+FFFD in a result', async (path) => {
    const error = await refusal((await http(path)).call('tools/call', CALL));
    expect([error.code, error.message]).toEqual([-32700, 'the server sent bytes that are not UTF-8 (RFC 8259 §8.1)']);
  });

  it('/ids: responses to other ids are skipped, the first response to ours is the result, the duplicate ignored', async () => {
    expect(textOf(await (await http('/ids')).call('tools/call', CALL))).toBe('first');
  });

  it('/unknown-ids: 1,000 responses to nobody, then the end of the stream: a typed error', async () => {
    const error = await refusal((await http('/unknown-ids')).call('tools/call', CALL));
    expect(error.message).toMatch(/the stream ended without the response to tools\/call/);
  });
});

describe('stdio: a hostile server', () => {
  const stdio = async (mode: string, notes?: { count: number }, limits?: { maxMessageBytes: number }) => {
    const c = client(spawnStdio(process.execPath, [SCRIPT, mode], { stderr: () => {}, ...(limits ? { limits } : {}) }), notes);
    await c.connect();
    return c;
  };

  it('deep: a result nested 10,000 levels is a typed error naming the depth', async () => {
    const error = await refusal((await stdio('deep')).call('tools/call', CALL));
    expect([error.code, error.message]).toEqual([-32600, 'Invalid Request: response nested deeper than 128 levels']);
  });

  it.each(['big-line', 'endless'])('%s: a line past maxMessageBytes fails the waiting call, naming the limit', async (mode) => {
    const error = await refusal((await stdio(mode)).call('tools/call', CALL), McpClientLimitError);
    expect([error.limit, error.message]).toEqual([
      'maxMessageBytes',
      'a line from the server is larger than 4194304 bytes (maxMessageBytes 4194304)',
    ]);
  });

  it('a lower maxMessageBytes applies', async () => {
    const error = await refusal((await stdio('big-line', undefined, { maxMessageBytes: 1000 })).call('tools/call', CALL), McpClientLimitError);
    expect([error.limit, error.max]).toEqual(['maxMessageBytes', 1000]);
  });

  it('flood: 100,000 notifications, then the result; the heap stays bounded', async () => {
    const notes = { count: 0 };
    const c = await stdio('flood', notes);
    const before = await heapAfterGc();
    const result = await c.call('tools/call', CALL);
    const after = await heapAfterGc();
    expect(textOf(result)).toBe('after the flood');
    expect(notes.count).toBe(100_000);
    expect(after - before).toBeLessThan(FLOOD_HEAP_BOUND);
  }, 60_000);

  it('trickle: runs into the call timeout, a typed -32001', async () => {
    const error = await refusal((await stdio('trickle')).call('tools/call', CALL, { timeoutMs: 500 }));
    expect([error.code, error.message]).toEqual([-32001, 'Request tools/call timed out after 500 ms']);
  });

  it('ids: responses to other ids are ignored, the first response to ours is the result', async () => {
    expect(textOf(await (await stdio('ids')).call('tools/call', CALL))).toBe('first');
  });
});
