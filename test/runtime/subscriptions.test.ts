/**
 * subscriptions/listen in 2026-07-28 (runtime/mcp/server/subscriptions.ts): the stream is acknowledged first with
 * the honoured subset of its filter, then receives the events it asked for tagged with its id, until the
 * client cancels it (no response) or the server shuts down (the listen result).
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, SERVER_INFO, SERVER_INFO_KEY, SUBSCRIPTION_ID, withMeta, type McpPair } from '../helpers/mcp-pair.ts';

const STATELESS = { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {} };
const options = (stateless: JsonObject = STATELESS, handshakeCaps: JsonObject = {}): McpServerOptions => ({
  serverInfo: SERVER_INFO,
  capabilities: { handshake: handshakeCaps, stateless },
  handlers: { 'tools/list': () => ({ tools: [] }) },
});

const tag = (id: string | number) => ({ [SUBSCRIPTION_ID]: id });
const ack = (id: string | number, notifications: JsonObject) => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications, _meta: tag(id) },
});

/** Opens a listen stream with `filter` and waits for its acknowledgement. */
async function listen(pair: McpPair, id: string | number, filter: JsonObject): Promise<JsonObject> {
  pair.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: withMeta({ notifications: filter }) });
  return pair.waitFor(
    (f) =>
      f['method'] === 'notifications/subscriptions/acknowledged' && JSON.stringify((f['params'] as JsonObject)['_meta']) === JSON.stringify(tag(id)),
  );
}

describe('subscriptions/listen', () => {
  const acks: [string, { filter: JsonObject; want: JsonObject }][] = [
    [
      'honours what the server supports and omits the rest',
      {
        filter: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['file:///a'] },
        want: { toolsListChanged: true, resourceSubscriptions: ['file:///a'] },
      },
    ],
    ['omits flags set to false', { filter: { toolsListChanged: false }, want: {} }],
    ['acknowledges an empty filter', { filter: {}, want: {} }],
  ];
  it.each(acks)('%s', async (_name, { filter, want }) => {
    const pair = mcpPair(options());
    await listen(pair, 'L1', filter);
    expect(pair.frames[0]).toEqual(ack('L1', want));
    await pair.quiet();
    await pair.close();
  });

  it('delivers list_changed only to the streams that asked for it', async () => {
    const pair = mcpPair(options({ tools: { listChanged: true }, prompts: { listChanged: true } }));
    const other = mcpPair(pair.server);
    await listen(pair, 'tools', { toolsListChanged: true });
    await listen(pair, 'prompts', { promptsListChanged: true });
    await listen(other, 7, { toolsListChanged: true });
    const settled = pair.settle();
    pair.server.listChanged('tools');
    expect(await settled).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: tag('tools') } }]);
    expect(other.frames.slice(1)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: tag(7) } }]);
    const none = pair.settle();
    pair.server.listChanged('resources');
    expect(await none).toEqual([]);
    await Promise.all([pair.close(), other.close()]);
  });

  it('delivers resources/updated for the subscribed URIs', async () => {
    const pair = mcpPair(options());
    await listen(pair, 'L', { resourceSubscriptions: ['file:///a'] });
    pair.server.resourceUpdated('file:///a');
    pair.server.resourceUpdated('file:///b');
    await pair.settle();
    expect(pair.frames.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a', _meta: tag('L') } },
    ]);
    await pair.close();
  });

  it('delivers resources/updated for a sub-resource of a subscribed URI', async () => {
    const pair = mcpPair(options());
    await listen(pair, 'L', { resourceSubscriptions: ['file:///dir'] });
    const settled = pair.settle();
    pair.server.resourceUpdated('file:///dir/x.txt');
    pair.server.resourceUpdated('file:///dirx');
    expect(await settled).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///dir/x.txt', _meta: tag('L') } },
    ]);
    await pair.close();
  });

  it('ends with no response when the connection closes, and the connection finishes', async () => {
    const pair = mcpPair(options());
    await listen(pair, 'L', { toolsListChanged: true });
    await pair.close();
    await pair.connection.finished;
    expect(pair.connection.listens.size).toBe(0);
    expect(pair.frames).toEqual([ack('L', { toolsListChanged: true })]);
  });

  it('sends nothing to a stateless connection that is not listening', async () => {
    const pair = mcpPair(options());
    await pair.request('tools/list', withMeta());
    const settled = pair.settle();
    pair.server.listChanged('tools');
    expect(await settled).toEqual([]);
    await pair.close();
  });

  it('ends with no response when the client cancels it, and delivers nothing more', async () => {
    const logged: string[] = [];
    const pair = mcpPair({ ...options(), log: (line) => logged.push(line) });
    await listen(pair, 'L', { toolsListChanged: true });
    pair.notify('notifications/cancelled', { requestId: 'L' });
    await pair.quiet();
    expect(pair.connection.listens.size).toBe(0);
    // Its (unsent) result is a valid listen result: nothing is logged as a schema failure.
    expect(logged).toEqual([]);
    pair.server.listChanged('tools');
    pair.server.shutdown();
    await pair.settle();
    expect(pair.frames).toEqual([ack('L', { toolsListChanged: true })]);
    await pair.close();
  });

  it('ends with its result when the server shuts down', async () => {
    const pair = mcpPair(options());
    await listen(pair, 'L', { toolsListChanged: true });
    await listen(pair, 9, {});
    pair.server.shutdown();
    const results = await Promise.all(['L', 9].map((id) => pair.waitFor((f) => f['id'] === id)));
    expect(results).toEqual([
      { jsonrpc: '2.0', id: 'L', result: { resultType: 'complete', _meta: { ...tag('L'), [SERVER_INFO_KEY]: SERVER_INFO } } },
      { jsonrpc: '2.0', id: 9, result: { resultType: 'complete', _meta: { ...tag(9), [SERVER_INFO_KEY]: SERVER_INFO } } },
    ]);
    expect(pair.connection.listens.size).toBe(0);
    await pair.close();
  });

  it('is -32601 when the server advertises nothing a stream could deliver', async () => {
    const pair = mcpPair(options({ tools: { listChanged: false }, resources: {} }));
    const { response } = await pair.request('subscriptions/listen', withMeta({ notifications: { toolsListChanged: true } }), 'L');
    expect(response).toEqual({ jsonrpc: '2.0', id: 'L', error: { code: -32601, message: 'Method not found', data: 'subscriptions/listen' } });
    expect(pair.frames).toEqual([response]);
    await pair.close();
  });
});

describe('handshake-era change notifications', () => {
  it('pushes what the server advertises, and resource updates to subscribers', async () => {
    const pair = mcpPair(options(STATELESS, { tools: { listChanged: true }, prompts: { listChanged: false }, resources: { subscribe: true } }));
    await handshake(pair);
    expect((await pair.request('resources/subscribe', { uri: 'file:///a' }, 's')).response).toEqual({ jsonrpc: '2.0', id: 's', result: {} });
    const settled = pair.settle();
    pair.server.listChanged('tools');
    pair.server.listChanged('prompts');
    pair.server.resourceUpdated('file:///a');
    pair.server.resourceUpdated('file:///b');
    expect(await settled).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } },
    ]);
    await pair.request('resources/unsubscribe', { uri: 'file:///a' });
    const none = pair.settle();
    pair.server.resourceUpdated('file:///a');
    expect(await none).toEqual([]);
    await pair.close();
  });

  it('answers resources/subscribe with -32601 when subscribe is not advertised', async () => {
    const pair = mcpPair(options(STATELESS, { resources: { subscribe: false } }));
    await handshake(pair);
    expect((await pair.request('resources/subscribe', { uri: 'file:///a' }, 's')).response).toEqual({
      jsonrpc: '2.0',
      id: 's',
      error: { code: -32601, message: 'Method not found', data: 'resources/subscribe' },
    });
    await pair.close();
  });
});
