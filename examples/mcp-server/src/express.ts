/**
 * @module express — the same server mounted in an Express app beside routes of its own:
 * `node dist/express.js <port>` serves MCP at /mcp and a health check at /healthz.
 */
import express from 'express';
import { mcpExpress } from '@wiregen/runtime/mcp';
import server from './server.js';

const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ ok: true });
});
app.use(mcpExpress(server, { path: '/mcp' }));
const listening = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = listening.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
