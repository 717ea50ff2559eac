/**
 * Eras (runtime/mcp/server/connection.ts, handshake.ts, stateless.ts): a fresh connection's first request decides
 * whether it serves the handshake era (initialize) or the 2026-07-28 stateless era (the `_meta` envelope),
 * and each era refuses what belongs to the other, with the codes and messages the SDK sent.
 */
import { describe, expect, it } from 'vitest';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, meta, SERVER_INFO, withMeta } from '../helpers/mcp-pair.ts';

const TOOLS = { tools: [{ name: 't', inputSchema: { type: 'object' as const } }] };
const OPTIONS: McpServerOptions = {
  serverInfo: SERVER_INFO,
  capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
  handlers: { 'tools/list': () => TOOLS },
};
const INVALID_PARAMS = { code: -32602, message: 'Invalid request parameters', data: '' };
const MISSING_ENVELOPE =
  "params._meta must be an object carrying the required 'io.modelcontextprotocol/protocolVersion' and 'io.modelcontextprotocol/clientCapabilities' envelope keys";
const notFound = (method: string) => ({ code: -32601, message: 'Method not found', data: method });

describe('the handshake era', () => {
  const versions: [string, { given: string; want: string }][] = [
    ['2024-11-05 is echoed', { given: '2024-11-05', want: '2024-11-05' }],
    ['2025-03-26 is echoed', { given: '2025-03-26', want: '2025-03-26' }],
    ['2025-06-18 is echoed', { given: '2025-06-18', want: '2025-06-18' }],
    ['2025-11-25 is echoed', { given: '2025-11-25', want: '2025-11-25' }],
    ['an unknown version gets the newest', { given: '1999-01-01', want: '2025-11-25' }],
  ];
  it.each(versions)('initialize negotiates: %s', async (_name, { given, want }) => {
    const pair = mcpPair({ ...OPTIONS, instructions: 'Be nice.' });
    expect(await handshake(pair, given)).toEqual({
      protocolVersion: want,
      capabilities: { tools: {} },
      serverInfo: SERVER_INFO,
      instructions: 'Be nice.',
    });
    expect(pair.connection.era).toBe('handshake');
    expect((await pair.request('tools/list', {})).response['result']).toEqual(TOOLS);
    await pair.close();
  });

  it('answers a request before initialize with -32602 and serves ping', async () => {
    const pair = mcpPair(OPTIONS);
    expect((await pair.request('tools/list', {}, 1)).response).toEqual({ jsonrpc: '2.0', id: 1, error: INVALID_PARAMS });
    expect((await pair.request('ping', undefined, 2)).response).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(pair.connection.era).toBeUndefined();
    await pair.close();
  });

  it('answers a request between initialize and notifications/initialized with -32602 and serves ping', async () => {
    const pair = mcpPair(OPTIONS);
    await pair.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect((await pair.request('tools/list', {}, 1)).response).toEqual({ jsonrpc: '2.0', id: 1, error: INVALID_PARAMS });
    expect((await pair.request('ping', undefined, 2)).response).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    pair.notify('notifications/initialized');
    expect((await pair.request('tools/list', {}, 3)).response).toEqual({ jsonrpc: '2.0', id: 3, result: TOOLS });
    await pair.close();
  });

  const refused: [string, { method: string; params: Record<string, unknown>; want: unknown }][] = [
    [
      'a request carrying the 2026-07-28 envelope',
      {
        method: 'tools/list',
        params: withMeta(),
        want: {
          code: -32600,
          message: 'this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it',
        },
      },
    ],
    [
      'a second initialize',
      {
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        want: { code: -32600, message: 'Invalid Request: the connection is already initialized' },
      },
    ],
    ['server/discover', { method: 'server/discover', params: {}, want: notFound('server/discover') }],
    ['an unknown method', { method: 'no/such', params: {}, want: notFound('no/such') }],
  ];
  it.each(refused)('after the handshake, refuses %s', async (_name, { method, params, want }) => {
    const pair = mcpPair(OPTIONS);
    await handshake(pair);
    expect((await pair.request(method, params, 'x')).response).toEqual({ jsonrpc: '2.0', id: 'x', error: want });
    await pair.close();
  });
});

describe('the stateless era', () => {
  it('is chosen by a first request carrying the envelope', async () => {
    const pair = mcpPair(OPTIONS);
    const { response } = await pair.request('tools/list', { _meta: meta() });
    expect(response['result']).toMatchObject({ ...TOOLS, resultType: 'complete' });
    expect(pair.connection.era).toBe('stateless');
    await pair.close();
  });

  it('then answers a request without the envelope with the missing-envelope message', async () => {
    const pair = mcpPair(OPTIONS);
    await pair.request('tools/list', withMeta());
    expect((await pair.request('tools/list', {}, 2)).response).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: MISSING_ENVELOPE } });
    expect((await pair.request('tools/list', undefined, 3)).response).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: MISSING_ENVELOPE },
    });
    await pair.close();
  });

  const gone: [string, { method: string; params: Record<string, unknown> }][] = [
    ['initialize', { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }],
    [
      'initialize with the envelope',
      { method: 'initialize', params: withMeta({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }) },
    ],
    ['ping', { method: 'ping', params: withMeta() }],
    ['logging/setLevel', { method: 'logging/setLevel', params: withMeta({ level: 'info' }) }],
    ['resources/subscribe', { method: 'resources/subscribe', params: withMeta({ uri: 'file:///a' }) }],
    ['an unknown method', { method: 'no/such', params: withMeta() }],
  ];
  it.each(gone)('answers %s with -32601 and the method name', async (_name, { method, params }) => {
    const pair = mcpPair(OPTIONS);
    await pair.request('tools/list', withMeta());
    expect((await pair.request(method, params, 9)).response).toEqual({ jsonrpc: '2.0', id: 9, error: notFound(method) });
    await pair.close();
  });

  it('treats a first server/discover without the envelope as a 2026-07-28 request', async () => {
    const pair = mcpPair(OPTIONS);
    expect((await pair.request('server/discover', {}, 1)).response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: MISSING_ENVELOPE },
    });
    await pair.close();
  });
});
