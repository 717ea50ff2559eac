/**
 * Streamable HTTP admission (runtime/mcp/http/handler.ts,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): path, method, Origin, Host,
 * Content-Type, Accept, JSON body, envelope, then the version and mirrored headers; one case per step with its
 * status and JSON-RPC body, then pairs of faults showing which step answers first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { JSON_HEADERS, send, serverPool, statelessBody, statelessHeaders, type Headers } from '../helpers/http-client.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

const pool = serverPool();
let srv: RunningHttpServer;
beforeAll(async () => {
  srv = await pool.start({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    handlers: { 'tools/list': () => ({ tools: [] }) },
  });
});
afterAll(() => pool.closeAll());

const LIST = statelessBody(1, 'tools/list');
const LIST_HEADERS = statelessHeaders('tools/list');
const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});
const POST_ONLY = rpcError(null, -32600, 'Streamable HTTP accepts POST only');

interface Case {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Headers;
  readonly body?: string | Buffer;
  readonly status: number;
  /** The whole JSON body; '' for an empty body. */
  readonly want?: unknown;
  readonly wantHeaders?: Record<string, string>;
}

async function check(c: Case): Promise<void> {
  const url = c.path === undefined ? srv.url : srv.url.replace(/\/mcp$/, c.path);
  const body = c.body ?? (c.method === undefined || c.method === 'POST' ? LIST : undefined);
  const reply = await send(url, { method: c.method ?? 'POST', headers: { ...LIST_HEADERS, ...c.headers }, ...(body !== undefined ? { body } : {}) });
  expect(reply.status).toBe(c.status);
  if (c.want === '') expect(reply.text).toBe('');
  else if (c.want !== undefined) expect(reply.json).toEqual(c.want);
  if (c.status !== 202 && c.want !== '' && reply.text !== '') expect(reply.headers['content-type']).toBe('application/json');
  for (const [name, value] of Object.entries(c.wantHeaders ?? {})) expect(reply.headers[name]).toBe(value);
}

describe('admission: one fault at a time', () => {
  const cases: [string, Case][] = [
    ['a path other than /mcp', { path: '/other', status: 404, want: rpcError(null, -32600, 'Not found: the MCP endpoint is /mcp') }],
    ['a path below /mcp', { path: '/mcp/x', status: 404 }],
    ['GET without a session', { method: 'GET', status: 405, want: POST_ONLY, wantHeaders: { allow: 'POST' } }],
    ['DELETE without a session', { method: 'DELETE', status: 405, want: POST_ONLY, wantHeaders: { allow: 'POST' } }],
    ['PUT', { method: 'PUT', body: LIST, status: 405, want: POST_ONLY, wantHeaders: { allow: 'GET, POST, DELETE' } }],
    [
      'an Origin of another host',
      { headers: { origin: 'http://evil.example.com' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') },
    ],
    [
      'an Origin of another host with a port',
      { headers: { origin: 'http://evil.example.com:80' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') },
    ],
    ['an Origin that is not a URL', { headers: { origin: 'null' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') }],
    [
      'an Origin with userinfo',
      { headers: { origin: 'http://user:pw@localhost' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') },
    ],
    ['a non-http Origin', { headers: { origin: 'file://localhost' }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') }],
    [
      'a repeated Origin',
      { headers: { origin: ['http://localhost', 'http://localhost'] }, status: 403, want: rpcError(null, -32600, 'Origin is not allowed') },
    ],
    ['a foreign Host', { headers: { host: 'evil.example.com' }, status: 403, want: rpcError(null, -32600, 'Host is not allowed') }],
    ['a foreign Host with a port', { headers: { host: 'evil.example.com:8080' }, status: 403, want: rpcError(null, -32600, 'Host is not allowed') }],
    [
      'Content-Type text/plain',
      { headers: { 'content-type': 'text/plain' }, status: 415, want: rpcError(null, -32600, 'Expected application/json') },
    ],
    ['no Content-Type', { headers: { 'content-type': undefined }, status: 415, want: rpcError(null, -32600, 'Expected application/json') }],
    [
      'Content-Type application/jsonx',
      { headers: { 'content-type': 'application/jsonx' }, status: 415, want: rpcError(null, -32600, 'Expected application/json') },
    ],
    ...(['application/json', 'text/event-stream', undefined] as const).map((accept): [string, Case] => [
      `Accept ${accept ?? '(none)'}`,
      { headers: { accept }, status: 406, want: rpcError(null, -32600, 'Accept must list both application/json and text/event-stream') },
    ]),
    ['a body that is not JSON', { body: '{"jsonrpc": "2.0", "id": 1,', status: 400, want: rpcError(null, -32700, 'Parse error') }],
    ['an empty body', { body: '', status: 400, want: rpcError(null, -32700, 'Parse error') }],
    ['a batch', { body: `[${LIST}]`, status: 400, want: rpcError(null, -32600, 'Invalid Request: batches are not supported') }],
    [
      'a JSON value that is not an object',
      { body: '42', status: 400, want: rpcError(null, -32600, 'Invalid Request: a message must be a JSON object') },
    ],
    [
      'jsonrpc 1.0 (the readable id is echoed)',
      { body: '{"jsonrpc":"1.0","id":7,"method":"tools/list"}', status: 400, want: rpcError(7, -32600, 'Expected a JSON-RPC 2.0 request') },
    ],
    [
      'an unusable id',
      {
        body: '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
        status: 400,
        want: rpcError(null, -32600, 'Invalid Request: id must be a string of at most 256 bytes or an int64 integer'),
      },
    ],
    [
      'array params',
      {
        body: '{"jsonrpc":"2.0","id":"a","method":"tools/list","params":[]}',
        status: 400,
        want: rpcError('a', -32602, 'Request params must be an object'),
      },
    ],
    ['a JSON-RPC response object', { body: '{"jsonrpc":"2.0","id":5,"result":{}}', status: 202, want: '' }],
    ['a JSON-RPC error response object', { body: '{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"x"}}', status: 202, want: '' }],
    ['a notification', { body: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}', status: 202, want: '' }],
    ['a malformed notification', { body: '{"jsonrpc":"2.0","method":"notifications/whatever","params":[]}', status: 202, want: '' }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));
});

describe('admission: what passes', () => {
  const ok = { status: 200, wantHeaders: { 'content-type': 'application/json' } };
  const cases: [string, Case][] = [
    ['no Origin', ok],
    ['Origin http://localhost:5173', { ...ok, headers: { origin: 'http://localhost:5173' } }],
    ['Origin http://127.0.0.1', { ...ok, headers: { origin: 'http://127.0.0.1' } }],
    ['Origin https://[::1]:8443', { ...ok, headers: { origin: 'https://[::1]:8443' } }],
    ['Origin HTTP://LOCALHOST (case-insensitive)', { ...ok, headers: { origin: 'HTTP://LOCALHOST' } }],
    ['Host localhost with a port', { ...ok, headers: { host: 'localhost:1' } }],
    ['Content-Type with a charset', { ...ok, headers: { 'content-type': 'application/json; charset=utf-8' } }],
    ['Content-Type in capitals', { ...ok, headers: { 'content-type': 'Application/JSON' } }],
    ['Accept in the other order', { ...ok, headers: { accept: 'text/event-stream, application/json' } }],
    ['Accept with q-values', { ...ok, headers: { accept: 'application/json;q=0.9, text/event-stream;q=0.5' } }],
    ['a leading UTF-8 BOM', { ...ok, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LIST)]) }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));

  it('answers a well-formed request with its result and id', async () => {
    const reply = await send(srv.url, { headers: LIST_HEADERS, body: statelessBody('list-1', 'tools/list') });
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 'list-1',
      result: { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
    });
  });
});

describe('admission order: the earlier step answers', () => {
  const missingVersion = rpcError(1, -32020, 'Missing or repeated required header: mcp-protocol-version');
  const cases: [string, Case][] = [
    ['a wrong path before a wrong method', { path: '/other', method: 'GET', status: 404 }],
    ['the method before the Origin', { method: 'GET', headers: { origin: 'http://evil.example.com' }, status: 405, want: POST_ONLY }],
    [
      'the Origin before the Host',
      {
        headers: { origin: 'http://evil.example.com', host: 'evil.example.com' },
        status: 403,
        want: rpcError(null, -32600, 'Origin is not allowed'),
      },
    ],
    [
      'the Host before the Content-Type',
      { headers: { host: 'evil.example.com', 'content-type': 'text/plain' }, status: 403, want: rpcError(null, -32600, 'Host is not allowed') },
    ],
    ['the Content-Type before the Accept', { headers: { 'content-type': 'text/plain', accept: 'text/html' }, status: 415 }],
    ['the Accept before the body', { headers: { accept: 'text/html' }, body: 'not json', status: 406 }],
    [
      'the body before the headers',
      { headers: { 'mcp-protocol-version': undefined }, body: 'not json', status: 400, want: rpcError(null, -32700, 'Parse error') },
    ],
    [
      'a response object needs no MCP headers',
      {
        headers: { 'mcp-protocol-version': undefined, 'mcp-method': undefined },
        body: '{"jsonrpc":"2.0","id":1,"result":{}}',
        status: 202,
        want: '',
      },
    ],
    [
      'the envelope before the headers',
      {
        headers: { 'mcp-protocol-version': undefined },
        body: '{"jsonrpc":"1.0","id":3,"method":"tools/list"}',
        status: 400,
        want: rpcError(3, -32600, 'Expected a JSON-RPC 2.0 request'),
      },
    ],
    [
      'a missing version header before a missing Mcp-Method',
      { headers: { 'mcp-protocol-version': undefined, 'mcp-method': undefined }, status: 400, want: missingVersion },
    ],
    [
      'a version mismatch before a missing Mcp-Method',
      {
        headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-method': undefined },
        status: 400,
        want: rpcError(1, -32020, 'Protocol header does not match request metadata', { header: '2025-11-25', body: '2026-07-28' }),
      },
    ],
    [
      'an unsupported version before a missing Mcp-Method',
      {
        headers: { 'mcp-protocol-version': 'v999.0.0', 'mcp-method': undefined },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0', 'io.modelcontextprotocol/clientCapabilities': {} } },
        }),
        status: 400,
        want: rpcError(1, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: 'v999.0.0' }),
      },
    ],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));
});

describe('allowedHosts given explicitly', () => {
  const cases: [string, { host: string; status: number }][] = [
    ['the named host', { host: 'mcp.example.test', status: 200 }],
    ['the named host with a port, in capitals', { host: 'MCP.Example.Test:8443', status: 200 }],
    ['the loopback address it listens on', { host: '127.0.0.1', status: 403 }],
    ['another host', { host: 'evil.example.com', status: 403 }],
  ];
  it.each(cases)('Host %s', async (_name, c) => {
    const own = await pool.start(
      { serverInfo: SERVER_INFO, capabilities: { handshake: {}, stateless: { tools: {} } }, handlers: { 'tools/list': () => ({ tools: [] }) } },
      { allowedHosts: ['mcp.example.test'] },
    );
    const reply = await send(own.url, { headers: { ...LIST_HEADERS, host: c.host }, body: LIST });
    expect(reply.status).toBe(c.status);
    if (c.status === 403) expect(reply.json).toEqual(rpcError(null, -32600, 'Host is not allowed'));
  });
});

describe('DNS rebinding as the conformance runner probes it', () => {
  it('refuses Host and Origin of evil.example.com, accepts the real ones', async () => {
    const evil = await send(srv.url, {
      headers: { ...JSON_HEADERS, ...LIST_HEADERS, host: 'evil.example.com', origin: 'http://evil.example.com' },
      body: LIST,
    });
    expect(evil.status).toBe(403);
    const host = new URL(srv.url).host;
    const real = await send(srv.url, { headers: { ...LIST_HEADERS, host, origin: `http://${host}` }, body: LIST });
    expect(real.status).toBe(200);
  });
});
