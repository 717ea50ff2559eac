/**
 * The result helpers (runtime/mcp/catalog/results.ts) on a code-first server: each builds the CallToolResult
 * the schema defines ($def CallToolResult, ImageContent, AudioContent, ResourceLink, BlobResourceContents),
 * sent as it is whatever the tool's output mode; `result.error` is an isError result shown even when thrown
 * errors are masked, and is not logged as a failure; the base64 is RFC 4648's (checked against Node's Buffer).
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { base64, base64Portable, blob, block, result } from '../../runtime/mcp/catalog/results.ts';
import { mcpPair, withMeta } from '../helpers/mcp-pair.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128]);

async function serve(logged: string[]) {
  const server = await mcpServer({ name: 'results', version: '1.0.0', thrownErrors: 'mask' })
    .tool('chart', {}, () => result.image(PNG, 'image/png'))
    .tool('speak', {}, () => result.audio('UklGRg==', 'audio/wav'))
    .tool('both', {}, () =>
      result.content(block.text('a chart:'), block.image(PNG, 'image/png'), block.link('note://1', 'note 1', { mimeType: 'text/markdown' })),
    )
    .tool('lines', {}, () => result.text('one', 'two'))
    .tool('stats', {}, () => result.json({ count: 2, tags: ['a'] }))
    .tool(
      'find',
      {
        input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        output: { type: 'object', properties: { title: { type: 'string' } } },
      },
      ({ id }) => (id === 'n1' ? { title: 'first' } : result.error(`no note ${id}`)),
    )
    .resource('file://logo.png', {}, () => blob(PNG, 'image/png'))
    .build({ log: (line) => logged.push(line) });
  const pair = mcpPair(server);
  return async (method: string, params: JsonObject) => (await pair.request(method, withMeta(params))).response['result'] as JsonObject;
}

describe('tool result helpers', () => {
  it('build each content block of the schema, sent as built', async () => {
    const logged: string[] = [];
    const call = await serve(logged);
    const png = Buffer.from(PNG).toString('base64');
    expect(await call('tools/call', { name: 'chart' })).toMatchObject({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] });
    expect((await call('tools/call', { name: 'chart' }))['isError']).toBeUndefined();
    expect(await call('tools/call', { name: 'speak' })).toMatchObject({ content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] });
    expect((await call('tools/call', { name: 'both' }))['content']).toEqual([
      { type: 'text', text: 'a chart:' },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'resource_link', uri: 'note://1', name: 'note 1', mimeType: 'text/markdown' },
    ]);
    expect((await call('tools/call', { name: 'lines' }))['content']).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(await call('tools/call', { name: 'stats' })).toMatchObject({
      content: [{ type: 'text', text: '{"count":2,"tags":["a"]}' }],
      structuredContent: { count: 2, tags: ['a'] },
    });
    expect(await call('resources/read', { uri: 'file://logo.png' })).toMatchObject({
      contents: [{ uri: 'file://logo.png', mimeType: 'image/png', blob: png }],
    });
    expect(logged).toEqual([]);
  });

  it('result.error is read by the model as it is, even with thrown errors masked, and is not logged as a failure', async () => {
    const logged: string[] = [];
    const call = await serve(logged);
    expect(await call('tools/call', { name: 'find', arguments: { id: 'n1' } })).toMatchObject({ structuredContent: { title: 'first' } });
    expect(await call('tools/call', { name: 'find', arguments: { id: 'n9' } })).toMatchObject({
      content: [{ type: 'text', text: 'no note n9' }],
      isError: true,
    });
    expect(logged).toEqual([]);
  });

  it('base64 is the standard alphabet with padding, for any length and beyond one chunk', () => {
    for (const length of [0, 1, 2, 3, 4, 0x8000, 0x8001, 100_000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) % 256);
      expect(base64(bytes), String(length)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('the btoa path (no Buffer, as on a Worker) writes the same text, also for a view into a larger buffer', () => {
    const whole = Uint8Array.from({ length: 100_010 }, (_, i) => (i * 131 + 7) % 256);
    for (const bytes of [whole.subarray(0, 0), whole.subarray(3, 4), whole.subarray(5, 0x8006), whole.subarray(7, 100_007)]) {
      const want = Buffer.from(bytes).toString('base64');
      expect(base64Portable(bytes), String(bytes.length)).toBe(want);
      expect(base64(bytes), String(bytes.length)).toBe(want);
    }
  });
});
