/**
 * @module test/adapters/mcp-suite-streams — the transport suite's streamed and stateful cases
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): SSE answers (notifications
 * first, the response last), subscriptions/listen, handshake-era sessions (initialize, Mcp-Session-Id, the GET
 * stream, a server→client request on a POST stream, DELETE, unknown sessions → 404), and cancellation when the
 * client disconnects. Expected answers as test/http pins them (responses, sessions, streams).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '../../runtime/mcp/server/server.ts';
import { begin, call, eventually, JSON_HEADERS, open, send, statelessRequest, type Exchange, type Headers } from '../helpers/http-client.ts';
import { LOG_LEVEL, SERVER_INFO, SERVER_INFO_KEY, SUBSCRIPTION_ID } from '../helpers/mcp-pair.ts';
import { ELICIT, INIT, mcpFixture, rpc, type Fixture } from './mcp-fixture.ts';
import type { McpTarget, Served } from './targets.ts';

const ACK = 'notifications/subscriptions/acknowledged';

export function streamCases(target: McpTarget): void {
  const running: Served[] = [];
  const streams: Exchange[] = [];
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await Promise.all(running.splice(0).map((s) => s.close()));
  });
  const serve = async (): Promise<Fixture & { url: string }> => {
    const fixture = mcpFixture();
    const s = await target.start(fixture.server, {});
    running.push(s);
    return { ...fixture, url: s.url };
  };
  // Cases that drive the server object or read the fixture's state need it in this process (Traits.inProcess).
  const local = it.skipIf(!target.traits.inProcess);
  const opened = async (url: string, options: Parameters<typeof open>[1]) => {
    const stream = await open(url, options);
    streams.push(stream);
    return stream;
  };

  describe('SSE answers', () => {
    it('switch to SSE at the first notification: notifications first, the response last', async () => {
      const { url } = await serve();
      const reply = await call(
        url,
        'tools/call',
        { name: 'progress', arguments: {} },
        { id: 't-progress', meta: { progressToken: 'p-1', [LOG_LEVEL]: 'info' } },
      );
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('text/event-stream');
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.headers['x-accel-buffering']).toBe('no');
      expect(reply.frames).toEqual([
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1, total: 3, message: 'one' } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 2, total: 3 } },
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'worker', data: 'halfway' } },
        {
          jsonrpc: '2.0',
          id: 't-progress',
          result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete', _meta: { [SERVER_INFO_KEY]: SERVER_INFO } },
        },
      ]);
      expect(reply.text.split('\n\n').filter((e) => e !== '')).toHaveLength(4);
    });

    it('stay JSON, with its Content-Length, when no notification was asked for', async () => {
      const { url } = await serve();
      const reply = await call(url, 'tools/call', { name: 'progress', arguments: {} }, { id: 'j' });
      expect(reply.headers['content-type']).toBe('application/json');
      expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
    });

    local('subscriptions/listen: SSE from the start, the acknowledgement first, then changes made elsewhere', async () => {
      const { url, server } = await serve();
      const stream = await opened(url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'L1' }));
      expect([stream.status, stream.headers['content-type']]).toEqual([200, 'text/event-stream']);
      expect(await stream.waitFor(() => true)).toEqual({
        jsonrpc: '2.0',
        method: ACK,
        params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 'L1' } },
      });
      server.listChanged('tools');
      expect(await stream.waitFor((f) => f['method'] === 'notifications/tools/list_changed')).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_ID]: 'L1' } },
      });
    });
  });

  describe('handshake-era sessions', () => {
    async function session(url: string, server: McpServer) {
      const init = await send(url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', INIT) });
      expect([init.status, init.headers['content-type']]).toEqual([200, 'application/json']);
      expect(init.json).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-11-25', capabilities: server.options.capabilities.handshake, serverInfo: SERVER_INFO },
      });
      const id = init.headers['mcp-session-id'] as string;
      expect(id).toMatch(/^[\x21-\x7E]+$/);
      const post = (body: string, headers: Headers = {}) => send(url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id, ...headers }, body });
      const initialized = await post(rpc(undefined, 'notifications/initialized'));
      expect([initialized.status, initialized.text]).toEqual([202, '']);
      return { id, post };
    }

    local('initialize opens a session; requests in it, its GET stream, DELETE ends it (404 after)', async () => {
      const { url, server } = await serve();
      const s = await session(url, server);
      expect((await s.post(rpc(2, 'tools/list'))).json).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
      const failed = await s.post(rpc(2, 'tools/call', { name: 'fail' }));
      expect([failed.status, failed.json]).toEqual([200, { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Bad widget' } }]);
      const stream = await opened(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': s.id } });
      expect([stream.status, stream.headers['content-type'], stream.headers['mcp-session-id']]).toEqual([200, 'text/event-stream', s.id]);
      server.listChanged('tools');
      expect(await stream.waitFor(() => true)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      const deleted = await send(url, { method: 'DELETE', headers: { 'mcp-session-id': s.id } });
      expect(deleted.status).toBe(200);
      await stream.ended;
      const after = await s.post(rpc(3, 'tools/list'));
      expect([after.status, after.json]).toEqual([404, { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Session not found' } }]);
      expect((await send(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': s.id } })).status).toBe(404);
    });

    it('answers an unknown session id with 404', async () => {
      const { url } = await serve();
      const reply = await send(url, { headers: { ...JSON_HEADERS, 'mcp-session-id': 'no-such-session' }, body: rpc(5, 'tools/list') });
      expect([reply.status, reply.json]).toEqual([404, { jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Session not found' } }]);
    });

    local('sends a server→client request on the POST stream and takes its answer as a POST (202)', async () => {
      const { url, server } = await serve();
      const s = await session(url, server);
      const callStream = await opened(url, {
        headers: { ...JSON_HEADERS, 'mcp-session-id': s.id },
        body: rpc(10, 'tools/call', { name: 'ask', arguments: {} }),
      });
      expect([callStream.status, callStream.headers['content-type']]).toEqual([200, 'text/event-stream']);
      const ask = await callStream.waitFor((f) => f['method'] === 'elicitation/create');
      expect(ask).toEqual({ jsonrpc: '2.0', id: ask['id'], method: 'elicitation/create', params: ELICIT.params });
      const answer = await s.post(JSON.stringify({ jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } }));
      expect([answer.status, answer.text]).toEqual([202, '']);
      await callStream.ended;
      expect(callStream.frames).toEqual([ask, { jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: 'Hello Ada' }] } }]);
    });
  });

  describe('cancellation when the client disconnects', () => {
    local('aborts ctx.signal of a JSON request, sends nothing, and keeps serving', async () => {
      const { url, server, aborted, waiting } = await serve();
      const { request, exchange } = begin(url, statelessRequest('tools/call', { name: 'wait', arguments: {} }, { id: 'w' }));
      exchange.catch(() => {});
      await waiting;
      request.destroy();
      await eventually(() => aborted.length > 0);
      expect(aborted).toEqual(['Request cancelled']);
      await eventually(() => server.connections.size === 0);
      expect((await call(url, 'tools/call', { name: 'again', arguments: {} }, { id: 'a' })).status).toBe(200);
    });

    local('aborts ctx.signal of a request whose SSE stream had started', async () => {
      const { url, server, aborted } = await serve();
      const stream = await open(url, statelessRequest('tools/call', { name: 'wait', arguments: {} }, { id: 's', meta: { progressToken: 1 } }));
      await stream.waitFor((f) => f['method'] === 'notifications/progress');
      stream.close();
      await eventually(() => aborted.length > 0);
      expect(aborted).toEqual(['Request cancelled']);
      await eventually(() => server.connections.size === 0);
    });

    local('releases a listen stream the client closes', async () => {
      const { url, server } = await serve();
      const stream = await open(url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'gone' }));
      await stream.waitFor((f) => f['method'] === ACK);
      expect(server.connections.size).toBe(1);
      stream.close();
      await eventually(() => server.connections.size === 0);
      expect((await call(url, 'tools/list')).status).toBe(200);
    });
  });
}
