// bench/servers/notes/wiregen — the notes server (notes.mjs) on wiregen from its built packages
// (@wiregen/runtime's dist/), `mcpServer()` then `listenMcpHttp` on 127.0.0.1. `--mode`:
//   standard  the Zod schemas given as they are: Standard Schemas, Zod validates (docs/code-first.md);
//   compiled  the same schemas as JSON Schema (`z.toJSONSchema`, the input side for `input`, the output side for
//             `output`), which wiregen compiles to its own validators. The handlers then get the arguments as
//             sent (no Zod defaults applied): the bench's notes carry every field.
// Prints `{"url": …}` when listening; exits when stdin closes.
import { listenMcpHttp, mcpServer } from '@wiregen/runtime/mcp';
import { z } from 'zod';
import { untilStdinCloses } from '../stop.mjs';
import { notesTools } from './notes.mjs';

const mode = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : 'standard';
if (mode !== 'standard' && mode !== 'compiled') throw new Error(`unknown --mode ${mode}`);

/**
 * Zod's JSON Schema of one side. The converter's output can carry Zod's `~standard` property along; an object
 * carrying a `~standard` with a `validate` function would be taken for a Standard Schema, so it is dropped.
 */
function jsonSchema(schema, io) {
  const { '~standard': _, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}

let builder = mcpServer({ name: 'notes', version: '1.0.0' });
for (const t of notesTools()) {
  const input = mode === 'standard' ? t.input : jsonSchema(t.input, 'input');
  const output = mode === 'standard' ? t.output : jsonSchema(t.output, 'output');
  builder = builder.tool(t.name, { description: t.description, input, output }, t.handler);
}
const running = await listenMcpHttp(await builder.build(), { host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: running.url, mode })}\n`);
untilStdinCloses(() => running.close());
