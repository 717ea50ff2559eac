// bench/servers/tmcp-idle — tmcp 1.20 over Streamable HTTP as its README runs it: `HttpTransport` of
// @tmcp/transport-http (handshake-era sessions with their GET streams, and the 2026-07-28 per-request
// protocol with subscriptions/listen) behind `createRequestListener` of @remix-run/node-fetch-server on
// node:http, the `add` tool with its Zod adapter, bound to loopback. Prints `{"url": …}`; exits when stdin closes.
import { createServer } from 'node:http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { McpServer } from 'tmcp';
import * as z from 'zod/v4';
import { listenAndAnnounce } from './stop.mjs';

const server = new McpServer(
  { name: 'fixture-server', version: '1.0.0', description: 'bench' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
server.tool({ name: 'add', description: 'Add two integers.', schema: z.object({ a: z.number().int(), b: z.number().int() }) }, async ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
  structuredContent: { result: a + b },
}));
const transport = new HttpTransport(server);
const http = createServer(createRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })));
listenAndAnnounce(http);
