/**
 * Long-lived 2026-07-28 exchanges over HTTP (runtime/mcp/http/handler.ts;
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): subscriptions/listen is SSE with the
 * acknowledgement first, receives list_changed events caused elsewhere (another request, or the server object), and
 * ends with its result on shutdown; a client closing its connection cancels its request (ctx.signal aborts, nothing
 * is sent) and the server keeps serving.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { begin, call, eventually, open, serverPool, sleep, statelessRequest, type Exchange } from '../helpers/http-client.ts';
import { SERVER_INFO, SERVER_INFO_KEY, SUBSCRIPTION_ID } from '../helpers/mcp-pair.ts';

const pool = serverPool();
const streams: Exchange[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await pool.closeAll();
});

const ACK = 'notifications/subscriptions/acknowledged';

/** A server with listChanged tools and prompts; its `change` tool announces a tools change, `wait` runs until aborted. */
function setup(extra: Partial<McpServerOptions> = {}) {
  const aborted: unknown[] = [];
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const server = new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: { listChanged: true }, prompts: { listChanged: true } } },
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (params, ctx) => {
        if (params['name'] === 'change') ctx.listChanged('tools');
        if (params['name'] !== 'wait') return { content: [{ type: 'text', text: String(params['name']) }] };
        started();
        return new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            aborted.push((ctx.signal.reason as Error).message);
            resolve({ content: [{ type: 'text', text: 'late' }] });
          }),
        );
      },
    },
    log: () => {},
    ...extra,
  });
  return { server, aborted, running };
}

async function listen(url: string, id: string | number, notifications: JsonObject): Promise<Exchange> {
  const stream = await open(url, statelessRequest('subscriptions/listen', { notifications }, { id }));
  streams.push(stream);
  return stream;
}

const changed = (kind: string, id: unknown) => ({
  jsonrpc: '2.0',
  method: `notifications/${kind}/list_changed`,
  params: { _meta: { [SUBSCRIPTION_ID]: id } },
});

describe('subscriptions/listen over HTTP', () => {
  it('is SSE from the start, the acknowledgement first, with only what is honoured', async () => {
    const { server } = setup();
    const srv = await pool.start(server);
    const stream = await listen(srv.url, 'L1', { toolsListChanged: true, resourcesListChanged: true, promptsListChanged: false });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(await stream.waitFor(() => true)).toEqual({
      jsonrpc: '2.0',
      method: ACK,
      params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 'L1' } },
    });
  });

  it("receives server.listChanged('tools') while other requests come and go", async () => {
    const { server } = setup();
    const srv = await pool.start(server);
    const stream = await listen(srv.url, 7, { toolsListChanged: true });
    await stream.waitFor((f) => f['method'] === ACK);
    expect((await call(srv.url, 'tools/list')).status).toBe(200);
    server.listChanged('tools');
    expect(await stream.waitFor((f) => f['method'] === 'notifications/tools/list_changed')).toEqual(changed('tools', 7));
  });

  it('receives the change a tool call on another request announces', async () => {
    const { server } = setup();
    const srv = await pool.start(server);
    const stream = await listen(srv.url, 'L2', { toolsListChanged: true });
    await stream.waitFor((f) => f['method'] === ACK);
    const reply = await call(srv.url, 'tools/call', { name: 'change', arguments: {} });
    expect(reply.headers['content-type']).toBe('application/json');
    expect(await stream.waitFor((f) => f['method'] === 'notifications/tools/list_changed')).toEqual(changed('tools', 'L2'));
  });

  it('gets only the kinds it asked for', async () => {
    const { server } = setup();
    const srv = await pool.start(server);
    const stream = await listen(srv.url, 'P', { promptsListChanged: true });
    await stream.waitFor((f) => f['method'] === ACK);
    server.listChanged('tools');
    server.listChanged('prompts');
    await stream.waitFor((f) => f['method'] === 'notifications/prompts/list_changed');
    expect(stream.frames.map((f) => f['method'])).toEqual([ACK, 'notifications/prompts/list_changed']);
  });

  it('is -32601 (404, JSON) when nothing could be delivered', async () => {
    const { server } = setup({ capabilities: { handshake: { tools: {} }, stateless: { tools: {} } } });
    const srv = await pool.start(server);
    const reply = await call(srv.url, 'subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 3 });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found', data: 'subscriptions/listen' } });
  });

  it('ends with the listen result when the server closes (graceful end)', async () => {
    const { server } = setup();
    const srv = await pool.start(server);
    const stream = await listen(srv.url, 'bye', { toolsListChanged: true });
    await stream.waitFor((f) => f['method'] === ACK);
    await srv.close();
    await stream.ended;
    expect(stream.frames.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'bye',
      result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 'bye', [SERVER_INFO_KEY]: SERVER_INFO } },
    });
  });

  it('releases its connection when the client closes the stream', async () => {
    const { server } = setup();
    const srv = await pool.start(server);
    const stream = await listen(srv.url, 'gone', { toolsListChanged: true });
    await stream.waitFor((f) => f['method'] === ACK);
    expect(server.connections.size).toBe(1);
    stream.close();
    await eventually(() => server.connections.size === 0);
    server.listChanged('tools');
    expect((await call(srv.url, 'tools/list')).status).toBe(200);
  });
});

describe('closing the client connection cancels the request', () => {
  it('aborts ctx.signal of a JSON request, sends nothing, and keeps serving', async () => {
    const { server, aborted, running } = setup();
    const srv = await pool.start(server);
    const { request, exchange } = begin(srv.url, statelessRequest('tools/call', { name: 'wait', arguments: {} }, { id: 'w' }));
    exchange.catch(() => {});
    await running;
    request.destroy();
    await eventually(() => aborted.length > 0);
    expect(aborted).toEqual(['Request cancelled']);
    await eventually(() => server.connections.size === 0);
    const after = await call(srv.url, 'tools/call', { name: 'again', arguments: {} }, { id: 'a' });
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({ id: 'a', result: { content: [{ type: 'text', text: 'again' }] } });
  });

  it('aborts ctx.signal of a request whose SSE stream had started', async () => {
    const { server, aborted } = setup({
      handlers: {
        'tools/call': (_p, ctx) => {
          ctx.progress(1);
          return new Promise((resolve) =>
            ctx.signal.addEventListener('abort', () => resolve({ content: [], isError: aborted.push((ctx.signal.reason as Error).message) > 0 })),
          );
        },
      },
    });
    const srv = await pool.start(server);
    const stream = await open(srv.url, statelessRequest('tools/call', { name: 'x', arguments: {} }, { id: 's', meta: { progressToken: 1 } }));
    await stream.waitFor((f) => f['method'] === 'notifications/progress');
    stream.close();
    await eventually(() => aborted.length > 0);
    expect(aborted).toEqual(['Request cancelled']);
    await sleep(20);
    expect(server.connections.size).toBe(0);
  });
});
