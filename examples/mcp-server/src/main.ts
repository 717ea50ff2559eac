/**
 * @module mcp-server/main — serves the weather server with plain Node: `node dist/main.js` on stdio (what an MCP host
 * starts), or `node dist/main.js --http <port>` on Streamable HTTP at http://127.0.0.1:<port>/mcp.
 */
import { listenMcpHttp } from '@wiregen/runtime/mcp';
import { stdioTransport } from '@wiregen/runtime/transports';
import server from './server.js';

const http = process.argv.indexOf('--http');
if (http < 0) {
  server.connect(stdioTransport(process.stdin, process.stdout));
} else {
  const running = await listenMcpHttp(server, { port: Number(process.argv[http + 1] ?? 0) });
  process.stdout.write(`${JSON.stringify({ ready: true, url: running.url })}\n`);
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
}
