/**
 * @module bench/mcp-http/sdk-server — the peer: the official SDK's McpServer with StreamableHTTPServerTransport
 * in stateless mode (sessionIdGenerator: undefined), a fresh server and transport per request as the SDK
 * requires (its simpleStatelessStreamableHttp example), JSON responses (enableJsonResponse, as ours answers a
 * plain result). Two setups: `--mode node` sits on node:http like ours does; `--mode express` is the SDK's
 * own example (createMcpExpressApp: express.json() and the localhost Host check).
 * Prints `{"url": …}` when listening on 127.0.0.1; exits when stdin closes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildSdkServer } from '../lib/sdk-mcp.ts';
import { untilStdinCloses } from '../lib/stdin-stop.ts';

const mode = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : 'node';

async function handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
  const server = buildSdkServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (err) {
    process.stderr.write(`request failed: ${(err as Error).stack}\n`);
    if (!res.headersSent)
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal server error"}}');
  }
}

let http: import('node:http').Server;
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

http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp`, mode })}\n`);
});
untilStdinCloses(
  () =>
    new Promise<void>((r) => {
      http.closeAllConnections();
      http.close(() => r());
    }),
);
