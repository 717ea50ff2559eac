// bench/servers/workloads/tmcp — tmcp 1.20 for the workloads part as its README runs it: `McpServer` with the
// Zod adapter (@tmcp/adapter-zod), `HttpTransport` (@tmcp/transport-http) on node:http through
// @remix-run/node-fetch-server's `createRequestListener`; the 100 GitHub tools with Zod built from their JSON
// Schemas, `create_pull_request` with its output schema, the 64 KB blob resource. 2026-07-28.
import { createServer } from 'node:http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { McpServer } from 'tmcp';
import * as z from 'zod/v4';
import { listenAndAnnounce } from '../stop.mjs';
import { BLOB, BLOB_MIME, BLOB_URI, OUTPUT_SCHEMA, pullRequest, TOOLS } from '../../workloads/github.mjs';

const server = new McpServer(
  { name: 'github-fixture', version: '1.0.0', description: 'GitHub tools fixture' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {}, resources: {} } },
);
for (const t of TOOLS) {
  const config = {
    name: t.name,
    description: t.description ?? '',
    schema: z.fromJSONSchema(t.inputSchema),
    ...(t.annotations ? { annotations: t.annotations } : {}),
  };
  if (t.name === 'create_pull_request')
    server.tool({ ...config, outputSchema: z.fromJSONSchema(OUTPUT_SCHEMA) }, async (args) => {
      const pr = pullRequest(args);
      return { content: [{ type: 'text', text: JSON.stringify(pr) }], structuredContent: pr };
    });
  else server.tool(config, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
}
const blobText = Buffer.from(BLOB).toString('base64');
server.resource({ name: 'blob', description: '64 KB of bytes', uri: BLOB_URI }, async (uri) => ({
  contents: [{ uri, mimeType: BLOB_MIME, blob: blobText }],
}));

const transport = new HttpTransport(server, { path: '/mcp' });
listenAndAnnounce(createServer(createRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }))));
