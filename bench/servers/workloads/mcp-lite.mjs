// bench/servers/workloads/mcp-lite — mcp-lite 0.10 for the workloads part, as bench/servers/mcp-lite-http.mjs
// runs it (stateless StreamableHttpTransport on node:http through @remix-run/node-fetch-server, 2025-06-18):
// the 100 GitHub tools with Zod built from their JSON Schemas, `create_pull_request` with its output schema,
// the 64 KB blob resource.
import { createServer } from 'node:http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { McpServer, StreamableHttpTransport } from 'mcp-lite';
import * as z from 'zod/v4';
import { listenAndAnnounce } from '../stop.mjs';
import { BLOB, BLOB_MIME, BLOB_URI, OUTPUT_SCHEMA, pullRequest, TOOLS } from '../../workloads/github.mjs';

const mcp = new McpServer({ name: 'github-fixture', version: '1.0.0', schemaAdapter: (schema) => z.toJSONSchema(schema) });
for (const t of TOOLS) {
  const config = {
    description: t.description,
    inputSchema: z.fromJSONSchema(t.inputSchema),
    ...(t.annotations ? { annotations: t.annotations } : {}),
  };
  if (t.name === 'create_pull_request')
    mcp.tool(t.name, {
      ...config,
      outputSchema: z.fromJSONSchema(OUTPUT_SCHEMA),
      handler: (args) => {
        const pr = pullRequest(args);
        return { content: [{ type: 'text', text: JSON.stringify(pr) }], structuredContent: pr };
      },
    });
  else mcp.tool(t.name, { ...config, handler: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
}
const blobText = Buffer.from(BLOB).toString('base64');
mcp.resource(BLOB_URI, { mimeType: BLOB_MIME }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: BLOB_MIME, blob: blobText }] }));
const handle = new StreamableHttpTransport().bind(mcp);
listenAndAnnounce(createServer(createRequestListener((request) => handle(request))));
