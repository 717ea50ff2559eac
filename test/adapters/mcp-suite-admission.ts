/**
 * @module test/adapters/mcp-suite-admission — the transport suite's admission, 2026-07-28 header and limit
 * cases (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): DNS-rebinding Origin/Host
 * (403), content types (415), Accept (406), JSON and envelope (400), wrong path (404) and method (405 with
 * Allow), notifications (202), the mirrored headers (400 -32020/-32022), body size (413) and slow bodies (408).
 * Every expected answer is the one test/http pins for `listenMcpHttp`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { begin, call, send, statelessBody, statelessHeaders, type Headers } from '../helpers/http-client.ts';
import { CAPS, PV, SERVER_INFO } from '../helpers/mcp-pair.ts';
import { mcpFixture, POST_ONLY, rpcError } from './mcp-fixture.ts';
import type { McpTarget, Served } from './targets.ts';

const LIST = statelessBody(1, 'tools/list');
const LIST_HEADERS = statelessHeaders('tools/list');
const V = '2026-07-28';
const LIMIT = 1024;
/**
 * The options of a Connection header, once each (RFC 9110 §7.6.1, `Connection = #connection-option`): Deno's
 * server adds its own `close` to the one the handler set, so the header reads `close, close` there.
 */
const connectionOptions = (value: string | string[] | undefined) => [...new Set(String(value).split(/\s*,\s*/))];

interface Case {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Headers;
  readonly body?: string | Buffer;
  readonly status: number;
  /** The whole JSON body; '' for an empty body. */
  readonly want?: unknown;
  readonly wantHeaders?: Record<string, string>;
  /** Only where the server sees requests outside its paths (else the framework answers them). */
  readonly ownPathsOnly?: boolean;
}

export function admissionCases(target: McpTarget): void {
  let srv: Served;
  beforeAll(async () => {
    srv = await target.start(mcpFixture().server, {});
  });
  afterAll(() => srv.close());

  async function check(c: Case): Promise<void> {
    const url = c.path === undefined ? srv.url : srv.url.replace(/\/mcp$/, c.path);
    const body = c.body ?? (c.method === undefined || c.method === 'POST' ? LIST : undefined);
    const reply = await send(url, {
      method: c.method ?? 'POST',
      headers: { ...LIST_HEADERS, ...c.headers },
      ...(body !== undefined ? { body } : {}),
    });
    expect(reply.status).toBe(c.status);
    if (c.ownPathsOnly && !target.traits.ownsAllPaths) return;
    if (c.want === '') expect(reply.text).toBe('');
    else if (c.want !== undefined) expect(reply.json).toEqual(c.want);
    if (c.status !== 202 && c.want !== '' && reply.text !== '') expect(reply.headers['content-type']).toBe('application/json');
    for (const [name, value] of Object.entries(c.wantHeaders ?? {})) expect(reply.headers[name]).toBe(value);
  }

  const originRefused = rpcError(null, -32600, 'Origin is not allowed');
  const cases: [string, Case][] = [
    [
      'a path other than /mcp: 404',
      { path: '/other', status: 404, want: rpcError(null, -32600, 'Not found: the MCP endpoint is /mcp'), ownPathsOnly: true },
    ],
    ['a path below /mcp: 404', { path: '/mcp/x', status: 404, ownPathsOnly: true }],
    ['GET without a session: 405 with Allow', { method: 'GET', status: 405, want: POST_ONLY, wantHeaders: { allow: 'POST' } }],
    ['PUT: 405 with Allow', { method: 'PUT', body: LIST, status: 405, want: POST_ONLY, wantHeaders: { allow: 'GET, POST, DELETE' } }],
    ['an Origin of another host: 403', { headers: { origin: 'http://evil.example.com' }, status: 403, want: originRefused }],
    ['an Origin of a look-alike host: 403', { headers: { origin: 'http://localhost.evil.example.com' }, status: 403, want: originRefused }],
    ['an Origin that is not a URL: 403', { headers: { origin: 'null' }, status: 403, want: originRefused }],
    ['a repeated Origin: 403', { headers: { origin: ['http://localhost', 'http://localhost'] }, status: 403, want: originRefused }],
    [
      'a foreign Host (DNS rebinding): 403',
      { headers: { host: 'evil.example.com' }, status: 403, want: rpcError(null, -32600, 'Host is not allowed') },
    ],
    ['the Origin before the Host', { headers: { origin: 'http://evil.example.com', host: 'evil.example.com' }, status: 403, want: originRefused }],
    [
      'Content-Type text/plain: 415',
      { headers: { 'content-type': 'text/plain' }, status: 415, want: rpcError(null, -32600, 'Expected application/json') },
    ],
    ['no Content-Type: 415', { headers: { 'content-type': undefined }, status: 415, want: rpcError(null, -32600, 'Expected application/json') }],
    ...(['application/json', undefined] as const).map((accept): [string, Case] => [
      `Accept ${accept ?? '(none)'}: 406`,
      { headers: { accept }, status: 406, want: rpcError(null, -32600, 'Accept must list both application/json and text/event-stream') },
    ]),
    ['the Content-Type before the Accept', { headers: { 'content-type': 'text/plain', accept: 'text/html' }, status: 415 }],
    ['a body that is not JSON: 400', { body: '{"jsonrpc": "2.0", "id": 1,', status: 400, want: rpcError(null, -32700, 'Parse error') }],
    ['an empty body: 400', { headers: { 'content-length': '0' }, body: '', status: 400, want: rpcError(null, -32700, 'Parse error') }],
    ['a batch: 400', { body: `[${LIST}]`, status: 400, want: rpcError(null, -32600, 'Invalid Request: batches are not supported') }],
    [
      'a JSON value that is not an object: 400',
      { body: '42', status: 400, want: rpcError(null, -32600, 'Invalid Request: a message must be a JSON object') },
    ],
    [
      'a notification: 202, no body',
      { body: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}', status: 202, want: '' },
    ],
    ['a JSON-RPC response object: 202, no body', { body: '{"jsonrpc":"2.0","id":5,"result":{}}', status: 202, want: '' }],
    ['a leading UTF-8 BOM: 200', { body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LIST)]), status: 200 }],
    ['Origin http://localhost:5173 and Host localhost: 200', { headers: { origin: 'http://localhost:5173', host: 'localhost:1' }, status: 200 }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));

  it('answers a well-formed request with its result and id', async () => {
    const reply = await send(srv.url, { headers: LIST_HEADERS, body: statelessBody('list-1', 'tools/list') });
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 'list-1',
      result: { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
    });
  });

  const mismatch = (message: string, data?: unknown) => ({ code: -32020, message, ...(data === undefined ? {} : { data }) });
  const headerCases: [string, { headers?: Headers; meta?: object; error: unknown }][] = [
    [
      'MCP-Protocol-Version missing',
      { headers: { 'mcp-protocol-version': undefined }, error: mismatch('Missing or repeated required header: mcp-protocol-version') },
    ],
    [
      'MCP-Protocol-Version repeated',
      { headers: { 'mcp-protocol-version': [V, V] }, error: mismatch('Missing or repeated required header: mcp-protocol-version') },
    ],
    [
      'MCP-Protocol-Version older than the body',
      {
        headers: { 'mcp-protocol-version': '2025-11-25' },
        error: mismatch('Protocol header does not match request metadata', { header: '2025-11-25', body: V }),
      },
    ],
    [
      'an unsupported version in header and body',
      {
        headers: { 'mcp-protocol-version': 'v999.0.0' },
        meta: { [PV]: 'v999.0.0', [CAPS]: {} },
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: 'v999.0.0' } },
      },
    ],
    ['Mcp-Method missing', { headers: { 'mcp-method': undefined }, error: mismatch('Missing or repeated required header: mcp-method') }],
    [
      'Mcp-Method repeated',
      { headers: { 'mcp-method': ['tools/list', 'tools/list'] }, error: mismatch('Missing or repeated required header: mcp-method') },
    ],
    [
      'Mcp-Method naming another method',
      { headers: { 'mcp-method': 'prompts/list' }, error: mismatch('Mcp-Method does not match the request body') },
    ],
  ];
  it.each(headerCases)('2026-07-28 headers: %s is 400 with the request id', async (_name, c) => {
    const body = c.meta
      ? JSON.stringify({ jsonrpc: '2.0', id: 'h-1', method: 'tools/list', params: { _meta: c.meta } })
      : statelessBody('h-1', 'tools/list');
    const reply = await send(srv.url, { headers: { ...LIST_HEADERS, ...c.headers }, body });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 'h-1', error: c.error });
  });

  it('2026-07-28 headers: a base64-wrapped non-ASCII Mcp-Name reaches the tool', async () => {
    const name = 'héllo wörld ✓';
    const reply = await call(
      srv.url,
      'tools/call',
      { name, arguments: {} },
      { headers: { 'mcp-name': `=?base64?${Buffer.from(name).toString('base64')}?=` } },
    );
    expect(reply.status).toBe(200);
    expect(reply.json?.['result']).toMatchObject({ content: [{ type: 'text', text: `called ${name}` }] });
  });
}

export function limitCases(target: McpTarget): void {
  const running: Served[] = [];
  afterAll(() => Promise.all(running.map((s) => s.close())));
  const serve = async (options: { maxBodyBytes?: number; bodyTimeoutMs?: number }) => {
    const s = await target.start(mcpFixture().server, options);
    running.push(s);
    return s;
  };
  const stillServing = async (s: Served) => {
    const reply = await call(s.url, 'tools/list', {}, { id: 'after' });
    expect([reply.status, reply.json?.['id']]).toEqual([200, 'after']);
  };

  // Where the platform writes the connection headers itself, the client sees none (Traits.connectionHeader).
  const CLOSE = target.traits.connectionHeader ? ['close'] : connectionOptions(undefined);
  it('refuses 10 MiB under the default 4 MiB limit with 413 and Connection: close, and keeps serving', async () => {
    const s = await serve({});
    const reply = await send(s.url, { headers: LIST_HEADERS, body: Buffer.alloc(10 * 1024 * 1024, 0x20) });
    expect(reply.status).toBe(413);
    expect(connectionOptions(reply.headers['connection'])).toEqual(CLOSE);
    expect(reply.json).toEqual(rpcError(null, -32600, 'Request body larger than 4194304 bytes'));
    await stillServing(s);
  });

  it('maxBodyBytes: one byte over, chunked, is 413; exactly the limit with Content-Length is served', async () => {
    const s = await serve({ maxBodyBytes: LIMIT });
    const over = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(LIMIT) } }).slice(0, LIMIT + 1);
    const refused = await send(s.url, { headers: { ...LIST_HEADERS, 'transfer-encoding': 'chunked' }, body: over });
    expect(refused.status).toBe(413);
    expect(refused.json).toEqual(rpcError(null, -32600, `Request body larger than ${LIMIT} bytes`));
    const exact = LIST + ' '.repeat(LIMIT - Buffer.byteLength(LIST));
    const served = await send(s.url, { headers: { ...LIST_HEADERS, 'content-length': String(LIMIT) }, body: exact });
    expect(served.status).toBe(200);
    await stillServing(s);
  });

  // Behind a body parser the body is read before the server runs: no server-side deadline can apply (documented).
  if (!target.traits.readsBody) return;
  it('answers a body that never finishes with 408 after bodyTimeoutMs', async () => {
    const s = await serve({ bodyTimeoutMs: 200 });
    const startedAt = Date.now();
    const { exchange } = begin(s.url, { headers: { ...LIST_HEADERS, 'content-length': '500' }, body: '{"jsonrpc":"2.0",', end: false });
    const reply = await exchange;
    await reply.ended;
    expect(reply.status).toBe(408);
    expect(connectionOptions(reply.headers['connection'])).toEqual(CLOSE);
    expect(JSON.parse(reply.text)).toEqual(rpcError(null, -32600, 'Request body not received within 200 ms'));
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
    expect(Date.now() - startedAt).toBeLessThan(1500);
    await stillServing(s);
  });
}
