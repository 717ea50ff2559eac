/**
 * @module bench/servers/workloads/wiregen — ours for the workloads part, as a user's code-first server runs it
 * (compiled to one file by bench/lib/built.ts, @wiregen/runtime from its built `dist/`): the 100 GitHub tools
 * with their published JSON Schemas, `create_pull_request` answering structuredContent checked against its
 * output schema, and the 64 KB blob resource; `listenMcpHttp`. Prints `{"url": …}`; exits when stdin closes.
 */
import { blob, listenMcpHttp, mcpServer } from '@wiregen/runtime/mcp';
import { untilStdinCloses } from '../../lib/stdin-stop.ts';
// @ts-expect-error plain JavaScript shared with the peers' servers
import { BLOB, BLOB_MIME, BLOB_URI, OUTPUT_SCHEMA, pullRequest, TOOLS } from '../../workloads/github.mjs';

interface Tool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const builder = mcpServer({ name: 'github-fixture', version: '1.0.0' });
for (const t of TOOLS as Tool[]) {
  const def = { description: t.description, input: t.inputSchema, ...(t.annotations ? { annotations: t.annotations } : {}) };
  if (t.name === 'create_pull_request') builder.tool(t.name, { ...def, output: OUTPUT_SCHEMA } as never, (args: never) => pullRequest(args) as never);
  else builder.tool(t.name, def as never, () => 'ok');
}
builder.resource(BLOB_URI, { mimeType: BLOB_MIME }, () => blob(BLOB as Uint8Array));

const running = await listenMcpHttp(await builder.build());
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
untilStdinCloses(() => running.close());
