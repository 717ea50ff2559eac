/**
 * Hostile or broken HTTP clients (runtime/mcp/http/handler.ts, transports/http.ts;
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): oversized bodies (413), bodies that
 * never finish (408 after bodyTimeoutMs), more long-lived streams than maxStreams (503, slots freed on close),
 * repeated mirrored headers (400 -32020), foreign Origins (403) and oversized headers (431, node's own answer).
 * After each, the server still answers an ordinary request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import {
  begin,
  call,
  eventually,
  open,
  send,
  serverPool,
  statelessBody,
  statelessHeaders,
  statelessRequest,
  type Exchange,
} from '../helpers/http-client.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

const OPTIONS: McpServerOptions = {
  serverInfo: SERVER_INFO,
  capabilities: { handshake: { tools: {} }, stateless: { tools: { listChanged: true } } },
  handlers: { 'tools/list': () => ({ tools: [] }) },
};
const LIMIT = 1024;
const pool = serverPool();
/** The default limits (4 MiB bodies, 256 streams) but a short body timeout. */
let srv: RunningHttpServer;
/** A 1 KiB body limit. */
let small: RunningHttpServer;
beforeAll(async () => {
  srv = await pool.start(OPTIONS, { bodyTimeoutMs: 200 });
  small = await pool.start(OPTIONS, { maxBodyBytes: LIMIT });
});
afterAll(() => pool.closeAll());

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
const HEADERS = statelessHeaders('tools/list');

async function stillServing(server: RunningHttpServer): Promise<void> {
  const reply = await call(server.url, 'tools/list', {}, { id: 'after' });
  expect(reply.status).toBe(200);
  expect(reply.json).toMatchObject({ id: 'after', result: { tools: [] } });
}

/** A tools/list body padded with spaces to exactly `bytes` bytes. */
const padded = (bytes: number) => {
  const body = statelessBody(1, 'tools/list');
  return body + ' '.repeat(bytes - Buffer.byteLength(body));
};

describe('oversized bodies: 413', () => {
  it('refuses 10 MiB under the default 4 MiB limit, and keeps serving', async () => {
    const reply = await send(srv.url, { headers: HEADERS, body: Buffer.alloc(10 * 1024 * 1024, 0x20) });
    expect(reply.status).toBe(413);
    expect(reply.headers['connection']).toBe('close');
    expect(reply.json).toEqual(rpcError(null, -32600, 'Request body larger than 4194304 bytes'));
    await stillServing(srv);
  });

  const cases: [string, { bytes: number; chunked: boolean; status: number }][] = [
    ['exactly the limit, with Content-Length', { bytes: LIMIT, chunked: false, status: 200 }],
    ['one byte over, with Content-Length', { bytes: LIMIT + 1, chunked: false, status: 413 }],
    ['exactly the limit, chunked', { bytes: LIMIT, chunked: true, status: 200 }],
    ['one byte over, chunked', { bytes: LIMIT + 1, chunked: true, status: 413 }],
    ['64 KiB, chunked', { bytes: 64 * 1024, chunked: true, status: 413 }],
  ];
  it.each(cases)('maxBodyBytes %s', async (_name, c) => {
    const body = padded(c.bytes);
    const headers = c.chunked ? { ...HEADERS, 'transfer-encoding': 'chunked' } : { ...HEADERS, 'content-length': String(c.bytes) };
    const reply = await send(small.url, { headers, body });
    expect(reply.status).toBe(c.status);
    if (c.status === 413) expect(reply.json).toEqual(rpcError(null, -32600, `Request body larger than ${LIMIT} bytes`));
    await stillServing(small);
  });
});

describe('bodies that never finish: 408', () => {
  const cases: [string, { sent: string }][] = [
    ['part of the declared body', { sent: '{"jsonrpc":"2.0",' }],
    ['none of the declared body', { sent: '' }],
  ];
  it.each(cases)('answers 408 after bodyTimeoutMs when the client sent %s', async (_name, c) => {
    const startedAt = Date.now();
    const { exchange } = begin(srv.url, { headers: { ...HEADERS, 'content-length': '500' }, body: c.sent, end: false });
    const reply = await exchange;
    await reply.ended;
    const elapsed = Date.now() - startedAt;
    expect(reply.status).toBe(408);
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.text)).toEqual(rpcError(null, -32600, 'Request body not received within 200 ms'));
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1500);
    await stillServing(srv);
  });
});

describe('long-lived streams beyond maxStreams: 503', () => {
  it('holds 256 listen streams of 300, refuses the rest, frees slots on close, serves throughout', async () => {
    const listen = (id: number) => open(srv.url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id }));
    const all = await Promise.all(Array.from({ length: 300 }, (_, i) => listen(i)));
    try {
      const open200 = all.filter((s) => s.status === 200);
      const refused = all.filter((s) => s.status === 503);
      expect(open200).toHaveLength(256);
      expect(refused).toHaveLength(44);
      for (const s of open200) expect(s.headers['content-type']).toBe('text/event-stream');
      await Promise.all(refused.map((s) => s.ended));
      const id = all.indexOf(refused[0]!);
      expect(JSON.parse(refused[0]!.text)).toEqual(rpcError(id, -32603, 'Too many open streams (limit 256)'));
      await stillServing(srv);

      for (const s of open200.slice(0, 10)) s.close();
      const again: Exchange[] = [];
      await eventually(async () => {
        const s = await listen(1000 + again.length);
        if (s.status === 200) again.push(s);
        else s.close();
        return again.length === 10;
      });
      all.push(...again);
      const extra = await listen(2000);
      all.push(extra);
      expect(extra.status).toBe(503);
      await stillServing(srv);
    } finally {
      for (const s of all) s.close();
    }
  });
});

describe('refused headers, and the server keeps serving', () => {
  const cases: [string, { headers: Record<string, string | string[]>; status: number; want: unknown }][] = [
    [
      'a repeated MCP-Protocol-Version',
      {
        headers: { 'mcp-protocol-version': ['2026-07-28', '2026-07-28'] },
        status: 400,
        want: rpcError(1, -32020, 'Missing or repeated required header: mcp-protocol-version'),
      },
    ],
    [
      'a repeated Mcp-Method',
      {
        headers: { 'mcp-method': ['tools/list', 'tools/list'] },
        status: 400,
        want: rpcError(1, -32020, 'Missing or repeated required header: mcp-method'),
      },
    ],
    [
      'an Origin of another host',
      { headers: { origin: 'http://evil.example.com' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') },
    ],
    [
      'an Origin of a look-alike host',
      { headers: { origin: 'http://localhost.evil.example.com' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') },
    ],
  ];
  it.each(cases)('%s', async (_name, c) => {
    const reply = await send(srv.url, { headers: { ...HEADERS, ...c.headers }, body: statelessBody(1, 'tools/list') });
    expect(reply.status).toBe(c.status);
    expect(reply.json).toEqual(c.want);
    await stillServing(srv);
  });

  it("answers headers over node's size limit with node's own 431", async () => {
    const reply = await send(srv.url, { headers: { ...HEADERS, 'x-padding': 'a'.repeat(20 * 1024) }, body: statelessBody(1, 'tools/list') });
    expect(reply.status).toBe(431);
    expect(reply.headers['connection']).toBe('close');
    expect(reply.text).toBe('');
    await stillServing(srv);
  });
});
