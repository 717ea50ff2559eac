/**
 * @module bench/servers/wiregen-idle — recorded-server over Streamable HTTP for the idle-memory part
 * (bench/idle): `listenMcpHttp(server, { maxStreams })` as bench/servers/wiregen-http.ts runs it, compiled the
 * same way (bench/lib/built.ts), with `maxStreams` (the most subscriptions/listen and session GET streams
 * open at once, default 256) raised to `--max-streams` so the part's streams fit. A line `stats` on stdin
 * answers one line `{"stats":{"heapUsed":…,"rss":…}}` on stdout, after a full GC when node runs with
 * --expose-gc. Prints `{"url": …}` when listening; exits when stdin closes.
 */
import { catalogServerOptions, listenMcpHttp, McpServer } from '@wiregen/runtime/mcp';
import sample from '../../samples/recorded-server.ts';
import { untilStdinCloses } from '../lib/stdin-stop.ts';

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const server = new McpServer(catalogServerOptions(sample));
const running = await listenMcpHttp(server, { maxStreams: arg('--max-streams', 256) });
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  if (!text.includes('stats')) return;
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ stats: { heapUsed, rss } })}\n`);
});
untilStdinCloses(() => running.close());
