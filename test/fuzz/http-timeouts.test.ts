/**
 * @module test/fuzz/http-timeouts — the node:http servers `listenMcpHttp` and `listenA2aHttp` start have
 * chosen timeouts (transports/http.ts HTTP_TIMEOUTS: headers 10 s, whole request 60 s, keep-alive 5 s, checked
 * every second) instead of Node's defaults (under which a header trickled at 1 byte/s was cut only after
 * 30–60 s): a client trickling its headers is answered 408 and cut once headersTimeoutMs has passed, and the
 * server goes on serving.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenA2aHttp } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { listenMcpHttp } from '../../runtime/mcp/http/handler.ts';
import { HTTP_TIMEOUTS } from '../../runtime/transports/http.ts';
import { testCard } from '../helpers/a2a-server.ts';
import { call } from '../helpers/http-client.ts';
import { mcpFixture } from '../adapters/mcp-fixture.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** Sends a request line, then one header byte every `everyMs`, never ending the headers; resolves with what came back and when. */
function trickle(origin: string, everyMs: number): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(origin);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(`POST /mcp HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `));
    let text = '';
    const timer = setInterval(() => socket.writable && socket.write('a'), everyMs);
    socket.on('data', (c) => (text += c.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, ms: Date.now() - started });
    });
  });
}

describe('HTTP server timeouts', () => {
  it('are the chosen ones by default', async () => {
    const mcp = await listenMcpHttp(mcpFixture().server);
    closers.push(() => mcp.close());
    const a2a = await listenA2aHttp(new A2aServer({ card: testCard(), executor: { execute: async (ctx) => ctx.reply('hi') } }));
    closers.push(() => a2a.close());
    for (const http of [mcp.http, a2a.http])
      expect([http.headersTimeout, http.requestTimeout, http.keepAliveTimeout]).toEqual([
        HTTP_TIMEOUTS.headersTimeoutMs,
        HTTP_TIMEOUTS.requestTimeoutMs,
        HTTP_TIMEOUTS.keepAliveTimeoutMs,
      ]);
    expect(HTTP_TIMEOUTS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, timeoutCheckIntervalMs: 1_000 });
  });

  it('a header trickled byte by byte is answered 408 and cut after headersTimeoutMs (MCP); the server goes on', async () => {
    const mcp = await listenMcpHttp(mcpFixture().server, { headersTimeoutMs: 1_000, timeoutCheckIntervalMs: 200 });
    closers.push(() => mcp.close());
    const { text, ms } = await trickle(new URL(mcp.url).origin, 100);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2_500);
    const reply = await call(mcp.url, 'tools/list', {}, { id: 'after' });
    expect([reply.status, reply.json?.['id']]).toEqual([200, 'after']);
  });

  it('the same on the A2A server', async () => {
    const a2a = await listenA2aHttp(new A2aServer({ card: testCard(), executor: { execute: async (ctx) => ctx.reply('hi') } }), {
      headersTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 200,
    });
    closers.push(() => a2a.close());
    const { text, ms } = await trickle(a2a.url, 100);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(2_500);
    expect((await fetch(`${a2a.url}/.well-known/agent-card.json`)).status).toBe(200);
  });
});
