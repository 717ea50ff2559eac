/**
 * A 2026-07-28 request over HTTP is served without a connection (runtime/mcp/http/call.ts): no connection is
 * made for it, and it behaves as one served on a connection does (jsonrpc/incoming.ts): a handler past the
 * server's requestTimeoutMs is answered -32001 with its signal aborted and its late result dropped; a result
 * JSON cannot hold is logged and answered -32603; notifications tied to the request make the answer SSE and
 * the result comes last; a handler's failure is logged and answered -32603. subscriptions/listen still gets a
 * connection, which the server's change notifications reach.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { call, eventually, open, serverPool, sleep, statelessRequest } from '../helpers/http-client.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

const pool = serverPool();
afterEach(() => pool.closeAll());

/** The server's typed tools/call handler. */
type CallTool = NonNullable<McpServerOptions['handlers']['tools/call']>;

function server(callTool: CallTool, extra: Partial<McpServerOptions> = {}) {
  const logs: string[] = [];
  const mcp = new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: { listChanged: true } } },
    handlers: { 'tools/list': () => ({ tools: [] }), 'tools/call': callTool },
    log: (line) => logs.push(line),
    ...extra,
  });
  return { mcp, logs };
}

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

describe('a 2026-07-28 request over HTTP, served without a connection', () => {
  it('makes no connection, while it runs or after', async () => {
    let seen = -1;
    const { mcp } = server(() => {
      seen = mcp.connections.size;
      return text('ok');
    });
    const srv = await pool.start(mcp);
    const reply = await call(srv.url, 'tools/call', { name: 'x', arguments: {} }, { id: 1 });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete' } });
    expect([seen, mcp.connections.size]).toEqual([0, 0]);
  });

  it('a listen stream still has a connection, and is told of a change another request makes', async () => {
    const { mcp } = server((_p, ctx) => {
      ctx.listChanged('tools');
      return text('changed');
    });
    const srv = await pool.start(mcp);
    const stream = await open(srv.url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'l' }));
    await stream.waitFor((f) => f['method'] === 'notifications/subscriptions/acknowledged');
    expect(mcp.connections.size).toBe(1);
    expect((await call(srv.url, 'tools/call', { name: 'change', arguments: {} }, { id: 2 })).status).toBe(200);
    const changed = await stream.waitFor((f) => f['method'] === 'notifications/tools/list_changed');
    expect(changed['params']).toEqual({ _meta: { 'io.modelcontextprotocol/subscriptionId': 'l' } });
    stream.close();
    await eventually(() => mcp.connections.size === 0);
  });

  it('past requestTimeoutMs: answered -32001, its signal aborted, its late result dropped', async () => {
    let signal: AbortSignal | undefined;
    const { mcp } = server(
      (_p, ctx) => {
        signal = ctx.signal;
        return new Promise((resolve) => setTimeout(() => resolve(text('late')), 150));
      },
      { requestTimeoutMs: 40 },
    );
    const srv = await pool.start(mcp);
    const reply = await call(srv.url, 'tools/call', { name: 'slow', arguments: {} }, { id: 't' });
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 't', error: { code: -32001, message: 'Request timed out after 40 ms' } });
    expect(signal?.aborted).toBe(true);
    await sleep(200);
    // The late result went nowhere: the server goes on answering.
    expect((await call(srv.url, 'tools/list', {}, { id: 'next' })).json).toMatchObject({ id: 'next', result: { tools: [] } });
  });

  it('a result JSON cannot hold is logged and answered -32603', async () => {
    const { mcp, logs } = server(() => ({ content: [], big: 1n }) as unknown as ReturnType<CallTool>, { validateResults: false });
    const srv = await pool.start(mcp);
    const reply = await call(srv.url, 'tools/call', { name: 'x', arguments: {} }, { id: 'b' });
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 'b', error: { code: -32603, message: 'Internal error' } });
    expect(logs).toEqual([expect.stringMatching(/^response to b could not be written: .*BigInt/)]);
  });

  it('a tool that throws is logged with its stack and answered with its isError result', async () => {
    const { mcp, logs } = server(() => {
      throw new Error('boom');
    });
    const srv = await pool.start(mcp);
    const reply = await call(srv.url, 'tools/call', { name: 'x', arguments: {} }, { id: 'e' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: 'e', result: { content: [{ type: 'text', text: 'boom' }], isError: true } });
    expect(logs).toEqual([expect.stringMatching(/^request tools\/call x failed: Error: boom\n\s+at /)]);
  });

  it('its progress makes the answer SSE, the result last; progress after the result is dropped', async () => {
    let later: (() => void) | undefined;
    const { mcp, logs } = server((_p, ctx) => {
      ctx.progress(1, 2);
      later = () => ctx.progress(2, 2);
      return text('done');
    });
    const srv = await pool.start(mcp);
    const reply = await call(srv.url, 'tools/call', { name: 'x', arguments: {} }, { id: 'p', meta: { progressToken: 'tok' } });
    expect(reply.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(reply.frames.map((f) => f['method'] ?? f['id'])).toEqual(['notifications/progress', 'p']);
    expect(reply.frames[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2 } });
    later!();
    expect(logs).toEqual([]);
  });
});
