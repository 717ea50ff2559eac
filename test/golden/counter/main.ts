/**
 * @module test/golden/counter/main — the counter server as a process: over stdio, or with `--port <n>` over
 * Streamable HTTP on 127.0.0.1:<n>/mcp (`--port env` reads the PORT environment variable).
 */
import { listenMcpHttp } from '@wiregen/runtime/mcp';
import { counterServer } from './server.ts';

const at = process.argv.indexOf('--port');
if (at === -1) await counterServer().serveStdio();
else {
  const given = process.argv[at + 1];
  const port = Number(given === 'env' ? process.env['PORT'] : given);
  const running = await listenMcpHttp(await counterServer().build(), { port });
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
}
