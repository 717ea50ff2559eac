// A server connected to a transport it builds itself, as the SDK's McpServer.connect example does (stdio).
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const server = new McpServer({ name: 'adder', version: '1.0.0' });
server.registerTool(
  'add',
  { description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
);
const transport = new StdioServerTransport();
await server.connect(transport);
