/**
 * @module bench/idle/measure — one measurement of the idle-memory part: a fresh server process, its memory
 * (/proc: bench/lib/procfs.ts) before and after a holder process (holder.mjs) opens `count` long-lived streams
 * or sessions on it and holds them, settled; the difference per stream or session. Resident memory is read
 * first, with no GC forced on any server (ours and the peers alike); ours then also reports its V8 heap after
 * a full GC (its `stats` line, bench/servers/wiregen-idle.ts, node --expose-gc).
 */
import { join } from 'node:path';
import { builtServer } from '../lib/built.ts';
import { BENCH, NodeChild, sleep } from '../lib/proc.ts';
import { memoryBreakdown, type MemoryBreakdown } from '../lib/procfs.ts';

export type IdleMode = 'listen' | 'session-get' | 'session';

export interface IdleServer {
  readonly key: 'ours' | 'v2' | 'tmcp';
  readonly label: string;
  /** node arguments for `mode`, streams at most `count` (ours raises its limit to fit). */
  args(mode: IdleMode, count: number): Promise<string[]>;
}

export const SERVERS: readonly IdleServer[] = [
  {
    key: 'ours',
    label: 'ours (listenMcpHttp)',
    // maxStreams (McpHttpOptions, default 256) counts listen streams and session GET streams: raised to fit.
    args: async (_mode, count) => ['--expose-gc', await builtServer('servers/wiregen-idle.ts'), '--max-streams', String(count + 256)],
  },
  {
    key: 'v2',
    label: 'SDK v2',
    // 2026-07-28 listen streams: createMcpHandler (v2-http.mjs); handshake-era sessions: its session map.
    args: async (mode) => [join(BENCH, 'servers', mode === 'listen' ? 'v2-http.mjs' : 'v2-sessions.mjs')],
  },
  { key: 'tmcp', label: 'tmcp 1.20', args: async () => [join(BENCH, 'servers', 'tmcp-idle.mjs')] },
];

/** What one measurement gives: KB per stream or session, and where ours has them, heap KB. */
export interface IdleSample {
  readonly rssKb: number;
  readonly anonKb: number;
  readonly heapKb?: number;
  /** The server's memory with the streams held. */
  readonly after: MemoryBreakdown;
}

/** How long a server is left after its streams open (and before its baseline) for its memory to settle. */
export const SETTLE_MS = 1_500;
/** Streams opened and closed before the baseline, so lazily loaded code is not counted per stream. */
const WARM_UP = 10;

/** A child that answers JSON lines: each `next()` is the next line parsed. */
function lineChild(args: readonly string[], what: string) {
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  const queued: Record<string, unknown>[] = [];
  let failure: Error | undefined;
  const fails: ((err: Error) => void)[] = [];
  const child = new NodeChild(
    args,
    (line) => {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      const w = waiting.shift();
      if (w) w(parsed);
      else queued.push(parsed);
    },
    (code, stderr) => {
      failure = new Error(`${what} exited (${code})\n${stderr.slice(-2000)}`);
      for (const f of fails.splice(0)) f(failure);
    },
  );
  const next = (timeoutMs = 60_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (queued.length) return resolve(queued.shift()!);
      if (failure) return reject(failure);
      const timer = setTimeout(() => reject(new Error(`${what}: no answer in ${timeoutMs} ms`)), timeoutMs);
      waiting.push((line) => (clearTimeout(timer), resolve(line)));
      fails.push((err) => (clearTimeout(timer), reject(err)));
    });
  return { child, next };
}

/** Opens `count` streams of `mode` on `url` in a holder process; resolves once they are open. */
async function hold(url: string, mode: IdleMode, count: number) {
  const holder = lineChild([join(BENCH, 'idle', 'holder.mjs'), url, mode, String(count)], 'holder');
  const done = (await holder.next()) as { opened: number; failed: number; error?: string };
  if (done.failed > 0) {
    await holder.child.stop();
    throw new Error(`${done.failed} of ${count} ${mode} failed to open: ${done.error}`);
  }
  return holder.child;
}

/** One fresh server, `count` streams of `mode` held on it: the memory they cost. */
export async function measureIdle(server: IdleServer, mode: IdleMode, count: number, settleMs = SETTLE_MS): Promise<IdleSample> {
  const srv = lineChild(await server.args(mode, count), server.label);
  try {
    const url = String((await srv.next(30_000))['url']);
    const heap = async () => {
      if (server.key !== 'ours') return undefined;
      srv.child.write('stats');
      return Number(((await srv.next())['stats'] as { heapUsed: number }).heapUsed) / 1024;
    };
    await (await hold(url, mode, WARM_UP)).stop();
    await sleep(settleMs);
    const before = memoryBreakdown(srv.child.pid);
    const heapBefore = await heap();
    const holder = await hold(url, mode, count);
    try {
      await sleep(settleMs);
      const after = memoryBreakdown(srv.child.pid);
      const heapAfter = await heap();
      if (!before || !after) throw new Error(`${server.label}: /proc/<pid>/smaps_rollup unreadable`);
      const perUnit = (a: number, b: number) => ((a - b) * 1024) / count;
      return {
        rssKb: perUnit(after.rss, before.rss),
        anonKb: perUnit(after.anonymous, before.anonymous),
        ...(heapBefore !== undefined && heapAfter !== undefined ? { heapKb: (heapAfter - heapBefore) / count } : {}),
        after,
      };
    } finally {
      await holder.stop();
    }
  } finally {
    await srv.child.stop();
  }
}
