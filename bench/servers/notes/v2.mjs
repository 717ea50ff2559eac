// bench/servers/notes/v2 — the notes server (notes.mjs) on the official MCP TypeScript SDK v2
// (@modelcontextprotocol/server 2.4.0) as bench/servers/v2-http.mjs serves `add`: `createMcpHandler(factory)`
// (2026-07-28) through `toNodeHandler` of @modelcontextprotocol/node on node:http, with the Host and Origin
// guards its README puts in front. The tools are registered with `registerTool` and their Zod schemas, once per
// McpServer the factory makes; the notes live once per process. Prints `{"url": …}`; exits when stdin closes.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { listenAndAnnounce } from '../stop.mjs';
import { asResult, notesTools } from './notes.mjs';

const tools = notesTools();
function notesServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  for (const t of tools)
    server.registerTool(t.name, { description: t.description, inputSchema: t.input, outputSchema: t.output }, async (args) =>
      asResult(t.handler(args)),
    );
  return server;
}

const mcp = toNodeHandler(createMcpHandler(notesServer));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
const http = createServer((req, res) => {
  if (req.url !== '/mcp') return void res.writeHead(404).end();
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void mcp(req, res);
});
listenAndAnnounce(http);
