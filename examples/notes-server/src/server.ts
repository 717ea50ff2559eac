// The notes server: four tools, a resource template and a prompt, with Zod schemas, served on stdio.
import { mcpServer } from '@wiregen/runtime/mcp';
import { z } from 'zod';

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

await mcpServer({ name: 'notes', version: '1.0.0' })
  .tool('add_note', { description: 'Add a note', input: Note, output: z.object({ id: z.string() }) }, (note) => {
    const id = `n${++last}`;
    notes.set(id, { ...note, id });
    return { id };
  })
  .tool(
    'list_notes',
    {
      description: 'List notes, newest last, optionally by tag',
      input: z.object({ tag: z.string().optional(), limit: z.int().min(1).max(50).default(10), cursor: z.string().optional() }),
      output: z.object({ notes: z.array(z.object({ id: z.string(), title: z.string() })), next: z.string().optional() }),
    },
    ({ tag, limit, cursor }) => {
      const all = [...notes.values()].filter((note) => tag === undefined || note.tags.includes(tag));
      const start = Number(cursor ?? 0);
      const page = all.slice(start, start + limit).map(({ id, title }) => ({ id, title }));
      return start + limit < all.length ? { notes: page, next: String(start + limit) } : { notes: page };
    },
  )
  .tool('delete_note', { description: 'Delete a note', input: z.object({ id: z.string() }) }, ({ id }) => {
    if (!notes.delete(id)) throw new Error(`No note ${id}`);
    return `Deleted ${id}`;
  })
  .tool('summarize', { description: 'Summarize every note' }, async (_, { progress, signal }) => {
    const titles: string[] = [];
    for (let step = 0; step < 4; step++) {
      progress(step, 4, `step ${step + 1} of 4`);
      await sleep(100);
      signal.throwIfAborted();
    }
    for (const note of notes.values()) titles.push(`${note.title} (${note.priority})`);
    return `${notes.size} notes: ${titles.join(', ')}`;
  })
  .resource('note://{id}', { name: 'note', mimeType: 'text/markdown' }, ({ id }) => {
    const note = notes.get(id);
    if (!note) throw new Error(`No note ${id}`);
    return `# ${note.title}\n\n${note.body}`;
  })
  .prompt('review_note', { description: 'Review a note', arguments: z.object({ id: z.string() }) }, ({ id }) => {
    const note = notes.get(id);
    return `Review this note and suggest improvements:\n\n# ${note?.title}\n\n${note?.body}`;
  })
  .serveStdio();
