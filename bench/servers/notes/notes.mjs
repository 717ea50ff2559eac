// bench/servers/notes/notes — the notes server of examples/notes-server/src/server.ts (its `add_note` and
// `list_notes`: the same Zod schemas, the same handlers, the notes in memory), written once as plain data:
// every framework's entry file (wiregen.mjs, v2.mjs, tmcp.mjs, v1.mjs beside this one) registers these tools
// as that framework's README registers a tool, and serves them over HTTP on 127.0.0.1.
import { z } from 'zod';

const Note = z.object({
  title: z.string().min(1).max(100),
  body: z.string(),
  tags: z.array(z.string()).max(10).default([]),
  priority: z.enum(['low', 'normal', 'high']).default('normal'),
  due: z.iso.date().optional(),
});
const ListArgs = z.object({ tag: z.string().optional(), limit: z.int().min(1).max(50).default(10), cursor: z.string().optional() });
const ListValue = z.object({ notes: z.array(z.object({ id: z.string(), title: z.string() })), next: z.string().optional() });

/** The bench's notes: the same for every framework, each about 300 characters of body. */
export function benchNote(i) {
  return {
    title: `Release checklist ${i}`,
    body: `Before the release: bump the versions in lockstep, write the changelog entry, run the full test suite on a clean clone, build every package and check what npm pack would publish, tag the commit, and tell the team in the channel with the link to the notes. Note ${i} of the series.`,
    tags: ['release', 'checklist', `week-${i % 52}`],
    priority: 'high',
    due: '2026-12-24',
  };
}

/**
 * One process's notes; each entry file serves one set of them. `--prefill <n>` on the command line adds n bench
 * notes (benchNote) before serving, through the same handler, so that `list_notes` has the same notes everywhere.
 */
export function notesTools() {
  const notes = new Map();
  let last = 0;
  const tools = [
    {
      name: 'add_note',
      description: 'Add a note',
      input: Note,
      output: z.object({ id: z.string() }),
      handler: (note) => {
        const id = `n${++last}`;
        notes.set(id, { ...note, id });
        return { id };
      },
    },
    {
      name: 'list_notes',
      description: 'List notes, newest last, optionally by tag',
      input: ListArgs,
      output: ListValue,
      handler: ({ tag, limit, cursor }) => {
        const all = [...notes.values()].filter((note) => tag === undefined || note.tags.includes(tag));
        const start = Number(cursor ?? 0);
        const page = all.slice(start, start + limit).map(({ id, title }) => ({ id, title }));
        return start + limit < all.length ? { notes: page, next: String(start + limit) } : { notes: page };
      },
    },
  ];
  const prefill = process.argv.includes('--prefill') ? Number(process.argv[process.argv.indexOf('--prefill') + 1]) : 0;
  for (let i = 1; i <= prefill; i++) tools[0].handler(Note.parse(benchNote(i)));
  return tools;
}

/** A handler's value as the result the SDKs and tmcp expect a tool to return: the object and its JSON text. */
export const asResult = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
