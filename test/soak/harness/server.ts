/**
 * @module test/soak/harness/server — one server process of the soak run (run.ts), on 127.0.0.1:
 *
 *   node --import tsx server.ts mcp   an McpServer (both eras) served by listenMcpHttp
 *   node --import tsx server.ts a2a   an A2aServer (SqliteTaskStore in a temporary directory) served by listenA2aHttp
 *
 * The MCP server has two tools: `echo` answers at once, `wait` sleeps `ms` (aborted when the caller cancels);
 * it advertises tools/listChanged so `subscriptions/listen` streams can be held open. The agent works each task
 * in a few steps (an artifact chunk each), completes at once when the text is "quick", works until cancelled (30 s at most) when it is "hold", and is
 * cancellable.
 * Prints `READY <url>` on stdout once it listens, then every 2 s a `STATS <json>` line sampled in this process
 * (rss, heapUsed after a full GC, active resources, open file descriptors). Closes and exits when stdin closes or on SIGTERM.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenA2aHttp } from '../../../runtime/a2a/http.ts';
import { A2aServer } from '../../../runtime/a2a/server.ts';
import { SqliteTaskStore } from '../../../runtime/a2a/store-sqlite.ts';
import type { AgentCard, AgentExecutor, TaskHandle } from '../../../runtime/a2a/types.ts';
import { listenMcpHttp } from '../../../runtime/mcp/http/handler.ts';
import { McpServer } from '../../../runtime/mcp/server/server.ts';

/** How often the process samples itself (ms). */
export const SAMPLE_MS = 2000;

/** One sample of a server process, as its `STATS` line carries it. */
export interface ProcessSample {
  /** ms since the epoch. */
  readonly t: number;
  readonly rss: number;
  readonly heapUsed: number;
  /** `process.getActiveResourcesInfo().length`. */
  readonly handles: number;
  /** Entries of /proc/self/fd (-1 where there is no /proc). */
  readonly fds: number;
  /** Reported, not judged: memory of C++ objects bound to JavaScript ones, and of ArrayBuffers (Buffers). */
  readonly external?: number;
  readonly arrayBuffers?: number;
}

/**
 * Samples this process. A full GC first (the process runs with --expose-gc): heapUsed is then the live heap,
 * not a point of the collector's sawtooth, so a fitted line follows what is kept.
 */
function sample(): ProcessSample {
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  let fds = -1;
  try {
    fds = readdirSync('/proc/self/fd').length;
  } catch {
    // no /proc (not Linux): reported as -1, and the verdict leaves the metric out
  }
  return {
    t: Date.now(),
    rss: mem.rss,
    heapUsed: mem.heapUsed,
    handles: process.getActiveResourcesInfo().length,
    fds,
    external: mem.external,
    arrayBuffers: mem.arrayBuffers,
  };
}

const STEPS = 5;
const STEP_MS = 80;
const HOLD_MS = 30_000;

const CARD: AgentCard = {
  name: 'soak agent',
  description: 'Works each task in a few steps; used by npm run soak.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'work', name: 'work', description: 'works in steps', tags: ['soak'] }],
};

async function work(task: TaskHandle, text: string, signal: AbortSignal): Promise<void> {
  if (text === 'quick') {
    await task.artifact({ artifactId: 'out', parts: [{ text: 'done' }], lastChunk: true });
    return task.complete();
  }
  if (text === 'hold') {
    // Works until cancelled (CancelTask aborts the signal), at most HOLD_MS.
    await sleep(HOLD_MS, undefined, { signal }).catch(() => undefined);
    if (!signal.aborted) await task.complete();
    return;
  }
  for (let step = 1; step <= STEPS; step++) {
    await sleep(STEP_MS);
    if (signal.aborted) return;
    await task.artifact({ artifactId: 'out', parts: [{ text: `step ${step}` }], append: step > 1, lastChunk: step === STEPS });
  }
  await task.complete();
}

const executor: AgentExecutor = {
  async execute(ctx) {
    const task = await ctx.startTask();
    await task.working();
    return work(task, ctx.text, ctx.signal);
  },
};

async function a2a(): Promise<() => Promise<void>> {
  // Tasks go to SQLite, as a long-running agent keeps them: the in-memory store holds every task by design,
  // which a soak would report as growth.
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-soak-'));
  const store = new SqliteTaskStore(join(dir, 'tasks.db'));
  const server = new A2aServer({ card: CARD, executor, store, log: (line) => process.stderr.write(`[a2a] ${line}\n`) });
  await server.ready();
  const http = await listenA2aHttp(server, { port: 0 });
  process.stdout.write(`READY ${http.url}\n`);
  return async () => {
    await http.close();
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

async function mcp(): Promise<() => Promise<void>> {
  const tools = { tools: { listChanged: true } };
  const server = new McpServer({
    serverInfo: { name: 'soak-mcp', version: '1.0.0' },
    capabilities: { handshake: tools, stateless: tools },
    log: (line) => process.stderr.write(`[mcp] ${line}\n`),
    handlers: {
      'tools/call': async (params, ctx) => {
        const args = (params['arguments'] ?? {}) as { ms?: number; text?: string };
        if (params['name'] === 'wait') await sleep(args.ms ?? 100, undefined, { signal: ctx.signal }).catch(() => undefined);
        return { content: [{ type: 'text', text: `${params['name']}: ${args.text ?? ''}` }] };
      },
    },
  });
  const http = await listenMcpHttp(server, { port: 0, resumability: { retryMs: 100 } });
  process.stdout.write(`READY ${http.url}\n`);
  return () => http.close();
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  const close = kind === 'mcp' ? await mcp() : kind === 'a2a' ? await a2a() : undefined;
  if (!close) throw new Error('usage: server.ts mcp | a2a');
  const timer = setInterval(() => process.stdout.write(`STATS ${JSON.stringify(sample())}\n`), SAMPLE_MS);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    clearInterval(timer);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
}

main().catch((err: unknown) => {
  process.stderr.write(`server failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
