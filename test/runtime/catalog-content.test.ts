/**
 * Catalog resources, prompts and completions (runtime/mcp/catalog/catalog.ts): resources/read by exact URI or
 * template match, unknown resources and prompts as -32602, missing prompt arguments listed, and
 * completion/complete values from the sample's behaviour.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { catalogServerOptions, type CatalogDefinition } from '../../runtime/mcp/catalog/catalog.ts';
import { matchTemplate } from '../../runtime/mcp/catalog/uri-template.ts';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import { handshake, mcpPair, withMeta } from '../helpers/mcp-pair.ts';

// Both eras' packages loaded before the first request, which would otherwise wait for them.
beforeAll(async () => {
  await Promise.all([requireRevision('2025-11-25'), requireRevision('2026-07-28')]);
});

const LANGUAGES = ['python', 'perl', 'rust', 'php'];
const CAPABILITIES = { resources: {}, prompts: {}, completions: {} };

const DEFINITION: CatalogDefinition = {
  spec: {
    serverInfo: { name: 'content', version: '0.1.0' },
    capabilities: { handshake: CAPABILITIES, stateless: CAPABILITIES },
    resources: [
      { uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' },
      { uri: 'docs://logo', name: 'logo' },
      { uri: 'docs://large', name: 'large' },
      { uri: 'docs://broken', name: 'broken' },
    ],
    resourceTemplates: [{ uriTemplate: 'item://{kind}/{id}', name: 'item', mimeType: 'application/json' }],
    prompts: [
      { name: 'review', description: 'Review code.', arguments: [{ name: 'code', required: true }, { name: 'lang' }] },
      {
        name: 'pair',
        arguments: [
          { name: 'a', required: true },
          { name: 'b', required: true },
        ],
      },
    ],
  },
  behaviours: {
    resources: {
      'docs://readme': () => '# Hi',
      'docs://logo': () => ({ blob: 'iVBO', mimeType: 'image/png' }),
      'docs://large': () => ({ blob: LARGE }),
      // One character outside the base64 alphabet ($def BlobResourceContents: blob is format "byte"), near the end.
      'docs://broken': () => ({ blob: `${LARGE.slice(0, -8)}AAA*AAA=` }),
    },
    resourceTemplates: { 'item://{kind}/{id}': ({ kind, id }) => `{"kind":"${kind}","id":"${id}"}` },
    prompts: {
      review: ({ code, lang }: { code: string; lang?: string }) => `Review this ${lang ?? 'code'}:\n${code}`,
      pair: ({ a, b }: { a: string; b: string }) => ({ description: 'Two.', messages: [{ role: 'user', content: { type: 'text', text: a + b } }] }),
    },
    complete: ({ argument }) =>
      argument.value === '*' ? Array.from({ length: 150 }, (_, i) => `v${i}`) : LANGUAGES.filter((l) => l.startsWith(argument.value)),
  },
  validators: {},
};

async function answer(method: string, params: JsonObject): Promise<JsonObject> {
  const pair = mcpPair(catalogServerOptions(DEFINITION));
  await handshake(pair);
  const { response } = await pair.request(method, params, 1);
  await pair.close();
  const { jsonrpc, id, ...rest } = response;
  return rest;
}

/** 96 KB of base64 (72 KB of bytes), as a large blob resource sends. */
const LARGE = Buffer.alloc(72 * 1024, 0xa5).toString('base64');

describe('resources', () => {
  const cases: [string, { uri: string; want: JsonObject }][] = [
    [
      'a text resource with its mimeType',
      { uri: 'docs://readme', want: { result: { contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hi' }] } } },
    ],
    ['a blob resource', { uri: 'docs://logo', want: { result: { contents: [{ uri: 'docs://logo', mimeType: 'image/png', blob: 'iVBO' }] } } }],
    [
      'a template match',
      {
        uri: 'item://book/42',
        want: { result: { contents: [{ uri: 'item://book/42', mimeType: 'application/json', text: '{"kind":"book","id":"42"}' }] } },
      },
    ],
    [
      'a URI the template does not match',
      { uri: 'item://book', want: { error: { code: -32602, message: 'Unknown resource: item://book', data: { uri: 'item://book' } } } },
    ],
    [
      'an unknown resource',
      { uri: 'docs://nope', want: { error: { code: -32602, message: 'Unknown resource: docs://nope', data: { uri: 'docs://nope' } } } },
    ],
  ];
  it.each(cases)('resources/read: %s', async (_name, { uri, want }) => {
    expect(await answer('resources/read', { uri })).toEqual(want);
  });

  it('sends a large base64 blob, and refuses one with a character outside the alphabet in both eras', async () => {
    expect(await answer('resources/read', { uri: 'docs://large' })).toEqual({ result: { contents: [{ uri: 'docs://large', blob: LARGE }] } });
    expect((await answer('resources/read', { uri: 'docs://broken' }))['error']).toMatchObject({ code: -32603 });
    const pair = mcpPair(catalogServerOptions(DEFINITION));
    const modern = (await pair.request('resources/read', withMeta({ uri: 'docs://broken' }))).response;
    expect(modern['error']).toMatchObject({ code: -32603 });
    await pair.close();
  });

  it('lists resources and templates as specified', async () => {
    expect(await answer('resources/list', {})).toEqual({ result: { resources: DEFINITION.spec.resources } });
    expect(await answer('resources/templates/list', {})).toEqual({ result: { resourceTemplates: DEFINITION.spec.resourceTemplates } });
  });

  const templates: [string, { template: string; uri: string; want: unknown }][] = [
    ['one variable', { template: 'file:///{name}', uri: 'file:///a.txt', want: { name: 'a.txt' } }],
    ['a percent-encoded value', { template: 'file:///{name}', uri: 'file:///a%20b', want: { name: 'a b' } }],
    ['no match across a slash', { template: 'file:///{name}', uri: 'file:///a/b', want: undefined }],
    ['regex characters in the template', { template: 'x+y://{v}', uri: 'x+y://1', want: { v: '1' } }],
  ];
  it.each(templates)('matchTemplate: %s', (_name, { template, uri, want }) => {
    expect(matchTemplate(template, uri)).toEqual(want);
  });
});

describe('prompts', () => {
  const cases: [string, { params: JsonObject; want: JsonObject }][] = [
    [
      'renders a string body as one user message',
      {
        params: { name: 'review', arguments: { code: 'x = 1', lang: 'python' } },
        want: {
          result: { description: 'Review code.', messages: [{ role: 'user', content: { type: 'text', text: 'Review this python:\nx = 1' } }] },
        },
      },
    ],
    [
      'uses the messages and description a body gives',
      {
        params: { name: 'pair', arguments: { a: 'x', b: 'y' } },
        want: { result: { description: 'Two.', messages: [{ role: 'user', content: { type: 'text', text: 'xy' } }] } },
      },
    ],
    ['refuses an unknown prompt', { params: { name: 'nope' }, want: { error: { code: -32602, message: 'Unknown prompt: nope' } } }],
    [
      'lists a missing required argument',
      {
        params: { name: 'review', arguments: { lang: 'go' } },
        want: { error: { code: -32602, message: 'Missing required prompt arguments', data: { missing: ['code'] } } },
      },
    ],
    [
      'lists every missing required argument',
      { params: { name: 'pair' }, want: { error: { code: -32602, message: 'Missing required prompt arguments', data: { missing: ['a', 'b'] } } } },
    ],
  ];
  it.each(cases)('prompts/get %s', async (_name, { params, want }) => {
    expect(await answer('prompts/get', params)).toEqual(want);
  });
});

describe('completion/complete', () => {
  const prompt = { type: 'ref/prompt', name: 'review' };
  const cases: [string, { params: JsonObject; want: JsonObject }][] = [
    [
      'filters by the behaviour',
      {
        params: { ref: prompt, argument: { name: 'lang', value: 'p' } },
        want: { result: { completion: { values: ['python', 'perl', 'php'], total: 3, hasMore: false } } },
      },
    ],
    [
      'caps the values at 100 and reports the total',
      {
        params: { ref: prompt, argument: { name: 'lang', value: '*' } },
        want: { result: { completion: { values: Array.from({ length: 100 }, (_, i) => `v${i}`), total: 150, hasMore: true } } },
      },
    ],
    [
      'returns no values',
      { params: { ref: prompt, argument: { name: 'lang', value: 'z' } }, want: { result: { completion: { values: [], total: 0, hasMore: false } } } },
    ],
    [
      'completes a resource template argument',
      {
        params: { ref: { type: 'ref/resource', uri: 'item://{kind}/{id}' }, argument: { name: 'kind', value: 'ru' } },
        want: { result: { completion: { values: ['rust'], total: 1, hasMore: false } } },
      },
    ],
    // Any reference reaches the sample's function, which decides (the golden corpus: any reference, any argument).
    [
      'passes an unknown prompt to the behaviour',
      {
        params: { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: 'ru' } },
        want: { result: { completion: { values: ['rust'], total: 1, hasMore: false } } },
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { params, want }) => {
    expect(await answer('completion/complete', params)).toEqual(want);
  });
});
