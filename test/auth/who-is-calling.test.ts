/**
 * Who is calling reaches the handler: a JWT access token minted by a real authorization server on loopback
 * (oauth2-mock-server, local-as.ts), verified by `protectedResource`, arrives as `ctx.auth` in a tools/call
 * handler — over every way the MCP server is served (listenMcpHttp, the node:http listener, the fetch handler
 * bare and in Hono, Express with and without a body parser), in 2026-07-28 requests and in handshake-era
 * sessions, where each POST's own token is its request's (two tokens in one session, in flight together).
 * stdio has no token: `ctx.auth` is undefined there. The expected fields are the claims the authorization
 * server put in the token (RFC 9068 §2.2: sub, client_id, scope, aud, exp).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectedResource } from '../../runtime/auth/index.ts';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { INIT, rpc } from '../adapters/mcp-fixture.ts';
import { MCP_TARGETS, type Served } from '../adapters/targets.ts';
import { JSON_HEADERS, send, statelessRequest } from '../helpers/http-client.ts';
import { handshake, mcpPair, SERVER_INFO } from '../helpers/mcp-pair.ts';
import { startLocalAs, type LocalAs } from './local-as.ts';

/** This server's resource identifier: the tokens' audience (RFC 8707). */
const RESOURCE = 'https://notes.example.test/mcp';

let as: LocalAs;
beforeAll(async () => {
  as = await startLocalAs();
});
afterAll(async () => {
  await as?.stop();
});

/** A token the authorization server signs for RESOURCE, for `sub`, with `scope`. */
function token(sub: string, scope: string): Promise<string> {
  return as.server.issuer.buildToken({
    expiresIn: 300,
    scopesOrTransform: (_header, payload) => Object.assign(payload, { sub, aud: RESOURCE, scope, client_id: `${sub}-app` }),
  });
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

/** tools/call `whoami` answers with its ctx.auth as JSON (null when undefined); `slow` waits a little first. */
function whoamiServer(): McpServer {
  const options: McpServerOptions = {
    serverInfo: SERVER_INFO,
    log: () => {},
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    handlers: {
      'tools/call': async (params, ctx) => {
        if (params.name === 'slow') await new Promise((r) => setTimeout(r, 50));
        return { content: [{ type: 'text', text: JSON.stringify(ctx.auth ?? null) }] };
      },
    },
  };
  return new McpServer(options);
}

function authorization() {
  return protectedResource({
    resource: RESOURCE,
    authorizationServers: [as.issuer],
    verify: { jwt: { issuer: as.issuer } },
    allowLoopbackHttp: true,
  });
}

/** The ctx.auth a tools/call result reports (its one text block, parsed). */
function reported(result: unknown): JsonObject | null {
  const text = ((result as JsonObject)['content'] as { text: string }[])[0]!.text;
  return JSON.parse(text) as JsonObject | null;
}

/** What ctx.auth must hold for `t`, made for `sub` with `scope` (the claims the authorization server signed). */
function expected(t: string, sub: string, scopes: string[]) {
  return {
    token: t,
    subject: sub,
    clientId: `${sub}-app`,
    scopes,
    audience: [RESOURCE],
    expiresAt: expect.any(Number),
    resource: RESOURCE,
    claims: expect.objectContaining({ iss: as.issuer, sub, aud: RESOURCE, scope: scopes.join(' '), client_id: `${sub}-app` }),
  };
}

/** A handshake-era session opened with `t`: its id. */
async function openSession(url: string, t: string): Promise<string> {
  const init = await send(url, { method: 'POST', headers: { ...JSON_HEADERS, ...bearer(t) }, body: rpc(1, 'initialize', INIT) });
  expect(init.status).toBe(200);
  const id = init.headers['mcp-session-id'] as string;
  const headers = { ...JSON_HEADERS, ...bearer(t), 'mcp-session-id': id, 'mcp-protocol-version': INIT.protocolVersion };
  const initialized = await send(url, { method: 'POST', headers, body: rpc(undefined, 'notifications/initialized') });
  expect(initialized.status).toBe(202);
  return id;
}

/** tools/call `name` in session `sid` with token `t`: the JSON-RPC response. */
async function callInSession(url: string, sid: string, t: string, id: number, name: string): Promise<JsonObject> {
  const headers = { ...JSON_HEADERS, ...bearer(t), 'mcp-session-id': sid, 'mcp-protocol-version': INIT.protocolVersion };
  const res = await send(url, { method: 'POST', headers, body: rpc(id, 'tools/call', { name, arguments: {} }) });
  expect(res.status).toBe(200);
  return res.json ?? res.frames.at(-1)!;
}

for (const [name, target] of Object.entries(MCP_TARGETS)) {
  describe(`ctx.auth over ${name}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await target.start(whoamiServer(), { authorization: authorization() });
    });
    afterAll(async () => {
      await served?.close();
    });

    it('a 2026-07-28 request: the verified token and its claims', async () => {
      const alice = await token('alice', 'notes:read notes:write');
      const res = await send(served.url, {
        method: 'POST',
        ...statelessRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: bearer(alice) }),
      });
      expect(res.status).toBe(200);
      expect(reported(res.json!['result'])).toEqual(expected(alice, 'alice', ['notes:read', 'notes:write']));
    });

    it('a handshake-era session: each request sees the token of its own POST, not the session’s first', async () => {
      const alice = await token('alice', 'notes:read');
      const bob = await token('bob', 'notes:write');
      const sid = await openSession(served.url, alice);
      // Both in flight at once (alice's waits), each on its own POST.
      const [first, second] = await Promise.all([callInSession(served.url, sid, alice, 2, 'slow'), callInSession(served.url, sid, bob, 3, 'whoami')]);
      expect(reported(first['result'])).toEqual(expected(alice, 'alice', ['notes:read']));
      expect(reported(second['result'])).toEqual(expected(bob, 'bob', ['notes:write']));
    });
  });
}

describe('without a token to carry', () => {
  it('stdio (a connection with no HTTP): ctx.auth is undefined', async () => {
    const pair = mcpPair(whoamiServer());
    await handshake(pair);
    const { response } = await pair.request('tools/call', { name: 'whoami', arguments: {} });
    expect(reported(response['result'])).toBeNull();
    await pair.close();
  });

  it('HTTP without an authorization: ctx.auth is undefined, whatever the request carries', async () => {
    const served = await MCP_TARGETS['listenMcpHttp']!.start(whoamiServer(), {});
    try {
      const res = await send(served.url, {
        method: 'POST',
        ...statelessRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: bearer('not-checked') }),
      });
      expect(reported(res.json!['result'])).toBeNull();
    } finally {
      await served.close();
    }
  });
});
