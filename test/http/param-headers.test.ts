/**
 * Mcp-Param-* headers (runtime/mcp/http/headers.ts,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports) on a catalog server: a tool's
 * `x-mcp-header` annotations (string, integer, boolean) require the header when the argument is present and
 * not null, compare it with the argument (integers numerically, booleans as true/false, base64-wrapped values
 * decoded), and fail with 400 -32020 when it is missing, repeated, malformed or different.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { catalogServerOptions, type CatalogDefinition } from '../../runtime/mcp/catalog/catalog.ts';
import type { RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { call, serverPool, type Headers } from '../helpers/http-client.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

const FIXTURE: CatalogDefinition = {
  spec: {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    tools: [
      {
        name: 'route',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            count: { type: 'integer', 'x-mcp-header': 'Count' },
            verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
            ratio: { type: 'number', 'x-mcp-header': 'Ratio' },
            spaced: { type: 'string', 'x-mcp-header': 'Bad Name' },
            note: { type: 'string' },
          },
        },
      },
      { name: 'plain', inputSchema: { type: 'object', properties: { region: { type: 'string' } } } },
    ],
  },
  behaviours: { tools: { route: () => 'routed', plain: () => 'plain' } },
  validators: {},
};

const pool = serverPool();
let srv: RunningHttpServer;
beforeAll(async () => {
  srv = await pool.start(catalogServerOptions(FIXTURE, { log: () => {} }));
});
afterAll(() => pool.closeAll());

const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const mismatch = (message: string) => ({ code: -32020, message });
const REGION_DIFFERS = mismatch('Mcp-Param-Region does not match the request body');
const COUNT_DIFFERS = mismatch('Mcp-Param-Count does not match the request body');
const VERBOSE_DIFFERS = mismatch('Mcp-Param-Verbose does not match the request body');

interface Case {
  readonly tool?: string;
  readonly args?: JsonObject | null;
  readonly headers?: Headers;
  /** The JSON-RPC error wanted (HTTP 400); undefined: the tool's result (HTTP 200). */
  readonly error?: unknown;
}

async function check(c: Case): Promise<void> {
  const name = c.tool ?? 'route';
  const params: JsonObject = c.args === undefined ? { name } : { name, arguments: c.args };
  const reply = await call(srv.url, 'tools/call', params, { id: 9, ...(c.headers ? { headers: c.headers } : {}) });
  if (c.error === undefined) {
    expect(reply.json).toMatchObject({ id: 9, result: { content: [{ type: 'text', text: name === 'route' ? 'routed' : 'plain' }], isError: false } });
    expect(reply.status).toBe(200);
  } else {
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 9, error: c.error });
    expect(reply.status).toBe(400);
  }
}

describe('Mcp-Param-* present and equal', () => {
  const cases: [string, Case][] = [
    ['no arguments object, no headers', {}],
    ['empty arguments, no headers', { args: {} }],
    ['null arguments send no headers', { args: { region: null, count: null, verbose: null } }],
    ['an argument without an annotation needs no header', { args: { note: 'hello' } }],
    ['a number annotation is not valid: no header', { args: { ratio: 0.5 } }],
    ['an annotation name with a space is not valid: no header', { args: { spaced: 'x' } }],
    ['a tool without annotations ignores stray headers', { tool: 'plain', args: { region: 'eu' }, headers: { 'mcp-param-region': 'us' } }],
    [
      'all three',
      {
        args: { region: 'eu-west', count: 42, verbose: true },
        headers: { 'mcp-param-region': 'eu-west', 'mcp-param-count': '42', 'mcp-param-verbose': 'true' },
      },
    ],
    ['a string with inner spaces', { args: { region: 'eu west' }, headers: { 'mcp-param-region': 'eu west' } }],
    ['a value with surrounding spaces (trimmed)', { args: { region: 'eu' }, headers: { 'mcp-param-region': '  eu\t' } }],
    ['a header name in capitals', { args: { region: 'eu' }, headers: { 'MCP-PARAM-REGION': 'eu' } }],
    ['a non-ASCII string, base64-wrapped', { args: { region: '日本' }, headers: { 'mcp-param-region': b64('日本') } }],
    ['a string with surrounding spaces, base64-wrapped', { args: { region: ' eu ' }, headers: { 'mcp-param-region': b64(' eu ') } }],
    ['a negative integer', { args: { count: -3 }, headers: { 'mcp-param-count': '-3' } }],
    ['an integer with a leading zero (compared numerically)', { args: { count: 42 }, headers: { 'mcp-param-count': '042' } }],
    ['false', { args: { verbose: false }, headers: { 'mcp-param-verbose': 'false' } }],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));
});

describe('Mcp-Param-* refused (400 -32020)', () => {
  const cases: [string, Case][] = [
    ['a string argument without its header', { args: { region: 'eu' }, error: mismatch('Missing or repeated required header: mcp-param-region') }],
    ['an integer argument without its header', { args: { count: 1 }, error: mismatch('Missing or repeated required header: mcp-param-count') }],
    ['a boolean argument without its header', { args: { verbose: true }, error: mismatch('Missing or repeated required header: mcp-param-verbose') }],
    [
      'a repeated header',
      {
        args: { region: 'eu' },
        headers: { 'mcp-param-region': ['eu', 'eu'] },
        error: mismatch('Missing or repeated required header: mcp-param-region'),
      },
    ],
    ['a different string', { args: { region: 'eu' }, headers: { 'mcp-param-region': 'us' }, error: REGION_DIFFERS }],
    ['a string in other case', { args: { region: 'eu' }, headers: { 'mcp-param-region': 'EU' }, error: REGION_DIFFERS }],
    ['a header for an absent argument', { args: {}, headers: { 'mcp-param-region': 'eu' }, error: REGION_DIFFERS }],
    ['a header for a null argument', { args: { region: null }, headers: { 'mcp-param-region': 'null' }, error: REGION_DIFFERS }],
    ['a different integer', { args: { count: 42 }, headers: { 'mcp-param-count': '43' }, error: COUNT_DIFFERS }],
    ['a decimal for an integer', { args: { count: 42 }, headers: { 'mcp-param-count': '42.0' }, error: COUNT_DIFFERS }],
    ['a word for an integer', { args: { count: 42 }, headers: { 'mcp-param-count': 'forty-two' }, error: COUNT_DIFFERS }],
    ['an integer header for a string argument', { args: { count: '42' }, headers: { 'mcp-param-count': '42' }, error: COUNT_DIFFERS }],
    ['True for true', { args: { verbose: true }, headers: { 'mcp-param-verbose': 'True' }, error: VERBOSE_DIFFERS }],
    ['1 for true', { args: { verbose: true }, headers: { 'mcp-param-verbose': '1' }, error: VERBOSE_DIFFERS }],
    ['false for true', { args: { verbose: true }, headers: { 'mcp-param-verbose': 'false' }, error: VERBOSE_DIFFERS }],
    ['base64 of another string', { args: { region: 'eu' }, headers: { 'mcp-param-region': b64('us') }, error: REGION_DIFFERS }],
    [
      'base64 of bytes that are not UTF-8',
      { args: { region: 'eu' }, headers: { 'mcp-param-region': '=?base64?/w==?=' }, error: mismatch('Mcp-Param-Region is malformed') },
    ],
    [
      'base64 without its padding',
      { args: { region: 'eu' }, headers: { 'mcp-param-region': '=?base64?ZXU?=' }, error: mismatch('Mcp-Param-Region is malformed') },
    ],
    [
      'a plain non-ASCII value (Latin-1 bytes)',
      { args: { region: 'é' }, headers: { 'mcp-param-region': 'é' }, error: mismatch('Mcp-Param-Region is malformed') },
    ],
    [
      'a malformed integer header',
      { args: { count: 1 }, headers: { 'mcp-param-count': '=?base64?MQ?=' }, error: mismatch('Mcp-Param-Count is malformed') },
    ],
  ];
  it.each(cases)('%s', async (_name, c) => check(c));

  it('checks the parameters in schema order, after Mcp-Name', async () => {
    await check({
      args: { region: 'eu', count: 1 },
      headers: { 'mcp-param-count': '2' },
      error: mismatch('Missing or repeated required header: mcp-param-region'),
    });
    await check({
      args: { region: 'eu' },
      headers: { 'mcp-name': 'plain', 'mcp-param-region': 'us' },
      error: mismatch('Mcp-Name does not match the request body'),
    });
  });
});
