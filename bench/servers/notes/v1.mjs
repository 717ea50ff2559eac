// bench/servers/notes/v1 — the notes server (notes.mjs) on the official SDK v1 (@modelcontextprotocol/sdk
// 1.x) over Streamable HTTP as bench/servers/v1-http.mjs serves `add`: stateless, a fresh McpServer and
// StreamableHTTPServerTransport per request (its simpleStatelessStreamableHttp example), JSON responses, on
// node:http; 2025-11-25, the last revision it speaks. The notes live once per process. Prints `{"url": …}`;
// exits when stdin closes.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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

async function handle(req, res) {
  const server = notesServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (err) {
    process.stderr.write(`request failed: ${err.stack}\n`);
    if (!res.headersSent)
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal server error"}}');
  }
}

const http = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/mcp') return void res.writeHead(404).end();
  void handle(req, res);
});
listenAndAnnounce(http);
