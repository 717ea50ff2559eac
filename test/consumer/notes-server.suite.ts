/**
 * @module test/consumer/notes-server.suite — examples/notes-server installed from the tarballs with Zod from the
 * registry: the notes server written the recommended way (code first, Zod schemas), counted (non-blank,
 * non-comment lines of what its author writes: its one source file), type-checked strictly, run on plain Node and
 * called by both official clients over stdio (handshake era and 2026-07-28): the schemas it advertises are
 * Zod's conversions, arguments are validated, defaulted and answered as the tools are written, progress and
 * cancellation reach the client, the resource template and the prompt read the notes.
 */
import { readFileSync } from 'node:fs';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFO, tsc } from './harness.ts';
import { consumerProject, type ConsumerProject, type Packed } from './packages.ts';

import { codeLines, NOTES_BUDGET as BUDGET } from '../code-first/line-count.ts';

type Call = (
  name: string,
  args?: Record<string, unknown>,
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void,
  signal?: AbortSignal,
) => Promise<Record<string, unknown>>;

export function notesServerSuite(packed: () => Packed): void {
  describe('examples/notes-server, installed from the tarballs', () => {
    let project: ConsumerProject;

    beforeAll(() => {
      project = consumerProject('notes-server', packed());
    }, 300_000);

    afterAll(() => project?.dispose());

    it(`is at most ${BUDGET} lines, type-checks strictly and builds`, () => {
      expect(codeLines(readFileSync(project.path('src/server.ts'), 'utf8'))).toBeLessThanOrEqual(BUDGET);
      tsc(project);
    });

    it('serves both official clients over stdio, in both eras, as its code says', async () => {
      const v1 = new V1Client(INFO);
      const v2 = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
      const main = { command: process.execPath, args: ['dist/server.js'], cwd: project.root, stderr: 'pipe' as const };
      await v1.connect(new V1Stdio(main));
      await v2.connect(new V2Stdio(main));
      try {
        expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        const calls: [string, Call][] = [
          [
            'v1',
            (name, args, onprogress, signal) =>
              v1.callTool({ name, arguments: args ?? {} }, undefined, {
                ...(onprogress ? { onprogress } : {}),
                ...(signal ? { signal } : {}),
              }) as never,
          ],
          [
            'v2',
            (name, args, onprogress, signal) =>
              v2.callTool({ name, arguments: args ?? {} }, { ...(onprogress ? { onprogress } : {}), ...(signal ? { signal } : {}) }) as never,
          ],
        ];
        for (const client of [v1, v2]) {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toEqual(['add_note', 'list_notes', 'delete_note', 'summarize']);
          // Zod 4's z.toJSONSchema of the input side: defaults make a property optional and are advertised.
          expect(tools[0]!.inputSchema).toMatchObject({
            type: 'object',
            properties: {
              title: { type: 'string', minLength: 1, maxLength: 100 },
              body: { type: 'string' },
              tags: { type: 'array', items: { type: 'string' }, maxItems: 10, default: [] },
              priority: { type: 'string', enum: ['low', 'normal', 'high'], default: 'normal' },
              due: { type: 'string', format: 'date' },
            },
            required: ['title', 'body'],
          });
          expect(tools[0]!.outputSchema).toMatchObject({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
          expect(tools[1]!.inputSchema).toMatchObject({ properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } } });
        }
        for (const [era, call] of calls) {
          const added = await call('add_note', { title: `${era} first`, body: 'Buy milk', tags: ['home'] });
          expect(added).toMatchObject({ structuredContent: { id: expect.stringMatching(/^n\d+$/) } });
          const id = (added['structuredContent'] as { id: string }).id;
          await call('add_note', { title: `${era} second`, body: 'Call Ana', priority: 'high', due: '2026-12-24' });
          const tooLong = await call('add_note', { title: 'x'.repeat(101), body: '' });
          expect(tooLong['isError']).toBe(true);
          expect(JSON.stringify(tooLong['content'])).toContain('/title');
          expect((await call('add_note', { title: 't', body: '', due: 'tomorrow' }))['isError']).toBe(true);
          const listed = await call('list_notes', { tag: 'home', limit: 1 });
          expect(listed['structuredContent']).toMatchObject({ notes: [{ id: expect.any(String), title: expect.stringMatching(/first$/) }] });
          expect((await call('list_notes', { limit: 51 }))['isError']).toBe(true);
          const seen: unknown[] = [];
          const summarized = await call('summarize', {}, (p) => seen.push([p.progress, p.total]));
          // Each step reports before its work, so the last notification is not in the chunk of the answer (which
          // the official clients' stdio transports may then drop: test/interop/README.md).
          expect(seen).toEqual([
            [0, 4],
            [1, 4],
            [2, 4],
            [3, 4],
          ]);
          expect(JSON.stringify(summarized['content'])).toContain(`${era} second (high)`);
          const controller = new AbortController();
          await expect(call('summarize', {}, () => controller.abort('enough'), controller.signal)).rejects.toThrow();
          const deleted = await call('delete_note', { id });
          expect(deleted['content']).toEqual([{ type: 'text', text: `Deleted ${id}` }]);
          expect(await call('delete_note', { id })).toMatchObject({ isError: true, content: [{ type: 'text', text: `No note ${id}` }] });
        }
        // Each client started a server of its own: its notes are the ones its era added.
        for (const [era, client] of [
          ['v1', v1],
          ['v2', v2],
        ] as const) {
          const { resourceTemplates } = await client.listResourceTemplates();
          expect(resourceTemplates).toMatchObject([{ uriTemplate: 'note://{id}', name: 'note', mimeType: 'text/markdown' }]);
          const { notes } = (await client.callTool({ name: 'list_notes', arguments: {} })).structuredContent as { notes: { id: string }[] };
          const read = await client.readResource({ uri: `note://${notes[0]!.id}` });
          expect(read.contents).toEqual([{ uri: `note://${notes[0]!.id}`, mimeType: 'text/markdown', text: `# ${era} second\n\nCall Ana` }]);
          const { prompts } = await client.listPrompts();
          expect(prompts).toMatchObject([{ name: 'review_note', arguments: [{ name: 'id', required: true }] }]);
          const prompt = await client.getPrompt({ name: 'review_note', arguments: { id: notes[0]!.id } });
          expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('Call Ana') });
        }
      } finally {
        await v1.close();
        await v2.close();
      }
    }, 120_000);
  });
}
