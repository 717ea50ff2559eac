/**
 * A catalog's list pages made once (runtime/mcp/catalog/pagination.ts pagedList, jsonrpc/reusable.ts): the same
 * bytes on every request and in both eras, a page the revision's schema rejects rejected every time, pages no
 * handler can change, and each catalog its own pages.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodedResult, serializeResult, WideId, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import { isReusable, reusable, stringifyOnce } from '../../runtime/jsonrpc/reusable.ts';
import { catalogHandlers, catalogServerOptions, type CatalogDefinition, type ToolSpec } from '../../runtime/mcp/catalog/catalog.ts';
import { mcpFetchHandler } from '../../runtime/mcp/http/adapters.ts';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { withEnvelope } from '../../runtime/mcp/stateless/result.ts';
import { call, serverPool, statelessRequest } from '../helpers/http-client.ts';
import { handshake, mcpPair, SERVER_INFO_KEY, withMeta } from '../helpers/mcp-pair.ts';

beforeAll(async () => {
  await Promise.all([requireRevision('2025-11-25'), requireRevision('2026-07-28')]);
});

const OBJECT = { type: 'object' } as const;
const tool = (name: string, more: Partial<ToolSpec> = {}): ToolSpec => ({ name, inputSchema: OBJECT, ...more });
const TOOLS: ToolSpec[] = [
  tool('a', { description: 'First.', annotations: { readOnlyHint: true } }),
  tool('b', { output: 'text' }),
  tool('hidden', { listed: false }),
  tool('c', { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }),
];
const SERVER = { name: 'pages', version: '1.0.0' };

function definition(tools: ToolSpec[], pageSize = 2): CatalogDefinition {
  return {
    spec: { serverInfo: SERVER, capabilities: { handshake: { tools: {} }, stateless: { tools: {} } }, pageSize, tools },
    behaviours: { tools: Object.fromEntries(tools.map((t) => [t.name, () => 'ok'])) },
    validators: {},
  };
}

/** The raw text of `count` answers to tools/list at `cursor` in 2026-07-28, each with its own id. */
async function statelessLines(def: CatalogDefinition, count: number, cursor?: string): Promise<string[]> {
  const pair = mcpPair(catalogServerOptions(def));
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    await pair.request('tools/list', withMeta(cursor === undefined ? {} : { cursor }), i);
    lines.push(pair.lines.at(-1)!);
  }
  await pair.close();
  return lines;
}

const pool = serverPool();
afterEach(() => pool.closeAll());

describe('tools/list pages made once', () => {
  it('answers the same JSON over Streamable HTTP, its content-length the bytes sent, non-ASCII included', async () => {
    const running = await pool.start(catalogServerOptions(definition([tool('naïve — ✓', { description: 'Ünïcode 😀' }), ...TOOLS], 10)));
    const replies = [];
    for (const id of [1, 'two', 3]) replies.push(await call(running.url, 'tools/list', {}, { id }));
    for (const [i, reply] of replies.entries()) {
      expect(reply.status).toBe(200);
      expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
      expect(reply.json!['id']).toBe([1, 'two', 3][i]);
      const result = reply.json!['result'] as JsonObject;
      expect((result['tools'] as JsonObject[]).map((t) => t['name'])).toEqual(['naïve — ✓', 'a', 'b', 'c']);
      expect((result['tools'] as JsonObject[])[0]).toEqual({ name: 'naïve — ✓', inputSchema: OBJECT, description: 'Ünïcode 😀' });
    }
    expect(replies[2]!.text).toBe(replies[0]!.text.replace('"id":1', '"id":3'));
  });

  it('answers the same JSON from the fetch handler, as the node one does', async () => {
    const def = definition([tool('naïve — ✓'), ...TOOLS], 10);
    const running = await pool.start(catalogServerOptions(def));
    const node = (await call(running.url, 'tools/list', {}, { id: 5 })).text;
    const mcp = mcpFetchHandler(new McpServer({ log: () => {}, ...catalogServerOptions(def) }));
    for (let i = 0; i < 2; i++) {
      const request = statelessRequest('tools/list', {}, { id: 5 });
      const res = await mcp(
        new Request('http://localhost/mcp', { method: 'POST', headers: request.headers as Record<string, string>, body: request.body }),
      );
      const text = await res.text();
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(text).toBe(node);
    }
  });

  it('answers the same bytes on every request of 2026-07-28, as the page and its envelope are written', async () => {
    const lines = await statelessLines(definition(TOOLS), 3);
    const page = {
      tools: [
        { name: 'a', inputSchema: OBJECT, description: 'First.', annotations: { readOnlyHint: true } },
        { name: 'b', inputSchema: OBJECT },
      ],
    };
    for (const [i, line] of lines.entries()) {
      const result = (JSON.parse(line) as JsonObject)['result'] as JsonObject;
      expect(result).toEqual({
        ...page,
        nextCursor: expect.any(String),
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { [SERVER_INFO_KEY]: SERVER },
      });
      expect(line).toBe(lines[0]!.replace('"id":0', `"id":${i}`));
    }
    const next = ((JSON.parse(lines[0]!) as JsonObject)['result'] as JsonObject)['nextCursor'] as string;
    const second = await statelessLines(definition(TOOLS), 2, next);
    const result = (JSON.parse(second[1]!) as JsonObject)['result'] as JsonObject;
    expect(result['tools']).toEqual([{ name: 'c', inputSchema: TOOLS[3]!.inputSchema }]);
    expect('nextCursor' in result).toBe(false);
    expect(second[1]).toBe(second[0]!.replace('"id":0', '"id":1'));
  });

  it('answers the same page in the handshake era, after the other era on the same server', async () => {
    const options = catalogServerOptions(definition(TOOLS, 10));
    const modern = mcpPair(options);
    const first = (await modern.request('tools/list', withMeta())).response['result'] as JsonObject;
    const old = mcpPair(modern.server);
    await handshake(old);
    for (let i = 0; i < 2; i++) {
      const result = (await old.request('tools/list', {})).response['result'] as JsonObject;
      expect(result).toEqual({ tools: first['tools'] });
    }
    await Promise.all([modern.close(), old.close()]);
  });

  it('refuses a page the revision schema rejects on every request, not only the first', async () => {
    // inputSchema.type is the constant "object" ($def Tool).
    const def = definition([tool('bad', { inputSchema: { type: 'string' } as never })]);
    const pair = mcpPair(catalogServerOptions(def));
    for (let i = 0; i < 3; i++) expect((await pair.request('tools/list', withMeta())).response['error']).toMatchObject({ code: -32603 });
    await pair.close();
  });

  it('hands out pages no handler can change', () => {
    const list = catalogHandlers(definition(TOOLS))['tools/list']!;
    const page = list({}, {} as never) as unknown as { tools: JsonObject[] };
    expect(() => page.tools.push({ name: 'x' })).toThrow(TypeError);
    expect(() => Object.assign(page.tools[0]!, { name: 'renamed' })).toThrow(TypeError);
    expect(() => Object.assign(page.tools[0]!['annotations'] as JsonObject, { readOnlyHint: false })).toThrow(TypeError);
    expect(list({}, {} as never)).toBe(page);
    expect(page.tools.map((t) => t['name'])).toEqual(['a', 'b']);
  });

  it('makes a page at a cursor it did not write on each request, from the right offset', () => {
    const list = catalogHandlers(definition(TOOLS))['tools/list']!;
    const cursor = `c1.${Buffer.from('["tools/list",1,3]').toString('base64url')}`;
    const page = list({ cursor }, {} as never) as unknown as { tools: JsonObject[]; nextCursor?: string };
    expect(page.tools.map((t) => t['name'])).toEqual(['b', 'c']);
    expect(isReusable(page)).toBe(false);
    expect(list({ cursor }, {} as never)).not.toBe(page);
  });

  it('keeps each catalog its own pages: a server built with a tool added or removed lists its own', async () => {
    const added = await statelessLines(definition([...TOOLS, tool('d')], 10), 2);
    const removed = await statelessLines(definition(TOOLS.slice(1), 10), 2);
    const names = (line: string) => (((JSON.parse(line) as JsonObject)['result'] as JsonObject)['tools'] as JsonObject[]).map((t) => t['name']);
    expect(added.map(names)).toEqual([
      ['a', 'b', 'c', 'd'],
      ['a', 'b', 'c', 'd'],
    ]);
    expect(removed.map(names)).toEqual([
      ['b', 'c'],
      ['b', 'c'],
    ]);
  });
});

const same = (json: string) => json;

describe('reusable values', () => {
  it('are a deep-frozen copy written as the original is', () => {
    const original = { b: [1, { c: 'x', skip: undefined }], a: null, big: 1e21, neg: -0 };
    const copy = reusable(original);
    expect(copy).not.toBe(original);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.b) && Object.isFrozen(copy.b[1])).toBe(true);
    expect(stringifyOnce(copy, same)).toBe('{"b":[1,{"c":"x"}],"a":null,"big":1e+21,"neg":0}');
    expect(stringifyOnce(copy, same)).toBe(JSON.stringify(original));
    original.b.push(2);
    expect(stringifyOnce(copy, same)).toBe('{"b":[1,{"c":"x"}],"a":null,"big":1e+21,"neg":0}');
    expect(isReusable(original)).toBe(false);
  });

  it('are sent as the bytes of the text serializeResult writes, whatever the id', () => {
    const page = reusable({ tools: [{ name: 'ünïcode — ✓ 😀', inputSchema: OBJECT }] });
    for (const id of [1, 'a"b', -0.5, new WideId('12345678901234567890')])
      expect(new TextDecoder().decode(encodedResult(id, page))).toBe(serializeResult(id, page));
    expect(encodedResult(7, page)).toEqual(new TextEncoder().encode(`{"jsonrpc":"2.0","id":7,"result":${JSON.stringify(page)}}`));
  });
});

describe('a page answered by servers taking turns', () => {
  it('is enveloped once for each server, not again at each turn', () => {
    const page = reusable({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    const entry = { method: 'tools/list', cacheable: true } as never;
    const a = { serverInfo: { name: 'a', version: '1' } } as never;
    const b = { serverInfo: { name: 'b', version: '1' } } as never;
    const first = withEnvelope(a, entry, page);
    const other = withEnvelope(b, entry, page);
    expect(other).not.toBe(first);
    expect(withEnvelope(a, entry, page)).toBe(first);
    expect(withEnvelope(b, entry, page)).toBe(other);
    expect(isReusable(first)).toBe(true);
  });
});
