// bench/servers/v1-http — the older peer over Streamable HTTP (2025-11-25, the last revision it speaks), plain
// JavaScript: the official SDK v1's McpServer with StreamableHTTPServerTransport in stateless mode
// (sessionIdGenerator: undefined), a fresh server and transport per request as its
// simpleStatelessStreamableHttp example does, JSON responses (enableJsonResponse, as ours answers a plain
// result). `--mode node` sits on node:http; `--mode express` is the SDK's own express setup
// (createMcpExpressApp: express.json() and the localhost Host check).
// Prints `{"url": …}` when listening on 127.0.0.1; exits when stdin closes.
import { createServer } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { listenAndAnnounce } from './stop.mjs';
import { addServer } from './v1-tool.mjs';

const mode = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : 'node';

async function handle(req, res, body) {
  const server = addServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (err) {
    process.stderr.write(`request failed: ${err.stack}\n`);
    if (!res.headersSent)
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal server error"}}');
  }
}

let http;
if (mode === 'express') {
  const app = createMcpExpressApp();
  app.post('/mcp', (req, res) => void handle(req, res, req.body));
  http = createServer(app);
} else if (mode === 'node') {
  http = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') return void res.writeHead(404).end();
    void handle(req, res);
  });
} else throw new Error(`unknown --mode ${mode}`);
listenAndAnnounce(http, '/mcp', { mode });
