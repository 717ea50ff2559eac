/**
 * What the transport suites leave out on Bun and Deno because it reads the server's state, checked through
 * the child's test-only routes (served.ts: `/_control/state`, `/_control/list-changed`): cancellation when the
 * client disconnects (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/cancellation:
 * the request's `ctx.signal` aborts, the connection is released), a subscriptions/listen stream receiving a
 * change made in the server, a handshake-era session's GET stream and server→client request, and an A2A answer stream ended when its
 * client goes away. Expected frames as
 * test/adapters/mcp-suite-streams.ts pins them for the in-process targets. On workerd, the cases where the
 * server must see its client leave are left out (Traits.seesClientLeave: workerd gives a Worker no sign of it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHttpOptions } from '../../runtime/mcp/http/handler.ts';
import { ELICIT, INIT, mcpFixture, rpc } from '../adapters/mcp-fixture.ts';
import { begin, call, eventually, JSON_HEADERS, open, send, statelessRequest, type Exchange } from '../helpers/http-client.ts';
import { userMessage } from '../helpers/a2a-server.ts';
import { SUBSCRIPTION_ID } from '../helpers/mcp-pair.ts';
import { find, launch, RUNTIME_NAMES, traitsOf, type Child } from './launch.ts';

const ACK = 'notifications/subscriptions/acknowledged';

interface State {
  readonly waiting: boolean;
  readonly aborted: string[];
  readonly connections: number;
}

for (const name of RUNTIME_NAMES) {
  const found = find(name);
  if (!found.binary) {
    it.skip(`${found.label} cannot run here: ${found.reason}`, () => {});
    continue;
  }
  // Cases where the server must learn that its client went away (Traits.seesClientLeave: not on workerd).
  const leaving = it.skipIf(!traitsOf(name).seesClientLeave);
  describe(`server state on ${found.label}`, () => {
    const children: Child[] = [];
    const streams: Exchange[] = [];
    afterEach(async () => {
      for (const s of streams.splice(0)) s.close();
      await Promise.all(children.splice(0).map((c) => c.close()));
    });
    const serve = async (options: McpHttpOptions = {}) => {
      const child = await launch(found, { kind: 'mcp', options });
      children.push(child);
      const state = async () => (await (await fetch(`${child.origin}/_control/state`)).json()) as State;
      const listChanged = async () => void (await fetch(`${child.origin}/_control/list-changed`, { method: 'POST' }));
      return { url: `${child.origin}/mcp`, state, listChanged };
    };
    const opened = async (url: string, options: Parameters<typeof open>[1]) => {
      const stream = await open(url, options);
      streams.push(stream);
      return stream;
    };

    leaving('aborts ctx.signal of a JSON request when the client disconnects, and keeps serving', async () => {
      const { url, state } = await serve();
      const { request, exchange } = begin(url, statelessRequest('tools/call', { name: 'wait', arguments: {} }, { id: 'w' }));
      exchange.catch(() => {});
      await eventually(async () => (await state()).waiting);
      request.destroy();
      await eventually(async () => (await state()).aborted.length > 0);
      expect((await state()).aborted).toEqual(['Request cancelled']);
      await eventually(async () => (await state()).connections === 0);
      expect((await call(url, 'tools/call', { name: 'again', arguments: {} }, { id: 'a' })).status).toBe(200);
    });

    leaving('aborts ctx.signal of a request whose SSE stream had started', async () => {
      const { url, state } = await serve();
      const stream = await open(url, statelessRequest('tools/call', { name: 'wait', arguments: {} }, { id: 's', meta: { progressToken: 1 } }));
      await stream.waitFor((f) => f['method'] === 'notifications/progress');
      stream.close();
      await eventually(async () => (await state()).aborted.length > 0);
      expect((await state()).aborted).toEqual(['Request cancelled']);
      await eventually(async () => (await state()).connections === 0);
    });

    leaving('subscriptions/listen: the acknowledgement, a change made in the server, and the stream released when closed', async () => {
      const { url, state, listChanged } = await serve();
      const stream = await open(url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'L1' }));
      expect([stream.status, stream.headers['content-type']]).toEqual([200, 'text/event-stream']);
      expect(await stream.waitFor((f) => f['method'] === ACK)).toEqual({
        jsonrpc: '2.0',
        method: ACK,
        params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 'L1' } },
      });
      await listChanged();
      expect(await stream.waitFor((f) => f['method'] === 'notifications/tools/list_changed')).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_ID]: 'L1' } },
      });
      expect((await state()).connections).toBe(1);
      stream.close();
      await eventually(async () => (await state()).connections === 0);
    });

    it('a handshake-era session: its GET stream gets the change, DELETE ends it', async () => {
      // Bun 1.4.5 holds back the end of a streamed response's head until its first body bytes: a GET stream
      // with nothing to say yet reaches the client at the first keep-alive comment (15 s by default).
      const { url, listChanged } = await serve({ keepAliveMs: 300 });
      const init = await send(url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', INIT) });
      expect(init.json).toMatchObject({
        id: 1,
        result: { protocolVersion: '2025-11-25', capabilities: mcpFixture().server.options.capabilities.handshake },
      });
      const id = init.headers['mcp-session-id'] as string;
      const initialized = await send(url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id }, body: rpc(undefined, 'notifications/initialized') });
      expect(initialized.status).toBe(202);
      const stream = await opened(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': id } });
      expect([stream.status, stream.headers['content-type']]).toEqual([200, 'text/event-stream']);
      await listChanged();
      expect(await stream.waitFor(() => true)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect((await send(url, { method: 'DELETE', headers: { 'mcp-session-id': id } })).status).toBe(200);
      await stream.ended;
      const after = await send(url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id }, body: rpc(3, 'tools/list') });
      expect(after.status).toBe(404);
    });

    it('a handshake-era session: a server→client request on the POST stream, answered by a POST (202)', async () => {
      const { url } = await serve();
      const init = await send(url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', INIT) });
      const id = init.headers['mcp-session-id'] as string;
      const post = (body: string) => send(url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id }, body });
      expect((await post(rpc(undefined, 'notifications/initialized'))).status).toBe(202);
      const callStream = await opened(url, {
        headers: { ...JSON_HEADERS, 'mcp-session-id': id },
        body: rpc(10, 'tools/call', { name: 'ask', arguments: {} }),
      });
      expect([callStream.status, callStream.headers['content-type']]).toEqual([200, 'text/event-stream']);
      const ask = await callStream.waitFor((f) => f['method'] === 'elicitation/create');
      expect(ask).toEqual({ jsonrpc: '2.0', id: ask['id'], method: 'elicitation/create', params: ELICIT.params });
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } }));
      expect([answer.status, answer.text]).toEqual([202, '']);
      await callStream.ended;
      expect(callStream.frames).toEqual([ask, { jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: 'Hello Ada' }] } }]);
    });

    leaving('A2A: ends the answer stream it iterates when the client goes away', async () => {
      const child = await launch(found, { kind: 'a2a', options: {} });
      children.push(child);
      const ended = async () => ((await (await fetch(`${child.origin}/_control/state`)).json()) as { ended: string[] }).ended;
      const stream = await opened(`${child.origin}/a2a`, {
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'SendStreamingMessage', params: userMessage('slow') }),
      });
      await stream.waitFor((f) => (f['result'] as Record<string, unknown> | undefined)?.['statusUpdate'] !== undefined);
      expect(await ended()).toEqual([]);
      stream.close();
      await eventually(async () => (await ended()).length > 0);
      expect(await ended()).toEqual(['SendStreamingMessage']);
    });
  });
}
