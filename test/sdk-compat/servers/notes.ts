// The notes server written for the official SDK v2, as its server guide writes one: four tools, a resource template and a prompt, with Zod, on stdio.
import { McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const Note = z.object({
  title: z.string().min(1).max(100),
  body: z.string(),
  tags: z.array(z.string()).max(10).default([]),
  priority: z.enum(['low', 'normal', 'high']).default('normal'),
  due: z.iso.date().optional(),
});
const notes = new Map<string, z.output<typeof Note> & { id: string }>();
let last = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function createServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('add_note', { description: 'Add a note', inputSchema: Note, outputSchema: z.object({ id: z.string() }) }, async (note) => {
    const id = `n${++last}`;
    notes.set(id, { ...note, id });
    return { content: [{ type: 'text', text: JSON.stringify({ id }) }], structuredContent: { id } };
  });
  server.registerTool(
    'list_notes',
    {
      description: 'List notes, newest last, optionally by tag',
      inputSchema: z.object({ tag: z.string().optional(), limit: z.int().min(1).max(50).default(10), cursor: z.string().optional() }),
      outputSchema: z.object({ notes: z.array(z.object({ id: z.string(), title: z.string() })), next: z.string().optional() }),
    },
    async ({ tag, limit, cursor }) => {
      const all = [...notes.values()].filter((note) => tag === undefined || note.tags.includes(tag));
      const start = Number(cursor ?? 0);
      const page = all.slice(start, start + limit).map(({ id, title }) => ({ id, title }));
      const output = start + limit < all.length ? { notes: page, next: String(start + limit) } : { notes: page };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
  server.registerTool('delete_note', { description: 'Delete a note', inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
    if (!notes.delete(id)) throw new Error(`No note ${id}`);
    return { content: [{ type: 'text', text: `Deleted ${id}` }] };
  });
  server.registerTool('summarize', { description: 'Summarize every note' }, async (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let step = 1; step <= 4; step++) {
      await sleep(100);
      ctx.mcpReq.signal.throwIfAborted();
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: 4, message: `step ${step} of 4` },
        });
    }
    const titles = [...notes.values()].map((note) => `${note.title} (${note.priority})`);
    return { content: [{ type: 'text', text: `${notes.size} notes: ${titles.join(', ')}` }] };
  });
  server.registerResource('note', new ResourceTemplate('note://{id}', { list: undefined }), { mimeType: 'text/markdown' }, async (uri, { id }) => {
    const note = notes.get(String(id));
    if (!note) throw new ResourceNotFoundError(uri.href);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# ${note.title}\n\n${note.body}` }] };
  });
  server.registerPrompt('review_note', { description: 'Review a note', argsSchema: z.object({ id: z.string() }) }, ({ id }) => {
    const note = notes.get(id);
    const text = `Review this note and suggest improvements:\n\n# ${note?.title}\n\n${note?.body}`;
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
  return server;
}

serveStdio(createServer);
