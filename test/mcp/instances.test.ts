/**
 * @module test/mcp/instances — MCP servers as several instances behind one address (docs/deployment.md), over
 * Streamable HTTP on loopback. 2026-07-28 is stateless: with one shared requestState key, round 1 of an
 * input_required call on one instance and round 2 on another completes, and an instance with another key
 * refuses the token. Handshake-era sessions (Mcp-Session-Id) live in the process that initialized them, so
 * they need sticky routing: another instance answers 404, which tells the client to initialize again.
 * Catalog changes fan out through PostgreSQL (mcpNotificationBus): a tools change announced on one instance
 * reaches a subscriptions/listen stream held by another, once.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBus } from '../../runtime/a2a/postgres/bus.ts';
import { mcpNotificationBus } from '../../runtime/a2a/postgres/mcp-bus.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { JSON_HEADERS, open, send, serverPool, statelessBody, statelessHeaders, statelessRequest } from '../helpers/http-client.ts';
import { SERVER_INFO, SUBSCRIPTION_ID } from '../helpers/mcp-pair.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { sleep } from '../helpers/wait.ts';

const pool = serverPool();
const buses: PostgresBus[] = [];
const pools: pg.Pool[] = [];
afterEach(async () => {
  await pool.closeAll();
  for (const b of buses.splice(0)) await b.close();
  for (const p of pools.splice(0)) await p.end();
});
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

const CONFIRM = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
} as const;

function options(key: Buffer): McpServerOptions {
  return {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    requestStateSecret: key,
    handlers: {
      'tools/call': async (params, ctx) => {
        if (ctx.state === undefined) ctx.keepState({ n: (params['arguments'] as { n: number }).n });
        const answer = await ctx.input('confirm', CONFIRM);
        return { content: [{ type: 'text', text: `${JSON.stringify(ctx.state)} ${answer.action}` }] };
      },
    },
  };
}

const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const call = async (url: string, id: number, params: JsonObject) =>
  (
    await send(url, {
      headers: statelessHeaders('tools/call', 'confirm'),
      body: statelessBody(id, 'tools/call', { name: 'confirm', ...params }, CAPS),
    })
  ).json as JsonObject & { result?: JsonObject; error?: JsonObject };

describe('MCP instances behind one address', () => {
  it('2026-07-28: round 1 on one instance, round 2 on another sharing the requestState key', async () => {
    const key = Buffer.alloc(32, 9);
    const a = await pool.start(options(key));
    const b = await pool.start(options(key));
    const other = await pool.start(options(Buffer.alloc(32, 1)));
    const round1 = (await call(a.url, 1, { arguments: { n: 7 } })).result!;
    expect(round1['resultType']).toBe('input_required');
    expect(round1['requestState']).toEqual(expect.any(String));
    const retry = {
      arguments: { n: 7 },
      requestState: round1['requestState'],
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    };
    const round2 = (await call(b.url, 2, retry)).result!;
    expect(round2['resultType']).toBe('complete');
    expect(round2['content']).toEqual([{ type: 'text', text: '{"n":7} accept' }]);
    // An instance with another key cannot read the token: the call is refused, not run with lost state.
    const foreign = await call(other.url, 3, retry);
    expect(foreign.result).toBeUndefined();
    expect(foreign.error?.['code']).toEqual(expect.any(Number));
  });

  it('handshake era: a session is known only to the instance that initialized it (sticky routing)', async () => {
    const key = Buffer.alloc(32, 9);
    const a = await pool.start(options(key));
    const b = await pool.start(options(key));
    const init = await send(a.url, {
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    });
    const id = init.headers['mcp-session-id'] as string;
    expect(id).toEqual(expect.any(String));
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const headers = { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    await send(a.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    expect((await send(a.url, { headers, body: list })).status).toBe(200);
    const elsewhere = await send(b.url, { headers, body: list });
    expect(elsewhere.status).toBe(404);
  });
});

describe('MCP catalog changes across instances (PostgreSQL)', () => {
  it('a tools change announced on one instance reaches a listen stream on another, once', async () => {
    const url = await postgres.createDatabase();
    const server = () => {
      const p = new pg.Pool({ connectionString: url, max: 2 });
      // An idle connection PostgreSQL ends (the server stops after the file) is an 'error' event of the pool.
      p.on('error', () => undefined);
      const bus = new PostgresBus(p);
      pools.push(p);
      buses.push(bus);
      return new McpServer({
        serverInfo: SERVER_INFO,
        capabilities: { handshake: { tools: {} }, stateless: { tools: { listChanged: true } } },
        notificationBus: mcpNotificationBus(bus),
        handlers: {
          'tools/call': async (_params, ctx) => {
            ctx.listChanged('tools');
            return { content: [{ type: 'text', text: 'changed' }] };
          },
        },
        log: () => {},
      });
    };
    const a = await pool.start(server());
    const b = await pool.start(server());
    const stream = await open(b.url, statelessRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'L' }));
    await stream.waitFor((f) => f['method'] === 'notifications/subscriptions/acknowledged');
    await sleep(200); // b's LISTEN is in place once its bus connected (subscribe does not wait)
    const done = await send(a.url, statelessRequest('tools/call', { name: 'change' }));
    expect(done.status).toBe(200);
    const note = await stream.waitFor((f) => f['method'] === 'notifications/tools/list_changed', 5000);
    expect(note).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUBSCRIPTION_ID]: 'L' } } });
    await sleep(300);
    expect(stream.frames.filter((f) => f['method'] === 'notifications/tools/list_changed')).toHaveLength(1);
    stream.close();
  });
});
