/**
 * @module test/soak/harness/server — one server process of the soak run (run.ts), on 127.0.0.1:
 *
 *   node --import tsx server.ts mcp   an McpServer (both eras) served by listenMcpHttp
 *   node --import tsx server.ts a2a [prefillMiB]   an A2aServer (SqliteTaskStore in a temporary directory, first
 *                                                  filled with about prefillMiB of completed tasks) served by listenA2aHttp
 *
 * The MCP server has two tools: `echo` answers at once, `wait` sleeps `ms` (aborted when the caller cancels);
 * it advertises tools/listChanged so `subscriptions/listen` streams can be held open. The agent works each task
 * in a few steps (an artifact chunk each), completes at once when the text is "quick", works until cancelled (30 s at most) when it is "hold", and is
 * cancellable.
 * Prints `READY <url>` on stdout once it listens, then every 2 s a `STATS <json>` line sampled in this process
 * (rss, heapUsed after a full GC, active resources, open file descriptors; RSS split into anonymous and
 * file-backed pages; the agent's database and WAL file sizes). Closes and exits when stdin closes or on SIGTERM.
 *
 * Why the prefill: better-sqlite3 builds SQLite with a page cache of up to 16,000 KiB per connection
 * (SQLITE_DEFAULT_CACHE_SIZE=-16000, https://github.com/WiseLibs/better-sqlite3/blob/master/docs/compilation.md;
 * `PRAGMA cache_size` reads -16000), malloc'd page by page as pages are first read or written. An empty store
 * fills it as the file grows, a few MiB a minute at the soak's rate, which reads as a leak in RSS (anonymous
 * memory) while heapUsed stays flat. A file of a few tens of MiB fills it before the run is measured.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenA2aHttp } from '../../../runtime/a2a/http.ts';
import { A2aServer } from '../../../runtime/a2a/server.ts';
import { SqliteTaskStore } from '../../../runtime/a2a/store-sqlite.ts';
import type { AgentCard, AgentExecutor, Task, TaskHandle } from '../../../runtime/a2a/types.ts';
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
  /** Reported, not judged: RSS split into anonymous pages (malloc, V8) and file-backed ones (code, mapped files),
   * from /proc/self/status RssAnon and RssFile (absent where there is no /proc). */
  readonly rssAnon?: number;
  readonly rssFile?: number;
  /** Reported, not judged (the agent only): sizes of its SQLite database file and of its write-ahead log. */
  readonly dbBytes?: number;
  readonly walBytes?: number;
}

/** RssAnon and RssFile of /proc/self/status in bytes, or nothing where there is no /proc. */
function rssSplit(): { rssAnon?: number; rssFile?: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { rssAnon: kib('RssAnon'), rssFile: kib('RssFile') };
  } catch {
    return {};
  }
}

/** The agent's database file, when this process is the agent. */
let database: string | undefined;
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

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
    ...rssSplit(),
    ...(database ? { dbBytes: sizeOf(database), walBytes: sizeOf(`${database}-wal`) } : {}),
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

/** A completed task of about 1 KiB as the store keeps it (JSON), for the prefill. */
function filler(n: number): Task {
  return {
    id: `prefill-${n}`,
    contextId: `prefill-${n % 97}`,
    status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 86_400)).toISOString() },
    artifacts: [{ artifactId: 'out', parts: [{ text: `prefill ${n} `.padEnd(900, '.') }] }],
  };
}

/** Saves completed tasks until the database and its WAL hold about `mib` MiB, so SQLite's page cache is full. */
async function prefill(store: SqliteTaskStore, file: string, mib: number): Promise<void> {
  for (let n = 0; sizeOf(file) + sizeOf(`${file}-wal`) < mib * 1024 * 1024; n++) await store.saveTask(filler(n));
}

async function a2a(prefillMib: number): Promise<() => Promise<void>> {
  // Tasks go to SQLite, as a long-running agent keeps them: the in-memory store holds every task by design,
  // which a soak would report as growth.
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-soak-'));
  database = join(dir, 'tasks.db');
  const store = new SqliteTaskStore(database);
  await prefill(store, database, prefillMib);
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
  const prefillMib = Number(process.argv[3] ?? 0);
  const close = kind === 'mcp' ? await mcp() : kind === 'a2a' && prefillMib >= 0 ? await a2a(prefillMib) : undefined;
  if (!close) throw new Error('usage: server.ts mcp | a2a [prefillMiB]');
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
