/**
 * @module bench/lib/sdk-mcp — the official MCP TypeScript SDK's server doing what fixture-server's `add` does:
 * `add` takes two integers and answers `{content: [{type: 'text', text: '<sum>'}], structuredContent: {result: <sum>}}`,
 * with the same input and output schemas (so the SDK validates the arguments and the structured output, as
 * our catalog server does). The Zod shapes are built once per process; only the McpServer is per request.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';

const addInput = { a: z.number().int(), b: z.number().int() };
const addOutput = { result: z.number().int() };

export function buildSdkServer(): McpServer {
  const server = new McpServer({ name: 'fixture-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('add', { description: 'Add two integers.', inputSchema: addInput, outputSchema: addOutput }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { result: a + b },
  }));
  return server;
}
