/**
 * Catalog tools (runtime/mcp/catalog/catalog.ts, pagination.ts): tools/list hides unlisted tools, strips the
 * spec-only fields and pages with opaque cursors; tools/call turns a tool's value into its result per
 * output mode, a throwing tool into an isError result with its message, and an unknown tool into -32602.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { catalogServerOptions, type CatalogDefinition, type ToolSpec } from '../../runtime/mcp/catalog/catalog.ts';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import { handshake, mcpPair, withMeta, type McpPair } from '../helpers/mcp-pair.ts';

// Both eras' packages loaded before the first request, which would otherwise wait for them.
beforeAll(async () => {
  await Promise.all([requireRevision('2025-11-25'), requireRevision('2026-07-28')]);
});

const OBJECT = { type: 'object' } as const;
const TOOLS: ToolSpec[] = [
  {
    name: 'add',
    description: 'Adds.',
    inputSchema: OBJECT,
    outputSchema: { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] },
  },
  { name: 'yes', inputSchema: OBJECT, outputSchema: { type: 'object', properties: { result: { type: 'boolean' } } } },
  { name: 'shape', inputSchema: OBJECT, outputSchema: OBJECT, output: 'structured' },
  { name: 'hello', inputSchema: OBJECT, output: 'text' },
  { name: 'secret', inputSchema: OBJECT, listed: false },
  { name: 'whole', inputSchema: OBJECT, output: 'result' },
  { name: 'boom', inputSchema: OBJECT },
];
const VALID = { input: () => true, output: () => true };

const DEFINITION: CatalogDefinition = {
  spec: {
    serverInfo: { name: 'catalog', version: '0.1.0' },
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    pageSize: 2,
    tools: TOOLS,
  },
  behaviours: {
    tools: {
      add: ({ a, b }: { a: number; b: number }) => a + b,
      yes: () => true,
      shape: () => ({ z: 1, a: { d: [2, 1], c: 'x' } }),
      hello: ({ who }: { who: string }) => `hello ${who}`,
      secret: () => 'found',
      whole: () => ({ content: [{ type: 'text', text: 'raw' }], isError: true }),
      boom: () => {
        throw new Error('kaput');
      },
    },
  },
  validators: Object.fromEntries(TOOLS.map((t) => [t.name, VALID])),
};

async function open(): Promise<McpPair> {
  const pair = mcpPair(catalogServerOptions(DEFINITION));
  await handshake(pair);
  return pair;
}

async function answer(method: string, params: JsonObject): Promise<JsonObject> {
  const pair = await open();
  const { response } = await pair.request(method, params, 1);
  await pair.close();
  return response;
}

const strip = ({ output, listed, ...wire }: ToolSpec) => wire;
const names = (result: unknown) => ((result as JsonObject)['tools'] as JsonObject[]).map((t) => t['name']);

describe('tools/list', () => {
  it('pages through the listed tools without the spec-only fields', async () => {
    const pair = await open();
    const pages: unknown[] = [];
    let cursor: unknown;
    do {
      const result = (await pair.request('tools/list', cursor === undefined ? {} : { cursor })).response['result'] as JsonObject;
      pages.push(result['tools']);
      cursor = result['nextCursor'];
      if (cursor !== undefined) expect(cursor).toEqual(expect.any(String));
    } while (cursor !== undefined && pages.length < 10);
    const listed = TOOLS.filter((t) => t.listed !== false).map(strip);
    expect(pages).toEqual([listed.slice(0, 2), listed.slice(2, 4), listed.slice(4, 6)]);
    expect(pages.flat().some((t) => 'output' in (t as JsonObject) || 'listed' in (t as JsonObject))).toBe(false);
    await pair.close();
  });

  it('pages the same way in 2026-07-28', async () => {
    const pair = mcpPair(catalogServerOptions(DEFINITION));
    const first = (await pair.request('tools/list', withMeta())).response['result'] as JsonObject;
    expect(names(first)).toEqual(['add', 'yes']);
    const second = (await pair.request('tools/list', withMeta({ cursor: first['nextCursor'] }))).response['result'] as JsonObject;
    expect(names(second)).toEqual(['shape', 'hello']);
    await pair.close();
  });

  const bad: [string, { params: JsonObject; want: unknown }][] = [
    ['a garbage cursor', { params: { cursor: 'garbage' }, want: { code: -32602, message: 'Invalid pagination cursor' } }],
    [
      'a cursor of another list method',
      {
        params: { cursor: `c1.${Buffer.from('["prompts/list",2,6]').toString('base64url')}` },
        want: { code: -32602, message: 'Invalid pagination cursor' },
      },
    ],
    [
      'a cursor past the end',
      {
        params: { cursor: `c1.${Buffer.from('["tools/list",60,6]').toString('base64url')}` },
        want: { code: -32602, message: 'Pagination cursor has expired' },
      },
    ],
    ['a numeric cursor', { params: { cursor: 2 }, want: { code: -32602, message: 'Invalid request parameters', data: '' } }],
  ];
  it.each(bad)('refuses %s', async (_name, { params, want }) => {
    expect((await answer('tools/list', params))['error']).toEqual(want);
  });

  it('refuses a numeric cursor in 2026-07-28 with the schema error', async () => {
    const pair = mcpPair(catalogServerOptions(DEFINITION));
    expect((await pair.request('tools/list', withMeta({ cursor: 2 }))).response['error']).toEqual({
      code: -32602,
      message: 'Invalid params: /cursor must be string',
    });
    await pair.close();
  });
});

describe('tools/call', () => {
  const text = (t: string) => [{ type: 'text', text: t }];
  const cases: [string, { params: JsonObject; want: JsonObject }][] = [
    [
      'wrapped: an integer',
      { params: { name: 'add', arguments: { a: 2, b: 3 } }, want: { content: text('5'), isError: false, structuredContent: { result: 5 } } },
    ],
    [
      'wrapped: a boolean in Python spelling',
      { params: { name: 'yes' }, want: { content: text('True'), isError: false, structuredContent: { result: true } } },
    ],
    [
      'structured: canonical sorted compact text',
      {
        params: { name: 'shape' },
        want: { content: text('{"a":{"c":"x","d":[2,1]},"z":1}'), isError: false, structuredContent: { z: 1, a: { d: [2, 1], c: 'x' } } },
      },
    ],
    ['text: the string', { params: { name: 'hello', arguments: { who: 'you' } }, want: { content: text('hello you'), isError: false } }],
    ['result: the value as is', { params: { name: 'whole' }, want: { content: text('raw'), isError: true } }],
    ['an unlisted tool', { params: { name: 'secret' }, want: { content: text('found'), isError: false } }],
    // The thrown message, as the TypeScript SDK v2 sends it (thrown-errors.test.ts has the rule on every method).
    ['a throwing tool', { params: { name: 'boom' }, want: { content: text('kaput'), isError: true } }],
  ];
  it.each(cases)('%s', async (_name, { params, want }) => {
    expect(await answer('tools/call', params)).toEqual({ jsonrpc: '2.0', id: 1, result: want });
  });

  it('answers an unknown tool with -32602 (the schema: errors finding the tool are protocol errors)', async () => {
    expect(await answer('tools/call', { name: 'nope' })).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: nope' } });
  });

  it('answers an unknown tool with an isError result when the spec says unknownTool: result (the Python SDK)', async () => {
    const pair = mcpPair(catalogServerOptions({ ...DEFINITION, spec: { ...DEFINITION.spec, unknownTool: 'result' } }));
    await handshake(pair);
    const { response } = await pair.request('tools/call', { name: 'nope' }, 1);
    await pair.close();
    expect(response).toEqual({ jsonrpc: '2.0', id: 1, result: { content: text('Unknown tool: nope'), isError: true } });
  });

  it('reports arguments its input validator rejects as a tool error', async () => {
    const strict = Object.assign(() => false, { errors: [{ instancePath: '/a', message: 'must be integer' }] });
    const definition = { ...DEFINITION, validators: { ...DEFINITION.validators, add: { input: strict } } };
    const pair = mcpPair(catalogServerOptions(definition));
    await handshake(pair);
    expect((await pair.request('tools/call', { name: 'add', arguments: { a: 'x' } })).response['result']).toEqual({
      content: text('Error executing tool add: invalid arguments: /a must be integer'),
      isError: true,
    });
    await pair.close();
  });
});
