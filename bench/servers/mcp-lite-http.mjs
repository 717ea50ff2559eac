// bench/servers/mcp-lite-http — mcp-lite 0.10 over Streamable HTTP as its README runs it: `McpServer` with a
// Zod schema adapter, `StreamableHttpTransport().bind(mcp)` (stateless: no session adapter) giving a fetch
// handler, here on node:http through @remix-run/node-fetch-server's `createRequestListener` (mcp-lite's README
// mounts it on Hono; this is the plain-Node bridge). It speaks 2025-06-18, the newest revision it knows. It serves
// recorded-server's `add` (schemas/samples/recorded-server.yaml): two integers in, their sum as text and as
// `structuredContent.result`, Zod-validated in and out. Prints `{"url": …}` when listening on 127.0.0.1; exits
// when stdin closes.
import { createServer } from 'node:http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { McpServer, StreamableHttpTransport } from 'mcp-lite';
import * as z from 'zod/v4';
import { listenAndAnnounce } from './stop.mjs';

const mcp = new McpServer({ name: 'fixture-server', version: '1.0.0', schemaAdapter: (schema) => z.toJSONSchema(schema) });
mcp.tool('add', {
  description: 'Add two integers.',
  inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
  outputSchema: z.object({ result: z.number().int() }),
  handler: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { result: a + b } }),
});
const handle = new StreamableHttpTransport().bind(mcp);

listenAndAnnounce(createServer(createRequestListener((request) => handle(request))));
