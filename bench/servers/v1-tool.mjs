// bench/servers/v1-tool — the older peer's server: the official MCP TypeScript SDK v1
// (@modelcontextprotocol/sdk 1.32.2) McpServer doing what recorded-server's `add` does (two integers in, the sum
// as text and as `structuredContent.result`, the same input and output schemas, so the SDK validates the
// arguments and the structured output as ours does). The Zod shapes are built once per process.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';

const addInput = { a: z.number().int(), b: z.number().int() };
const addOutput = { result: z.number().int() };

export function addServer() {
  const server = new McpServer({ name: 'fixture-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('add', { description: 'Add two integers.', inputSchema: addInput, outputSchema: addOutput }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { result: a + b },
  }));
  return server;
}
