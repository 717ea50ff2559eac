/**
 * 2026-07-28 results (runtime/mcp/stateless/stateless.ts): every result gets resultType "complete" and the server's
 * identity in `_meta`; cacheable methods also get ttlMs/cacheScope from the server's `cache` option (default
 * 0/"private"); server/discover reports the supported versions and the stateless capabilities. The
 * handshake era adds none of this.
 */
import { describe, expect, it } from 'vitest';
import type { ResultMetaObject } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { CacheHints, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, SERVER_INFO, SERVER_INFO_KEY, withMeta } from '../helpers/mcp-pair.ts';

const BODIES: Record<string, { params: JsonObject; result: JsonObject }> = {
  'tools/list': { params: {}, result: { tools: [{ name: 't', inputSchema: { type: 'object' } }] } },
  'tools/call': { params: { name: 't' }, result: { content: [{ type: 'text', text: 'hi' }] } },
  'prompts/list': { params: {}, result: { prompts: [{ name: 'p' }] } },
  'prompts/get': { params: { name: 'p' }, result: { messages: [] } },
  'resources/list': { params: {}, result: { resources: [{ uri: 'file:///a', name: 'a' }] } },
  'resources/templates/list': { params: {}, result: { resourceTemplates: [{ uriTemplate: 'file:///{x}', name: 'x' }] } },
  'resources/read': { params: { uri: 'file:///a' }, result: { contents: [{ uri: 'file:///a', text: 'A' }] } },
};
const CAPABILITIES = { tools: {}, prompts: {}, resources: {} };

function options(cache?: CacheHints): McpServerOptions {
  return {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: CAPABILITIES, stateless: CAPABILITIES },
    handlers: Object.fromEntries(Object.entries(BODIES).map(([method, { result }]) => [method, () => result])),
    ...(cache ? { cache } : {}),
  };
}

async function resultFor(opts: McpServerOptions, method: string, params: JsonObject): Promise<unknown> {
  const pair = mcpPair(opts);
  const { response } = await pair.request(method, withMeta(params));
  await pair.close();
  return response['result'] ?? response;
}

const META = { [SERVER_INFO_KEY]: SERVER_INFO };

describe('2026-07-28 result envelope', () => {
  const cacheable = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'];
  const cases: [string, { method: string; cache?: CacheHints; want: JsonObject }][] = [
    ...cacheable.map((method): [string, { method: string; want: JsonObject }] => [
      `${method} gets the default cache hints`,
      { method, want: { ...BODIES[method]!.result, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: META } },
    ]),
    ...cacheable.map((method): [string, { method: string; cache: CacheHints; want: JsonObject }] => [
      `${method} gets the server's cache hints`,
      {
        method,
        cache: { ttlMs: 60000, cacheScope: 'public' },
        want: { ...BODIES[method]!.result, resultType: 'complete', ttlMs: 60000, cacheScope: 'public', _meta: META },
      },
    ]),
    [
      'tools/call gets no cache hints',
      {
        method: 'tools/call',
        cache: { ttlMs: 5, cacheScope: 'public' },
        want: { ...BODIES['tools/call']!.result, resultType: 'complete', _meta: META },
      },
    ],
    [
      'prompts/get gets no cache hints',
      {
        method: 'prompts/get',
        cache: { ttlMs: 5, cacheScope: 'public' },
        want: { ...BODIES['prompts/get']!.result, resultType: 'complete', _meta: META },
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { method, cache, want }) => {
    expect(await resultFor(options(cache), method, BODIES[method]!.params)).toEqual(want);
  });

  it("keeps the handler's own cache hints and _meta keys", async () => {
    // The schema's ResultMetaObject names only serverInfo (its types are closed), so a key of one's own is cast in.
    const own = { 'com.example/x': 1 } as ResultMetaObject;
    const opts: McpServerOptions = { ...options(), handlers: { 'tools/list': () => ({ tools: [], ttlMs: 10, cacheScope: 'public', _meta: own }) } };
    expect(await resultFor(opts, 'tools/list', {})).toEqual({
      tools: [],
      resultType: 'complete',
      ttlMs: 10,
      cacheScope: 'public',
      _meta: { 'com.example/x': 1, [SERVER_INFO_KEY]: SERVER_INFO },
    });
  });

  it('answers server/discover with the supported versions and the stateless capabilities', async () => {
    const opts: McpServerOptions = {
      ...options({ ttlMs: 1000, cacheScope: 'public' }),
      capabilities: { handshake: {}, stateless: { tools: { listChanged: true } } },
      instructions: 'Hi.',
    };
    expect(await resultFor(opts, 'server/discover', {})).toEqual({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true } },
      instructions: 'Hi.',
      resultType: 'complete',
      ttlMs: 1000,
      cacheScope: 'public',
      _meta: META,
    });
  });

  it('answers a method whose capability the server does not advertise with -32601', async () => {
    const opts: McpServerOptions = { ...options(), capabilities: { handshake: {}, stateless: { tools: {} } } };
    expect(await resultFor(opts, 'prompts/list', {})).toEqual({
      jsonrpc: '2.0',
      id: 'r1',
      error: { code: -32601, message: 'Method not found', data: 'prompts/list' },
    });
  });

  it('answers a result the schema rejects with -32603', async () => {
    // @ts-expect-error a result the schema rejects, on purpose
    const opts: McpServerOptions = { ...options(), handlers: { 'tools/list': () => ({ tools: 'none' }) } };
    expect(await resultFor(opts, 'tools/list', {})).toEqual({ jsonrpc: '2.0', id: 'r1', error: { code: -32603, message: 'Internal error' } });
  });
});

describe('handshake-era results', () => {
  it.each(Object.keys(BODIES))('%s is sent as the handler returned it', async (method) => {
    const pair = mcpPair(options({ ttlMs: 5, cacheScope: 'public' }));
    await handshake(pair);
    expect((await pair.request(method, BODIES[method]!.params)).response['result']).toEqual(BODIES[method]!.result);
    await pair.close();
  });
});
