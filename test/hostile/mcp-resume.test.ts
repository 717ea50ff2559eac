/**
 * Client-side SSE resumption (2025-11-25 resumability: GET with Last-Event-ID): a POST's stream cut mid-call
 * resumes and the call completes with each event delivered once, even when the server replays one; a server
 * that never lets the stream resume fails the call after `maxResumeAttempts` attempts (McpClientLimitError),
 * one that refuses the GET at once. A scripted node:http server on 127.0.0.1; cases are ours.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient, McpClientError } from '../../runtime/mcp/client/client.ts';
import { HttpChannel } from '../../runtime/mcp/client/channels.ts';
import { McpClientLimitError, type McpClientLimits } from '../../runtime/mcp/client/limits.ts';

const SSE = { 'content-type': 'text/event-stream' };
const note = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `note ${n}` } });
const frame = (id: number, data: string) => `id: ${id}\ndata: ${data}\n\n`;
const cut = (res: ServerResponse) => void setTimeout(() => res.socket?.destroy(), 20);

/** GETs by path, with their Last-Event-ID. */
const gets: { path: string; lastEventId: string | undefined }[] = [];
let callId: unknown;

function answer(req: IncomingMessage, res: ServerResponse, path: string, body: string): void {
  if (req.method === 'POST') {
    callId = (JSON.parse(body) as { id: unknown }).id;
    res.writeHead(200, SSE);
    res.write(`retry: 10\n${frame(1, note(1))}${frame(2, note(2))}`);
    res.write(`id: 3\ndata: {"jsonrpc":"2.0","met`);
    return cut(res);
  }
  const lastEventId = req.headers['last-event-id'] as string | undefined;
  gets.push({ path, lastEventId });
  if (path === '/refused') return void res.writeHead(405, { allow: 'POST' }).end();
  res.writeHead(200, SSE);
  if (path === '/never') return cut(res);
  // /resume: event 2 again (a replay the client must not deliver twice), then 3, then the response.
  const result = JSON.stringify({ jsonrpc: '2.0', id: callId, result: { content: [{ type: 'text', text: 'resumed' }] } });
  res.end(`${frame(2, note(2))}${frame(3, note(3))}${frame(4, result)}`);
}

const sockets = new Set<Socket>();
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => answer(req, res, (req.url ?? '/').split('?')[0]!, body));
});
server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function call(path: string, limits: McpClientLimits = {}) {
  const notes: unknown[] = [];
  const client = new McpClient(new HttpChannel(`${base}${path}`, { limits }), {
    clientInfo: { name: 'resume-test', version: '1' },
    mode: 'stateless',
    timeoutMs: 10_000,
    onNotification: (_m, params) => notes.push(params['data']),
  });
  await client.connect();
  gets.length = 0;
  const outcome = await client.call('tools/call', { name: 'x', arguments: {} }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  await client.close();
  return { ...outcome, notes, gets: [...gets] } as { result?: unknown; error?: McpClientError; notes: unknown[]; gets: typeof gets };
}

describe('resuming a cut SSE stream', () => {
  it('resumes with Last-Event-ID; each event once, the call completes', async () => {
    const { result, notes, gets } = await call('/resume');
    expect(result).toMatchObject({ content: [{ text: 'resumed' }] });
    expect(notes).toEqual(['note 1', 'note 2', 'note 3']);
    expect(gets).toEqual([{ path: '/resume', lastEventId: '2' }]);
  });

  it('a stream that never resumes: McpClientLimitError after maxResumeAttempts attempts', async () => {
    const { error, gets } = await call('/never', { maxResumeAttempts: 3 });
    expect(error).toBeInstanceOf(McpClientLimitError);
    expect(error).toMatchObject({ limit: 'maxResumeAttempts', max: 3 });
    expect(error!.message).toBe('tools/call: the SSE stream did not resume after 3 attempts (Last-Event-ID 2) (maxResumeAttempts 3)');
    expect(gets).toHaveLength(3);
  });

  it('a server that refuses the GET: a typed error at once, naming the status', async () => {
    const { error, gets } = await call('/refused');
    expect(error).toBeInstanceOf(McpClientError);
    expect(error!.message).toBe('tools/call: the server refused to resume its SSE stream (HTTP 405)');
    expect(gets).toHaveLength(1);
  });

  it('maxResumeAttempts 0: no GET, the cut is the error', async () => {
    const { error, gets } = await call('/resume', { maxResumeAttempts: 0 });
    expect(error!.message).toMatch(/^tools\/call: the SSE stream broke off: /);
    expect(gets).toEqual([]);
  });
});
