/**
 * What the Express middlewares do beside answering their own requests: any other request goes on to the
 * application's routes (`next()`), mounting under the endpoint's path works (`req.originalUrl`), an A2A agent's
 * own `routes` run before that and before `authenticate`, a body parser's refusal of a request that is not the
 * server's stays Express's, a parser that consumed the body without setting `req.body` is a logged 500, and a
 * body a more generous parser already read is still held to the server's `maxBodyBytes` (ours).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aExpress } from '../../runtime/a2a/http-adapters.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { mcpExpress } from '../../runtime/mcp/http/adapters.ts';
import { testCard } from '../helpers/a2a-server.ts';
import { call, JSON_HEADERS, send, statelessBody, statelessHeaders } from '../helpers/http-client.ts';
import { mcpFixture, rpcError } from './mcp-fixture.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
});

async function listen(app: express.Express): Promise<string> {
  const http = createServer(app);
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

describe('mcpExpress', () => {
  it("passes other paths to the application's routes, and serves /mcp when mounted at /mcp", async () => {
    const mcp = mcpExpress(mcpFixture().server);
    const app = express();
    app.use('/mcp', mcp);
    app.get('/health', (_req, res) => void res.json({ ok: true }));
    const origin = await listen(app);
    expect((await send(`${origin}/health`, { method: 'GET' })).json).toEqual({ ok: true });
    const reply = await call(`${origin}/mcp`, 'tools/list', {}, { id: 'm' });
    expect([reply.status, reply.json?.['id']]).toEqual([200, 'm']);
    mcp.close();
  });

  it("leaves a parser's refusal on another path to Express", async () => {
    const mcp = mcpExpress(mcpFixture().server);
    const app = express();
    app.use(express.json(), mcp, mcp.errors);
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(418).send('ours'));
    const origin = await listen(app);
    const reply = await send(`${origin}/elsewhere`, { headers: JSON_HEADERS, body: 'not json' });
    expect([reply.status, reply.text]).toEqual([418, 'ours']);
    mcp.close();
  });

  it("holds a body express.json() read under its own larger limit to maxBodyBytes (chunked: its JSON text's length)", async () => {
    const mcp = mcpExpress(mcpFixture().server, { maxBodyBytes: 1000 });
    const app = express();
    app.use(express.json({ limit: '10mb' }), mcp, mcp.errors);
    const origin = await listen(app);
    const headers = { ...statelessHeaders('tools/list'), 'transfer-encoding': 'chunked' };
    const big = await send(`${origin}/mcp`, { headers, body: statelessBody(1, 'tools/list', { pad: 'x'.repeat(5000) }) });
    expect([big.status, big.json]).toEqual([413, rpcError(null, -32600, 'Request body larger than 1000 bytes')]);
    const small = await send(`${origin}/mcp`, { headers, body: statelessBody(2, 'tools/list') });
    expect([small.status, small.json?.['id']]).toEqual([200, 2]);
    mcp.close();
  });

  it('answers 500 and logs when a parser in front consumed the body without setting req.body', async () => {
    const logged: string[] = [];
    const mcp = mcpExpress(mcpFixture({ log: (line) => logged.push(line) }).server);
    const app = express();
    app.use((req, _res, next) => {
      req.resume();
      req.on('end', () => next());
    });
    app.use(mcp);
    const origin = await listen(app);
    const reply = await call(`${origin}/mcp`, 'tools/list');
    expect([reply.status, reply.json]).toEqual([500, rpcError(null, -32603, 'Internal error')]);
    expect(logged.some((l) => l.includes('did not set req.body'))).toBe(true);
    mcp.close();
  });
});

describe('a2aExpress', () => {
  it("runs the agent's routes first, then passes what is not the agent's on before authenticate", async () => {
    const server = new A2aServer({ card: testCard(), executor: { execute: (ctx) => ctx.reply('hi') }, log: () => {} });
    const agent = a2aExpress(server, {
      authenticate: () => ({ ok: false, challenge: 'Bearer realm="t"' }),
      routes: (_req, res, url) => {
        if (url.pathname !== '/approve/1') return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"approved":"1"}');
        return true;
      },
    });
    const app = express();
    app.use(agent);
    app.get('/health', (_req, res) => void res.json({ ok: true }));
    const origin = await listen(app);
    expect((await send(`${origin}/approve/1`, { method: 'POST' })).json).toEqual({ approved: '1' });
    expect((await send(`${origin}/health`, { method: 'GET' })).json).toEqual({ ok: true });
    expect((await send(`${origin}/a2a`, { headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });
});
