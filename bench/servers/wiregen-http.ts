/**
 * @module bench/servers/wiregen-http — recorded-server over Streamable HTTP as a user's built server runs it (its
 * behaviours and generated module compiled to one file by bench/lib/built.ts, @wiregen/runtime and the generated
 * packages from their built `dist/`, plain JavaScript). `--mode`:
 *   listen  `listenMcpHttp(server)` (the default, what `wiregen serve --http` runs);
 *   node    `mcpNodeHandler(server)` on the application's own node:http server;
 *   fetch   `mcpFetchHandler(server)` on @hono/node-server (the node→fetch bridge under the v2 SDK's
 *           `toNodeHandler` too).
 * The adapters get `allowedHosts` set to the loopback names, as listenMcpHttp sets it on loopback. Prints
 * `{"url": …}` when listening on 127.0.0.1; exits when stdin closes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogServerOptions, listenMcpHttp, mcpFetchHandler, mcpNodeHandler, McpServer } from '@wiregen/runtime/mcp';
import sample from '../../samples/recorded-server.ts';
import { untilStdinCloses } from '../lib/stdin-stop.ts';

const mode = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : 'listen';
const server = new McpServer(catalogServerOptions(sample));
const allowedHosts = ['127.0.0.1', 'localhost', '[::1]'];

function announce(http: Server): void {
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp`, mode })}\n`);
  untilStdinCloses(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
}

if (mode === 'listen') {
  const running = await listenMcpHttp(server);
  process.stdout.write(`${JSON.stringify({ url: running.url, mode })}\n`);
  untilStdinCloses(() => running.close());
} else if (mode === 'node') {
  const http = createServer(mcpNodeHandler(server, { allowedHosts }));
  http.listen(0, '127.0.0.1', () => announce(http));
} else if (mode === 'fetch') {
  // Loaded only here: a server of the other modes, as its users run it, does not load @hono/node-server
  // (part 5 measures its cold start and idle memory).
  const { serve } = await import('@hono/node-server');
  const mcp = mcpFetchHandler(server, { allowedHosts });
  const http = serve({ fetch: mcp, port: 0, hostname: '127.0.0.1' }, () => announce(http)) as Server;
} else throw new Error(`unknown --mode ${mode}`);
