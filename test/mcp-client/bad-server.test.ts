/**
 * Bad input for the client: McpClient against servers that answer garbage, close mid-stream, send a
 * request where 2026-07-28 forbids one, answer with malformed responses, or never answer. Each time the
 * client must raise a typed error (McpClientError with a numeric code and a cause), time out when told to,
 * and never hang: close() returns, the child processes exit, and a process meeting these servers ends by
 * itself. Servers: test/mcp-client/bad-stdio-server.mjs (a child on stdio) and test/helpers/bad-http-server.ts
 * (node:http on 127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpClient, McpClientError, type ClientChannel, type McpClientOptions, type ServerRequestHandlers } from '../../runtime/mcp/client/client.ts';
import { HttpChannel, spawnStdio } from '../../runtime/mcp/client/channels.ts';
import { startBadHttpServer, type BadHttpServer } from '../helpers/bad-http-server.ts';
import { ROOT } from '../helpers/project.ts';

const SCRIPT = join(ROOT, 'test/mcp-client/bad-stdio-server.mjs');
const CLIENT_INFO = { name: 'bad-input-client', version: '1.0.0' };
/** An error that comes from the server's behaviour, not a timeout, must come well before this. */
const PROMPT_MS = 3_000;
const LONG_TIMEOUT_MS = 20_000;
const SHORT_TIMEOUT_MS = 300;

/** The stdio cases of the running test, closed (and their child checked) after it, whatever happened. */
const open: StdioCase[] = [];
/** Children still running after their client was closed. */
const leftovers: string[] = [];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface StdioCase {
  readonly mode: string;
  readonly client: McpClient;
  /** What the script read from the client, parsed (its `got <line>` log). */
  received(): JsonObject[];
  pid(): number | undefined;
}

function stdio(mode: string, options: Partial<McpClientOptions> = {}): StdioCase {
  let stderr = '';
  const channel = spawnStdio(process.execPath, [SCRIPT, mode], { stderr: (chunk) => (stderr += chunk) });
  const client = new McpClient(channel, { clientInfo: CLIENT_INFO, mode: 'stateless', timeoutMs: LONG_TIMEOUT_MS, ...options });
  const started: StdioCase = {
    mode,
    client,
    received: () => [...stderr.matchAll(/^got (.*)$/gm)].flatMap((m) => (m[1]!.startsWith('{') ? [JSON.parse(m[1]!) as JsonObject] : [])),
    pid: () => Number(/^pid (\d+)$/m.exec(stderr)?.[1]) || undefined,
  };
  open.push(started);
  return started;
}

afterEach(async () => {
  for (const c of open.splice(0)) {
    await within(c.client.close(), 6_000, 'close()').catch(() => {});
    await sleep(50);
    const pid = c.pid();
    if (pid === undefined || !alive(pid)) continue;
    leftovers.push(`${c.mode} (pid ${pid})`);
    process.kill(pid, 'SIGKILL'); // started by this test: never leave one behind
  }
});

/** Awaits `promise`, which must reject with a McpClientError carrying a code and a cause; returns it and how long it took. */
async function typedError(promise: Promise<unknown>, code?: number): Promise<{ error: McpClientError; ms: number }> {
  const started = Date.now();
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const ms = Date.now() - started;
  expect('error' in outcome, `expected a McpClientError, the call resolved with ${JSON.stringify((outcome as { value?: unknown }).value)}`).toBe(
    true,
  );
  const error = (outcome as { error: unknown }).error as McpClientError;
  expect(error).toBeInstanceOf(McpClientError);
  expect(typeof error.code).toBe('number');
  if (code !== undefined) expect(error.code).toBe(code);
  expect(error.cause, 'the error keeps its cause').toBeInstanceOf(Error);
  return { error, ms };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms).then((): never => {
      throw new Error(`${what} did not finish within ${ms} ms`);
    }),
  ]);
}

describe('stdio: a server that misbehaves', () => {
  it('garbage lines (not JSON, not JSON-RPC, unknown ids) are ignored; the call times out when told to', async () => {
    const { client } = stdio('garbage');
    await client.connect();
    const { error, ms } = await typedError(client.call('tools/list', undefined, { timeoutMs: SHORT_TIMEOUT_MS }));
    expect(error.message).toMatch(/timed out/);
    expect(ms).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(PROMPT_MS);
    await within(client.close(), 5_000, 'close()');
  });

  it('the client-wide timeoutMs applies when the call sets none', async () => {
    const { client } = stdio('silent', { timeoutMs: SHORT_TIMEOUT_MS });
    await client.connect();
    const { error, ms } = await typedError(client.call('tools/list'));
    expect(error.message).toMatch(/timed out/);
    expect(ms).toBeLessThan(PROMPT_MS);
    await within(client.close(), 5_000, 'close()');
  });

  it.each(['eof', 'eof-mid-line'])('%s: the server exits before answering: the call fails at once, no timeout needed', async (mode) => {
    const { client } = stdio(mode);
    await client.connect();
    const { error, ms } = await typedError(client.call('tools/list'));
    expect(error.message).toMatch(/closed/i);
    expect(ms).toBeLessThan(PROMPT_MS);
    await within(client.close(), 5_000, 'close()');
  });

  it('eof before answering initialize: connect() fails with a typed error', async () => {
    const { client } = stdio('eof', { mode: 'handshake' });
    const { ms } = await typedError(client.connect());
    expect(ms).toBeLessThan(PROMPT_MS);
    await within(client.close(), 5_000, 'close()');
  });

  it('a request frame in 2026-07-28 is refused with -32600, no handler runs, and the call still ends', async () => {
    let asked = 0;
    const handlers: ServerRequestHandlers = { 'elicitation/create': () => (asked++, { action: 'accept', content: { confirm: true } }) };
    const { client, received } = stdio('server-request', { handlers, capabilities: { elicitation: { form: {} } } });
    await client.connect();
    await typedError(client.call('tools/call', { name: 'delete_file', arguments: { path: 'build/' } }, { timeoutMs: 1_000 }));
    expect(asked, 'the elicitation handler must not run for a server request in 2026-07-28').toBe(0);
    const reply = received().find((m) => m['id'] === 's1');
    expect(reply?.['error'], `the client's reply to the server's request: ${JSON.stringify(reply)}`).toMatchObject({ code: -32600 });
    await within(client.close(), 5_000, 'close()');
  });

  it('a result that is not an object is refused, not returned', async () => {
    const { client } = stdio('result-string');
    await client.connect();
    await typedError(client.call('tools/list'));
    await within(client.close(), 5_000, 'close()');
  });

  it('an error member that is not an error object is an error, not a success with no result', async () => {
    const { client } = stdio('error-string');
    await client.connect();
    await typedError(client.call('tools/list'));
    await within(client.close(), 5_000, 'close()');
  });

  it('a timed-out call is cancelled: the server gets notifications/cancelled for it (2026-07-28 cancellation: stdio MUST)', async () => {
    const { client, received } = stdio('silent');
    await client.connect();
    await typedError(client.call('tools/list', undefined, { timeoutMs: SHORT_TIMEOUT_MS }));
    await sleep(200);
    const request = received().find((m) => m['method'] === 'tools/list');
    const cancelled = received().find((m) => m['method'] === 'notifications/cancelled');
    expect(cancelled?.['params'], `frames the server read: ${JSON.stringify(received())}`).toMatchObject({ requestId: request?.['id'] });
    await within(client.close(), 5_000, 'close()');
  });

  it('close() ends a server that ignores the end of its stdin (signals it after a grace period)', async () => {
    const { client, pid } = stdio('stubborn');
    await client.connect();
    while (pid() === undefined) await sleep(20);
    try {
      await within(client.close(), 6_000, 'close() of a server that ignores stdin EOF');
      expect(alive(pid()!), 'the child is gone once close() returns').toBe(false);
    } finally {
      if (alive(pid()!)) process.kill(pid()!, 'SIGKILL'); // the test started it: leave nothing behind
    }
  });
});

describe('Streamable HTTP: a server that misbehaves', () => {
  let server: BadHttpServer;
  beforeAll(async () => {
    server = await startBadHttpServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const http = (path: string, options: Partial<McpClientOptions> = {}) =>
    new McpClient(new HttpChannel(`${server.base}${path}`) as ClientChannel, {
      clientInfo: CLIENT_INFO,
      mode: 'stateless',
      timeoutMs: LONG_TIMEOUT_MS,
      ...options,
    });

  it.each(['/garbage', '/not-jsonrpc', '/scalar', '/html-500', '/sse-ended', '/sse-cut'])('%s: a typed error at once', async (path) => {
    const client = http(path);
    await client.connect();
    const { ms } = await typedError(client.call('tools/list'));
    expect(ms).toBeLessThan(PROMPT_MS);
    await client.close();
  });

  it('/sse-ended says the stream ended before the response', async () => {
    const client = http('/sse-ended');
    await client.connect();
    const { error } = await typedError(client.call('tools/list'));
    expect(error.message).toMatch(/ended without the response/);
  });

  it.each(['/never', '/never-body'])('%s: the call times out when told to', async (path) => {
    const client = http(path);
    await client.connect();
    const { ms } = await typedError(client.call('tools/list', undefined, { timeoutMs: SHORT_TIMEOUT_MS }));
    expect(ms).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(PROMPT_MS);
    await client.close();
  });

  it('/server-request: a request frame in 2026-07-28 fails the call with -32600 at once; no handler runs', async () => {
    let asked = 0;
    const client = http('/server-request', { handlers: { 'elicitation/create': () => (asked++, { action: 'decline' }) } });
    await client.connect();
    const { ms } = await typedError(client.call('tools/call', { name: 'delete_file', arguments: { path: 'build/' } }), -32600);
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(asked).toBe(0);
    expect(server.received.filter((r) => r.path === '/server-request').length, 'no answer is posted back').toBe(1);
  });

  it('/result-string: a result that is not an object is refused, not returned', async () => {
    const client = http('/result-string');
    await client.connect();
    await typedError(client.call('tools/list'));
  });
});

describe('nothing hangs', () => {
  it('a process that meets silent, garbage and vanishing servers ends by itself, exit 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/mcp-client/hang-probe.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      expect(await within(exited, 20_000, `hang-probe (output so far:\n${out})`)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { case: string; error: { typed: boolean; cause: string | null } | null });
    expect(lines.map((l) => l.case)).toEqual(['stdio silent', 'stdio garbage', 'stdio eof', 'http never']);
    for (const l of lines) expect(l.error, l.case).toMatchObject({ typed: true, cause: expect.any(String) });
  });
});

afterAll(() => {
  expect(leftovers, 'child processes still running after their client was closed').toEqual([]);
});
