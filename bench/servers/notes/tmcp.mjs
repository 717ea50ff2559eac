// bench/servers/notes/tmcp — the notes server (notes.mjs) on tmcp 1.20 as its README runs it: `McpServer` with
// `ZodJsonSchemaAdapter` (@tmcp/adapter-zod), each tool given `schema` and `outputSchema`, served by
// `HttpTransport` (@tmcp/transport-http) through `createRequestListener` of @remix-run/node-fetch-server on
// node:http. Prints `{"url": …}` when listening on 127.0.0.1; exits when stdin closes.
import { createServer } from 'node:http';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { McpServer } from 'tmcp';
import { listenAndAnnounce } from '../stop.mjs';
import { asResult, notesTools } from './notes.mjs';

const server = new McpServer(
  { name: 'notes', version: '1.0.0', description: 'Notes' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
for (const t of notesTools())
  server.tool({ name: t.name, description: t.description, schema: t.input, outputSchema: t.output }, async (args) => asResult(t.handler(args)));

const transport = new HttpTransport(server);
const http = createServer(
  createRequestListener(async (request) => {
    const response = await transport.respond(request);
    return response ?? new Response(null, { status: 404 });
  }),
);
listenAndAnnounce(http);
