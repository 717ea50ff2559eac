/**
 * The handshake era over Streamable HTTP (runtime/mcp/http/handler.ts;
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports, MCP 2025-11-25 transports, "Session
 * Management"): initialize opens a session (Mcp-Session-Id), later POSTs, the GET stream and DELETE address it;
 * errors inside a session are HTTP 200; an unknown or ended session is 404; server→client requests travel on the
 * POST's SSE stream and their answers come back as POSTs (202).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { McpHttpOptions, RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { InputRequest } from '../../runtime/mcp/server/types.ts';
import { ACCEPT_BOTH, eventually, JSON_HEADERS, open, send, serverPool, sleep, type Exchange, type Headers } from '../helpers/http-client.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

const pool = serverPool();
const streams: Exchange[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await pool.closeAll();
});

const ELICIT: InputRequest<'elicitation/create'> = {
  method: 'elicitation/create',
  params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};

function newServer(listChanged = true): McpServer {
  return new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: listChanged ? { listChanged: true } : {} }, stateless: { tools: {} } },
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': async (params, ctx) => {
        if (params['name'] === 'fail') throw new JsonRpcError(-32602, 'Bad widget');
        if (params['name'] === 'crash') throw new Error('boom');
        const answer = await ctx.input('name', ELICIT);
        return { content: [{ type: 'text', text: `Hello ${String((answer['content'] as JsonObject)['name'])}` }] };
      },
    },
    log: () => {},
  });
}

const rpc = (id: number | string | undefined, method: string, params?: JsonObject) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params ? { params } : {}) });
const INIT = { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } };

interface Session {
  readonly srv: RunningHttpServer;
  readonly server: McpServer;
  readonly id: string;
  post(body: string, headers?: Headers): ReturnType<typeof send>;
}

/** Initializes a session on `srv` and sends notifications/initialized (asserting each answer). */
async function initialize(srv: RunningHttpServer, server: McpServer): Promise<Session> {
  const init = await send(srv.url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', INIT) });
  expect(init.status).toBe(200);
  expect(init.headers['content-type']).toBe('application/json');
  expect(init.json).toEqual({
    jsonrpc: '2.0',
    id: 1,
    result: { protocolVersion: '2025-11-25', capabilities: server.options.capabilities.handshake, serverInfo: SERVER_INFO },
  });
  const id = init.headers['mcp-session-id'] as string;
  expect(id).toMatch(/^[\x21-\x7E]+$/);
  const post = (body: string, headers: Headers = {}) => send(srv.url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id, ...headers }, body });
  const initialized = await post(rpc(undefined, 'notifications/initialized'));
  expect(initialized.status).toBe(202);
  expect(initialized.text).toBe('');
  return { srv, server, id, post };
}

/** Starts a server and opens one session on it. */
async function session(options: McpHttpOptions = {}, listChanged = true): Promise<Session> {
  const server = newServer(listChanged);
  return initialize(await pool.start(server, options), server);
}

const getStream = async (s: Session, headers: Headers = {}) => {
  const stream = await open(s.srv.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': s.id, ...headers } });
  streams.push(stream);
  return stream;
};

describe('a session: requests and errors', () => {
  const cases: [string, { body: string; headers?: Headers; status: number; want: JsonObject }][] = [
    ['tools/list', { body: rpc(2, 'tools/list'), status: 200, want: { result: { tools: [] } } }],
    ['ping', { body: rpc(2, 'ping'), status: 200, want: { result: {} } }],
    [
      'an unknown method',
      { body: rpc(2, 'tools/frobnicate'), status: 200, want: { error: { code: -32601, message: 'Method not found', data: 'tools/frobnicate' } } },
    ],
    ['a handler error', { body: rpc(2, 'tools/call', { name: 'fail' }), status: 200, want: { error: { code: -32602, message: 'Bad widget' } } }],
    [
      'a tool crash (its isError result)',
      { body: rpc(2, 'tools/call', { name: 'crash' }), status: 200, want: { result: { content: [{ type: 'text', text: 'boom' }], isError: true } } },
    ],
    [
      'a second initialize',
      {
        body: rpc(2, 'initialize', INIT),
        status: 200,
        want: { error: { code: -32600, message: 'Invalid Request: the connection is already initialized' } },
      },
    ],
    [
      'MCP-Protocol-Version absent',
      { body: rpc(2, 'tools/list'), headers: { 'mcp-protocol-version': undefined }, status: 200, want: { result: { tools: [] } } },
    ],
    [
      'MCP-Protocol-Version equal to the negotiated one',
      { body: rpc(2, 'tools/list'), headers: { 'mcp-protocol-version': '2025-11-25' }, status: 200, want: { result: { tools: [] } } },
    ],
    [
      'MCP-Protocol-Version sent twice',
      {
        body: rpc(2, 'tools/list'),
        headers: { 'mcp-protocol-version': ['2025-11-25', '2025-11-25'] },
        status: 400,
        want: { error: { code: -32600, message: 'Bad Request: MCP-Protocol-Version is repeated' } },
      },
    ],
    ...(['2025-06-18', '2026-07-28'] as const).map((v): [string, { body: string; headers: Headers; status: number; want: JsonObject }] => [
      `MCP-Protocol-Version ${JSON.stringify(v)}`,
      {
        body: rpc(2, 'tools/list'),
        headers: { 'mcp-protocol-version': v },
        status: 400,
        want: { error: { code: -32600, message: 'Bad Request: MCP-Protocol-Version must be 2025-11-25' } },
      },
    ]),
  ];
  it.each(cases)('%s', async (_name, c) => {
    const s = await session();
    const reply = await s.post(c.body, c.headers);
    expect(reply.status).toBe(c.status);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 2, ...c.want });
  });

  it('answers an unknown session id with 404', async () => {
    const s = await session();
    const reply = await send(s.srv.url, { headers: { ...JSON_HEADERS, 'mcp-session-id': 'no-such-session' }, body: rpc(5, 'tools/list') });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Session not found' } });
  });

  it('leaves no session behind after a failed initialize, and names none', async () => {
    const srv = await pool.start(newServer());
    const reply = await send(srv.url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', { protocolVersion: '2025-11-25' }) });
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid request parameters', data: '' } });
    await eventually(() => srv.handler.openSessions === 0);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
  });

  it('closes a session idle for longer than sessionIdleMs', async () => {
    const s = await session({ sessionIdleMs: 50 });
    await eventually(() => s.srv.handler.openSessions === 0);
    expect((await s.post(rpc(3, 'tools/list'))).status).toBe(404);
  });
});

describe('DELETE ends a session', () => {
  it('answers 200, ends the GET stream and the session', async () => {
    const s = await session();
    const stream = await getStream(s);
    const deleted = await send(s.srv.url, { method: 'DELETE', headers: { 'mcp-session-id': s.id } });
    expect(deleted.status).toBe(200);
    await stream.ended;
    expect(s.srv.handler.openSessions).toBe(0);
  });

  const NOT_FOUND = { code: -32600, message: 'Session not found' };
  const after: [string, { method: string; body?: string; headers?: Headers; want?: unknown }][] = [
    ['a POSTed request', { method: 'POST', body: rpc(3, 'tools/list'), headers: JSON_HEADERS, want: { jsonrpc: '2.0', id: 3, error: NOT_FOUND } }],
    ['a POSTed notification', { method: 'POST', body: rpc(undefined, 'notifications/initialized'), headers: JSON_HEADERS }],
    ['a GET', { method: 'GET', headers: { accept: 'text/event-stream' } }],
    ['a second DELETE', { method: 'DELETE' }],
  ];
  it.each(after)('then answers %s naming the session with 404', async (_name, c) => {
    const s = await session();
    expect((await send(s.srv.url, { method: 'DELETE', headers: { 'mcp-session-id': s.id } })).status).toBe(200);
    const reply = await send(s.srv.url, { method: c.method, headers: { ...c.headers, 'mcp-session-id': s.id }, ...(c.body ? { body: c.body } : {}) });
    expect(reply.status).toBe(404);
    if (c.want) expect(reply.json).toEqual(c.want);
  });

  it.each([['GET'], ['DELETE']])('answers %s naming a session that never existed with 404', async (method) => {
    const s = await session();
    const reply = await send(s.srv.url, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': 'no-such-session' } });
    expect(reply.status).toBe(404);
  });
});

describe('the GET stream of a session', () => {
  it("receives notifications/tools/list_changed when advertised and server.listChanged('tools') is called", async () => {
    const s = await session();
    const stream = await getStream(s);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(stream.headers['mcp-session-id']).toBe(s.id);
    s.server.listChanged('tools');
    expect(await stream.waitFor(() => true)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  });

  it('receives nothing when the handshake capabilities do not advertise tools.listChanged', async () => {
    const s = await session({}, false);
    const stream = await getStream(s);
    s.server.listChanged('tools');
    await sleep(50);
    expect(stream.frames).toEqual([]);
  });

  it('refuses a second GET stream with 409, and a GET not accepting SSE with 406', async () => {
    const s = await session();
    await getStream(s);
    const second = await send(s.srv.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': s.id } });
    expect(second.status).toBe(409);
    expect(second.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'This session already has a GET stream' } });
    const json = await send(s.srv.url, { method: 'GET', headers: { accept: 'application/json', 'mcp-session-id': s.id } });
    expect(json.status).toBe(406);
    expect(json.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Accept must list text/event-stream' } });
  });

  it('counts against maxStreams (503 beyond)', async () => {
    const a = await session({ maxStreams: 1 });
    expect((await getStream(a)).status).toBe(200);
    const b = await initialize(a.srv, a.server);
    const refused = await send(b.srv.url, { method: 'GET', headers: { accept: ACCEPT_BOTH, 'mcp-session-id': b.id } });
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Too many open streams (limit 1)' } });
  });
});

describe('server→client requests in a session (ctx.input)', () => {
  it('sends elicitation/create on the POST stream, takes the answer as a POST (202), then the result', async () => {
    const s = await session();
    const call = await open(s.srv.url, {
      headers: { ...JSON_HEADERS, 'mcp-session-id': s.id },
      body: rpc(10, 'tools/call', { name: 'ask', arguments: {} }),
    });
    streams.push(call);
    expect(call.status).toBe(200);
    expect(call.headers['content-type']).toBe('text/event-stream');
    const ask = await call.waitFor((f) => f['method'] === 'elicitation/create');
    expect(ask).toEqual({ jsonrpc: '2.0', id: ask['id'], method: 'elicitation/create', params: ELICIT.params });
    const answer = await s.post(JSON.stringify({ jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } }));
    expect(answer.status).toBe(202);
    expect(answer.text).toBe('');
    await call.ended;
    expect(call.frames).toEqual([ask, { jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: 'Hello Ada' }] } }]);
  });

  it('cancels the tool call when its POST closes, tells the client on the GET stream, and keeps serving', async () => {
    const s = await session();
    const stream = await getStream(s);
    const call = await open(s.srv.url, {
      headers: { ...JSON_HEADERS, 'mcp-session-id': s.id },
      body: rpc(11, 'tools/call', { name: 'ask', arguments: {} }),
    });
    const ask = await call.waitFor((f) => f['method'] === 'elicitation/create');
    call.close();
    const cancelled = await stream.waitFor((f) => f['method'] === 'notifications/cancelled');
    expect(cancelled).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: ask['id'], reason: 'Request elicitation/create was abandoned' },
    });
    const late = await s.post(JSON.stringify({ jsonrpc: '2.0', id: ask['id'], result: { action: 'accept', content: { name: 'Late' } } }));
    expect(late.status).toBe(202);
    expect((await s.post(rpc(12, 'tools/list'))).json).toEqual({ jsonrpc: '2.0', id: 12, result: { tools: [] } });
  });
});
