/**
 * The 2026-07-28 request `_meta` envelope (runtime/mcp/stateless/meta.ts): one case per validation step with its
 * code and message, then the order of the steps when a request breaks several at once.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { CAPS, LOG_LEVEL, mcpPair, PV, SERVER_INFO } from '../helpers/mcp-pair.ts';

const OPTIONS = {
  serverInfo: SERVER_INFO,
  capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
  handlers: { 'tools/list': () => ({ tools: [] }) },
};
const V = '2026-07-28';
const TOKEN = 'progressToken must be a string of at most 256 bytes or an int64 integer';
const invalid = (message: string) => ({ code: -32602, message });

/** The error a fresh server answers tools/list with, given this `_meta`. */
async function errorFor(metaObject: JsonObject): Promise<unknown> {
  const pair = mcpPair(OPTIONS);
  const { response } = await pair.request('tools/list', { _meta: metaObject }, 1);
  await pair.close();
  return response['error'] ?? response;
}

describe('_meta validation steps', () => {
  const cases: [string, { given: JsonObject; want: unknown }][] = [
    ['a key with a space', { given: { [PV]: V, [CAPS]: {}, 'bad key': 1 }, want: invalid('_meta contains an invalid key or non-JSON value') }],
    ['a key with an empty label', { given: { [PV]: V, [CAPS]: {}, 'io..x/y': 1 }, want: invalid('_meta contains an invalid key or non-JSON value') }],
    ['an object progressToken', { given: { [PV]: V, [CAPS]: {}, progressToken: {} }, want: invalid(TOKEN) }],
    ['a 300-byte progressToken', { given: { [PV]: V, [CAPS]: {}, progressToken: 'p'.repeat(300) }, want: invalid(TOKEN) }],
    ['a fractional progressToken', { given: { [PV]: V, [CAPS]: {}, progressToken: 1.5 }, want: invalid(TOKEN) }],
    ['a boolean progressToken', { given: { [PV]: V, [CAPS]: {}, progressToken: true }, want: invalid(TOKEN) }],
    ['an unknown logLevel', { given: { [PV]: V, [CAPS]: {}, [LOG_LEVEL]: 'verbose' }, want: invalid('Invalid MCP request log level') }],
    ['a missing protocolVersion', { given: { [CAPS]: {} }, want: invalid('Missing required io.modelcontextprotocol/protocolVersion metadata') }],
    [
      'a numeric protocolVersion',
      { given: { [PV]: 20260728, [CAPS]: {} }, want: invalid('io.modelcontextprotocol/protocolVersion must be a string') },
    ],
    [
      'an unknown protocolVersion',
      {
        given: { [PV]: '2099-01-01', [CAPS]: {} },
        want: { code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: '2099-01-01' } },
      },
    ],
    [
      'a handshake-era protocolVersion',
      {
        given: { [PV]: '2025-11-25', [CAPS]: {} },
        want: { code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: '2025-11-25' } },
      },
    ],
    [
      'clientInfo without version',
      {
        given: { [PV]: V, [CAPS]: {}, 'io.modelcontextprotocol/clientInfo': { name: 'c' } },
        want: invalid('Client info must include string name and version'),
      },
    ],
    ['missing clientCapabilities', { given: { [PV]: V }, want: invalid('Missing required client capabilities metadata') }],
    ['array clientCapabilities', { given: { [PV]: V, [CAPS]: [] }, want: invalid('Client capabilities must be an object') }],
    ['string clientCapabilities', { given: { [PV]: V, [CAPS]: 'all' }, want: invalid('Client capabilities must be an object') }],
    [
      'malformed clientCapabilities',
      { given: { [PV]: V, [CAPS]: { elicitation: 'yes' } }, want: invalid('Client capabilities are malformed: /elicitation must be object') },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    expect(await errorFor(given)).toEqual(want);
  });

  const accepted: [string, { given: JsonObject }][] = [
    ['a 256-byte progressToken', { given: { [PV]: V, [CAPS]: {}, progressToken: 'p'.repeat(256) } }],
    ['an int64 progressToken', { given: { [PV]: V, [CAPS]: {}, progressToken: -7 } }],
    ['a prefixed custom key', { given: { [PV]: V, [CAPS]: {}, 'com.example/trace-id': 'abc' } }],
    [
      'a full clientInfo and a logLevel',
      { given: { [PV]: V, [CAPS]: {}, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, [LOG_LEVEL]: 'debug' } },
    ],
  ];
  it.each(accepted)('accepts %s', async (_name, { given }) => {
    const pair = mcpPair(OPTIONS);
    const { response } = await pair.request('tools/list', { _meta: given }, 1);
    expect(response['result']).toMatchObject({ tools: [], resultType: 'complete' });
    await pair.close();
  });
});

describe('_meta validation order', () => {
  const cases: [string, { given: JsonObject; want: unknown }][] = [
    [
      'a bad key before a bad progressToken',
      { given: { [PV]: V, [CAPS]: {}, 'bad key': 1, progressToken: {} }, want: invalid('_meta contains an invalid key or non-JSON value') },
    ],
    ['a bad progressToken before a bad logLevel', { given: { [PV]: V, [CAPS]: {}, progressToken: {}, [LOG_LEVEL]: 'loud' }, want: invalid(TOKEN) }],
    ['a bad logLevel before a missing version', { given: { [CAPS]: {}, [LOG_LEVEL]: 'loud' }, want: invalid('Invalid MCP request log level') }],
    [
      'a missing version before a bad clientInfo',
      {
        given: { [CAPS]: {}, 'io.modelcontextprotocol/clientInfo': {} },
        want: invalid('Missing required io.modelcontextprotocol/protocolVersion metadata'),
      },
    ],
    [
      'an unknown version before missing capabilities',
      {
        given: { [PV]: '1.0', 'io.modelcontextprotocol/clientInfo': {} },
        want: { code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: '1.0' } },
      },
    ],
    [
      'a bad clientInfo before missing capabilities',
      {
        given: { [PV]: V, 'io.modelcontextprotocol/clientInfo': { version: '1' } },
        want: invalid('Client info must include string name and version'),
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    expect(await errorFor(given)).toEqual(want);
  });
});
