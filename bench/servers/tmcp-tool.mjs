// bench/servers/tmcp-tool — a peer's server as tmcp 1.20 writes it in its README: an McpServer with the Zod
// adapter (@tmcp/adapter-zod 0.1.7) and the tool declared by `server.tool({ name, description, schema,
// outputSchema }, handler)`. It serves what recorded-server's `add` serves (schemas/samples/recorded-server.yaml):
// two integers in, their sum as text and as `structuredContent.result`, so tmcp validates the arguments and the
// structured output as ours does (as bench/servers/v2-tool.mjs does for the SDK v2).
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { McpServer } from 'tmcp';
import { z } from 'zod';

export function addServer() {
  const server = new McpServer(
    { name: 'fixture-server', version: '1.0.0', description: 'add' },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
  );
  server.tool(
    {
      name: 'add',
      description: 'Add two integers.',
      schema: z.object({ a: z.number().int(), b: z.number().int() }),
      outputSchema: z.object({ result: z.number().int() }),
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { result: a + b } }),
  );
  return server;
}
