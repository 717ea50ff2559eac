// bench/servers/workloads/v1 — the official SDK v1 (@modelcontextprotocol/sdk 1.32.2) for the workloads part, as
// bench/servers/v1-http.mjs runs it on node:http (stateless: a fresh McpServer and transport per request, JSON
// answers, 2025-11-25): the 100 GitHub tools with Zod built from their JSON Schemas (once per process),
// `create_pull_request` with its output schema, the 64 KB blob resource.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';
import { listenAndAnnounce } from '../stop.mjs';
import { BLOB, BLOB_MIME, BLOB_URI, OUTPUT_SCHEMA, pullRequest, TOOLS } from '../../workloads/github.mjs';

const tools = TOOLS.map((t) => ({ t, input: z.fromJSONSchema(t.inputSchema) }));
const output = z.fromJSONSchema(OUTPUT_SCHEMA);
const blobText = Buffer.from(BLOB).toString('base64');

function githubServer() {
  const server = new McpServer({ name: 'github-fixture', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  for (const { t, input } of tools) {
    const config = { description: t.description, inputSchema: input, ...(t.annotations ? { annotations: t.annotations } : {}) };
    if (t.name === 'create_pull_request')
      server.registerTool(t.name, { ...config, outputSchema: output }, async (args) => {
        const pr = pullRequest(args);
        return { content: [{ type: 'text', text: JSON.stringify(pr) }], structuredContent: pr };
      });
    else server.registerTool(t.name, config, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  }
  server.registerResource('blob', BLOB_URI, { mimeType: BLOB_MIME }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: BLOB_MIME, blob: blobText }],
  }));
  return server;
}

listenAndAnnounce(
  createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') return void res.writeHead(404).end();
    const server = githubServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }),
);
