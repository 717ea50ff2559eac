/**
 * The 2026-07-28 request headers over HTTP (runtime/mcp/http/handler.ts, mcp/http-headers.ts;
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): MCP-Protocol-Version (missing,
 * repeated, differing from the body, unsupported), Mcp-Method (exact, case-sensitive value; case-insensitive name)
 * and Mcp-Name (tools/call and prompts/get: params.name; resources/read: params.uri; base64-wrapped values). Every
 * failure is HTTP 400 with the request's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { call, JSON_HEADERS, send, serverPool, type Headers } from '../helpers/http-client.ts';
import { CAPS, PV, SERVER_INFO } from '../helpers/mcp-pair.ts';

const pool = serverPool();
let srv: RunningHttpServer;
beforeAll(async () => {
  srv = await pool.start({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {}, prompts: {}, resources: {} } },
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (params) => ({ content: [{ type: 'text', text: `called ${String(params['name'])}` }] }),
      'prompts/get': () => ({ messages: [] }),
      'resources/read': (params) => ({ contents: [{ uri: params['uri'], text: 'x' }] }),
    },
  });
});
afterAll(() => pool.closeAll());

const V = '2026-07-28';
const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const mismatch = (message: string, data?: unknown) => ({ code: -32020, message, ...(data === undefined ? {} : { data }) });
const MISSING_VERSION = mismatch('Missing or repeated required header: mcp-protocol-version');
const MISSING_METHOD = mismatch('Missing or repeated required header: mcp-method');
const MISSING_NAME = mismatch('Missing or repeated required header: mcp-name');
const METHOD_MISMATCH = mismatch('Mcp-Method does not match the request body');
const NAME_MISMATCH = mismatch('Mcp-Name does not match the request body');
const NAME_MALFORMED = mismatch('Mcp-Name is malformed');

interface Case {
  readonly method?: string;
  readonly params?: JsonObject;
  readonly headers?: Headers;
  /** The request's whole `_meta` (instead of the default envelope). */
  readonly meta?: JsonObject;
  /** The JSON-RPC error wanted (HTTP 400); undefined: a result (HTTP 200). */
  readonly error?: unknown;
  readonly status?: number;
}

async function check(c: Case): Promise<void> {
  const method = c.method ?? 'tools/list';
  const reply = c.meta
    ? await send(srv.url, {
        headers: { ...JSON_HEADERS, 'mcp-protocol-version': V, 'mcp-method': method, ...c.headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'h-1', method, params: { ...c.params, _meta: c.meta } }),
      })
    : await call(srv.url, method, c.params ?? {}, { id: 'h-1', ...(c.headers ? { headers: c.headers } : {}) });
  if (c.error === undefined) {
    expect(reply.json?.['error']).toBeUndefined();
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: 'h-1', result: { resultType: 'complete' } });
  } else {
    expect(reply.status).toBe(c.status ?? 400);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 'h-1', error: c.error });
  }
}

describe('MCP-Protocol-Version', () => {
  const cases: [string, Case][] = [
    ['missing', { headers: { 'mcp-protocol-version': undefined }, error: MISSING_VERSION }],
    ['repeated with the same value', { headers: { 'mcp-protocol-version': [V, V] }, error: MISSING_VERSION }],
    ['repeated with different values', { headers: { 'mcp-protocol-version': [V, '2025-11-25'] }, error: MISSING_VERSION }],
    [
      'empty',
      { headers: { 'mcp-protocol-version': '' }, error: mismatch('Protocol header does not match request metadata', { header: '', body: V }) },
    ],
    [
      'older than the body',
      {
        headers: { 'mcp-protocol-version': '2025-11-25' },
        error: mismatch('Protocol header does not match request metadata', { header: '2025-11-25', body: V }),
      },
    ],
    [
      'the newest, with an unsupported body version',
      { meta: { [PV]: 'v999.0.0', [CAPS]: {} }, error: mismatch('Protocol header does not match request metadata', { header: V, body: 'v999.0.0' }) },
    ],
    [
      'equal to an unsupported body version',
      {
        headers: { 'mcp-protocol-version': 'v999.0.0' },
        meta: { [PV]: 'v999.0.0', [CAPS]: {} },
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: 'v999.0.0' } },
      },
    ],
    [
      'present, with no version in the body (the envelope error)',
      { meta: { [CAPS]: {} }, error: { code: -32602, message: 'Missing required io.modelcontextprotocol/protocolVersion metadata' } },
    ],
    ['in capitals (header names are case-insensitive)', { headers: { 'mcp-protocol-version': undefined, 'MCP-PROTOCOL-VERSION': V } }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));
});

describe('Mcp-Method', () => {
  const cases: [string, Case][] = [
    ['missing', { headers: { 'mcp-method': undefined }, error: MISSING_METHOD }],
    ['repeated', { headers: { 'mcp-method': ['tools/list', 'tools/list'] }, error: MISSING_METHOD }],
    ['another method', { headers: { 'mcp-method': 'prompts/list' }, error: METHOD_MISMATCH }],
    ['in capitals (values are case-sensitive)', { headers: { 'mcp-method': 'TOOLS/LIST' }, error: METHOD_MISMATCH }],
    ['empty', { headers: { 'mcp-method': '' }, error: METHOD_MISMATCH }],
    ['a prefix of the method', { headers: { 'mcp-method': 'tools' }, error: METHOD_MISMATCH }],
    ['a mixed-case header name', { headers: { 'mcp-method': undefined, 'mCP-METHOD': 'tools/list' } }],
    ['a capitalised header name', { headers: { 'mcp-method': undefined, 'Mcp-Method': 'tools/list' } }],
    ['with surrounding spaces (trimmed)', { headers: { 'mcp-method': '  tools/list  ' } }],
    ['on a method not found', { method: 'ping', headers: { 'mcp-method': 'pong' }, error: METHOD_MISMATCH }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));
});

describe('Mcp-Name (and the base64 wrapper)', () => {
  const tool = (name: string, headers?: Headers): Case => ({
    method: 'tools/call',
    params: { name, arguments: {} },
    ...(headers ? { headers } : {}),
  });
  const cases: [string, Case][] = [
    ['tools/call with params.name', tool('echo')],
    ['tools/call without the header', { ...tool('echo', { 'mcp-name': undefined }), error: MISSING_NAME }],
    ['tools/call with the header repeated', { ...tool('echo', { 'mcp-name': ['echo', 'echo'] }), error: MISSING_NAME }],
    ['tools/call naming another tool', { ...tool('echo', { 'mcp-name': 'other' }), error: NAME_MISMATCH }],
    ['tools/call with a name in other case', { ...tool('echo', { 'mcp-name': 'ECHO' }), error: NAME_MISMATCH }],
    ['a name with inner spaces, plain', tool('my tool')],
    ['a name with surrounding spaces (trimmed)', tool('echo', { 'mcp-name': '  echo ' })],
    ['a non-ASCII name, base64-wrapped', tool('héllo wörld ✓', { 'mcp-name': b64('héllo wörld ✓') })],
    ['an ASCII name, base64-wrapped', tool('echo', { 'mcp-name': b64('echo') })],
    ['a name with surrounding spaces, base64-wrapped', tool(' padded ', { 'mcp-name': b64(' padded ') })],
    ['a non-ASCII name sent plain (Latin-1 bytes)', { ...tool('héllo', { 'mcp-name': 'héllo' }), error: NAME_MALFORMED }],
    ['base64 without its padding', { ...tool('hi', { 'mcp-name': '=?base64?aGk?=' }), error: NAME_MALFORMED }],
    ['base64 with stray bits', { ...tool('hi', { 'mcp-name': '=?base64?aGl=?=' }), error: NAME_MALFORMED }],
    ['base64 of bytes that are not UTF-8', { ...tool('x', { 'mcp-name': '=?base64?/w==?=' }), error: NAME_MALFORMED }],
    ['base64 of another name', { ...tool('echo', { 'mcp-name': b64('other') }), error: NAME_MISMATCH }],
    ['a broken wrapper, taken as a plain value', { ...tool('echo', { 'mcp-name': '=?base64?ZWNobw==' }), error: NAME_MISMATCH }],
    ['prompts/get with params.name', { method: 'prompts/get', params: { name: 'greet' } }],
    ['prompts/get without the header', { method: 'prompts/get', params: { name: 'greet' }, headers: { 'mcp-name': undefined }, error: MISSING_NAME }],
    ['prompts/get naming another prompt', { method: 'prompts/get', params: { name: 'greet' }, headers: { 'mcp-name': 'bye' }, error: NAME_MISMATCH }],
    ['resources/read with params.uri', { method: 'resources/read', params: { uri: 'test://docs/read%20me' } }],
    [
      'resources/read without the header',
      { method: 'resources/read', params: { uri: 'test://a' }, headers: { 'mcp-name': undefined }, error: MISSING_NAME },
    ],
    [
      'resources/read naming another uri',
      { method: 'resources/read', params: { uri: 'test://a' }, headers: { 'mcp-name': 'test://b' }, error: NAME_MISMATCH },
    ],
    ['tools/list needs no Mcp-Name', { headers: { 'mcp-name': 'anything' } }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));

  it('checks Mcp-Method before Mcp-Name', async () => {
    await check({ ...tool('echo', { 'mcp-method': 'tools/list', 'mcp-name': undefined }), error: METHOD_MISMATCH });
  });

  it('runs the call once the headers match', async () => {
    const reply = await call(srv.url, 'tools/call', { name: 'héllo', arguments: {} }, { headers: { 'mcp-name': b64('héllo') } });
    expect(reply.json?.['result']).toMatchObject({ content: [{ type: 'text', text: 'called héllo' }] });
  });
});
