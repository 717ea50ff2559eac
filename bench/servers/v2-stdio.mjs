// The peer as its users run it: the official MCP TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0),
// plain JavaScript, its stdio entry (both eras: 2026-07-28 and the initialize handshake), serving the same
// `add` as fixture-server with the same input and output schemas (Zod, as the SDK's guide writes them).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const input = z.object({ a: z.number().int(), b: z.number().int() });
const output = z.object({ result: z.number().int() });

function factory() {
  const server = new McpServer({ name: 'fixture-server', version: '1.0.0' });
  server.registerTool('add', { description: 'Add two integers.', inputSchema: input, outputSchema: output }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { result: a + b },
  }));
  return server;
}

serveStdio(factory);
