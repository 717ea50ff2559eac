// bench/servers/workloads/v2 — the official SDK v2 (@modelcontextprotocol/server 2.4.0) for the workloads part,
// as bench/servers/v2-http.mjs runs it (createMcpHandler + toNodeHandler on node:http, its Host/Origin guards):
// the 100 GitHub tools registered with Zod built from their JSON Schemas (z.fromJSONSchema, once per process),
// `create_pull_request` with its output schema, and the 64 KB blob resource. 2026-07-28.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { listenAndAnnounce } from '../stop.mjs';
import { BLOB, BLOB_MIME, BLOB_URI, OUTPUT_SCHEMA, pullRequest, TOOLS } from '../../workloads/github.mjs';

const tools = TOOLS.map((t) => ({ t, input: z.fromJSONSchema(t.inputSchema) }));
const output = z.fromJSONSchema(OUTPUT_SCHEMA);
const blobText = Buffer.from(BLOB).toString('base64');

function factory() {
  const server = new McpServer({ name: 'github-fixture', version: '1.0.0' });
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

const mcp = toNodeHandler(createMcpHandler(factory));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
listenAndAnnounce(
  createServer((req, res) => {
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void mcp(req, res);
  }),
);
