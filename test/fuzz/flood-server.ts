/**
 * @module test/fuzz/flood-server — an MCP stdio server for the flood test (backpressure.test.ts): its one
 * tool, `flood`, sends `n` progress notifications in one synchronous loop (what `count` did before it was
 * bounded: the 232-byte request that took RSS to 1.4 GB), then answers; on stderr it reports its
 * peak RSS when stdin closes. Run with `node --import tsx test/fuzz/flood-server.ts`.
 */
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { stdioTransport } from '../../runtime/transports/stdio.ts';

let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const server = new McpServer({
  serverInfo: { name: 'flood', version: '1.0.0' },
  capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
  handlers: {
    'tools/list': () => ({ tools: [] }),
    'tools/call': (params, ctx) => {
      const n = Number((params.arguments as { n?: number } | undefined)?.n ?? 0);
      for (let i = 1; i <= n; i++) {
        ctx.progress(i, n);
        if (i % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
      return { content: [{ type: 'text', text: `flooded ${n}` }] };
    },
  },
});
// FLOOD_UNBOUNDED=1: no outbound limits, to measure what the bound saves (not used by the tests).
const unbounded = process.env['FLOOD_UNBOUNDED'] === '1' ? { softQueueBytes: Number.POSITIVE_INFINITY, maxQueueBytes: Number.POSITIVE_INFINITY } : {};
const conn = server.connect(stdioTransport(process.stdin, process.stdout, unbounded));
await conn.finished;
clearInterval(sample);
process.stderr.write(`peak-rss-mb ${Math.round(Math.max(peak, process.memoryUsage().rss) / 1024 / 1024)}\n`);
