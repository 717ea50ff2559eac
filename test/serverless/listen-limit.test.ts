/**
 * subscriptions/listen on platforms that cut long requests (McpHttpOptions.maxListenMs,
 * runtime/mcp/http/listen.ts): the server ends the stream itself with the SubscriptionsListenResult, the
 * 2026-07-28 schema's graceful teardown ("sent only when the server tears the subscription down"), instead of
 * being cut without one; what was announced before reaches the stream, what is announced after reaches nobody
 * until the client listens again. The official v2 client (2.4.0) reports the end (`closed` resolves "graceful")
 * and does not listen again by itself ("No automatic re-listen — call listen() again", its `listen` doc): the
 * application does, and then gets the changes announced after.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { eventually, open, serverPool, sleep, statelessRequest, type Exchange } from '../helpers/http-client.ts';
import { SERVER_INFO, SERVER_INFO_KEY, SUBSCRIPTION_ID } from '../helpers/mcp-pair.ts';

const pool = serverPool();
const streams: Exchange[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await pool.closeAll();
});

const ACK = 'notifications/subscriptions/acknowledged';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const LIMIT_MS = 300;

const server = () =>
  new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: { listChanged: true } } },
    handlers: { 'tools/list': () => ({ tools: [] }) },
    log: () => {},
  });

async function listen(url: string, id: string): Promise<Exchange> {
  const stream = await open(url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id }));
  streams.push(stream);
  return stream;
}

describe('maxListenMs: the server ends a listen stream before the platform cuts it', () => {
  it('ends it with the listen result after the limit, changes before it delivered, the connection released', async () => {
    const mcp = server();
    const srv = await pool.start(mcp, { maxListenMs: LIMIT_MS });
    const opened = Date.now();
    const stream = await listen(srv.url, 'short');
    await stream.waitFor((f) => f['method'] === ACK);
    mcp.listChanged('tools');
    await stream.waitFor((f) => f['method'] === TOOLS_CHANGED);
    await stream.ended;
    expect(Date.now() - opened).toBeGreaterThanOrEqual(LIMIT_MS - 20);
    // SubscriptionsListenResult: resultType and _meta with the subscription id (schema's required members).
    expect(stream.frames.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'short',
      result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 'short', [SERVER_INFO_KEY]: SERVER_INFO } },
    });
    expect(stream.frames.map((f) => f['method'] ?? 'result')).toEqual([ACK, TOOLS_CHANGED, 'result']);
    await eventually(() => mcp.connections.size === 0);
  });

  it('leaves a stream open without the option (default 0) and a stream the client closed first alone', async () => {
    const mcp = server();
    const srv = await pool.start(mcp);
    const stream = await listen(srv.url, 'long');
    await stream.waitFor((f) => f['method'] === ACK);
    await sleep(LIMIT_MS * 2);
    expect(stream.frames.map((f) => f['method'])).toEqual([ACK]);
    expect(mcp.connections.size).toBe(1);

    const limited = await pool.start(server(), { maxListenMs: LIMIT_MS });
    const early = await listen(limited.url, 'early');
    await early.waitFor((f) => f['method'] === ACK);
    early.close();
    await sleep(LIMIT_MS * 1.5);
    expect(early.frames.map((f) => f['method'])).toEqual([ACK]);
  });
});

describe('the official v2 client (2.4.0) and a listen stream the server ends', () => {
  it('reports a graceful end, does not listen again by itself, and gets later changes once the application does', async () => {
    const mcp = server();
    const srv = await pool.start(mcp, { maxListenMs: LIMIT_MS });
    const listens: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"subscriptions/listen"')) listens.push(init.body);
      return fetch(input, init);
    };
    const client = new Client({ name: 'listen-limit', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const changes: string[] = [];
    client.setNotificationHandler(TOOLS_CHANGED, () => void changes.push('tools'));
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url), { fetch: counting }));
    try {
      const first = await client.listen({ toolsListChanged: true });
      expect(first.honoredFilter).toMatchObject({ toolsListChanged: true });
      expect(await first.closed).toBe('graceful');
      await sleep(LIMIT_MS * 2);
      expect(listens).toHaveLength(1);
      // Announced while nobody listens: lost to this client (it re-lists after listening again).
      mcp.listChanged('tools');
      const again = await client.listen({ toolsListChanged: true });
      expect(listens).toHaveLength(2);
      expect(changes).toEqual([]);
      mcp.listChanged('tools');
      await eventually(() => changes.length === 1);
      await again.close();
    } finally {
      await client.close();
    }
  });
});
