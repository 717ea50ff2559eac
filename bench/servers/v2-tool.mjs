// bench/servers/v2-tool — the peer's server, as the official MCP TypeScript SDK v2 (@modelcontextprotocol/server
// 2.4.0) writes it in its server guide (https://ts.sdk.modelcontextprotocol.io/v2/servers/tools): a factory
// returning a fresh McpServer with the tool registered, Zod input and output schemas. It serves what
// recorded-server's `add` serves (schemas/samples/recorded-server.yaml): two integers in, their sum as text
// and as `structuredContent.result`, so the SDK validates the arguments and the structured output as ours
// does. The schemas are built once per process; the McpServer per call of the factory.
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const input = z.object({ a: z.number().int(), b: z.number().int() });
const output = z.object({ result: z.number().int() });

export function addServer() {
  const server = new McpServer({ name: 'fixture-server', version: '1.0.0' });
  server.registerTool('add', { description: 'Add two integers.', inputSchema: input, outputSchema: output }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { result: a + b },
  }));
  return server;
}
