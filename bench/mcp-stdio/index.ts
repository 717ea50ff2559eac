/**
 * @module bench/mcp-stdio — part 3: `tools/call` of `add` over stdio (newline-delimited JSON), every server as
 * its users run it: ours from the built packages (bench/servers/wiregen-stdio.ts), the SDK v2's `serveStdio`
 * (bench/servers/v2-stdio.mjs, the primary peer), the SDK v1's StdioServerTransport (v1-stdio.mjs), tmcp's
 * StdioTransport (tmcp-stdio.mjs, both eras; to a 2025-11-25 initialize it answers 2025-06-18) and the
 * ceiling, bare stdio (bare-stdio.mjs: reads each line's id and writes our answer's bytes, nothing else), in
 * both eras where the server has them: 2026-07-28 (no handshake, the envelope in every request's `_meta`) and
 * the handshake era (initialize, 2025-11-25), one process per server and era. The rows: ./rows.ts.
 *
 * The driver is this process (stdio has no other way in). Measured: round trips per second with one request
 * in flight (send, wait for the answer, send the next) and its latencies; requests per second with 16 in
 * flight (the server's own capacity, the pipe's latency hidden); the server's CPU per request (its /proc
 * stat). All servers are started and warmed up first, then measured in short slices handed out round-robin;
 * the slices are grouped into `rounds` rounds, and each ratio is paired within its round.
 */
import { join } from 'node:path';
import { builtServer } from '../lib/built.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH } from '../lib/proc.ts';
import { cpuSeconds } from '../lib/procfs.ts';
import { summarizeDir, cpuProfArgs } from '../lib/profiling.ts';
import { StdioClient } from '../lib/stdio-client.ts';
import { percentile, type Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';
import { PIPELINED, stdioRows, type Round } from './rows.ts';

export { PIPELINED };

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

type Era = 'handshake' | 'stateless';
interface Subject {
  readonly key: string;
  readonly label: string;
  readonly args: string[];
  readonly era: Era;
  /** Seconds of warm-up with 1 in flight before the rounds (then a third of it with 16); default WARM_S. */
  readonly warmS?: number;
}

/** The warm-up of a server (its JIT, the pipe): 1.5 s with 1 request in flight, then 0.5 s with 16. */
const WARM_S = 1.5;
/** The bare ceilings have little to compile: a shorter warm-up keeps the part's run time as it was. */
const WARM_BARE_S = 0.5;

async function subjects(options: PartOptions): Promise<Subject[]> {
  const ours = [...profFlags(options, 'mcp-stdio'), await builtServer('servers/wiregen-stdio.ts')];
  const v2 = [join(BENCH, 'servers/v2-stdio.mjs')];
  const bare = [join(BENCH, 'servers/bare-stdio.mjs')];
  const tmcp = [join(BENCH, 'servers/tmcp-stdio.mjs')];
  return [
    { key: 'ours', label: 'ours (built packages), 2026-07-28', args: ours, era: 'stateless' },
    { key: 'v2', label: 'SDK v2 2.4.0 serveStdio, 2026-07-28', args: v2, era: 'stateless' },
    { key: 'oursHandshake', label: 'ours (built packages), handshake 2025-11-25', args: ours, era: 'handshake' },
    { key: 'v2Handshake', label: 'SDK v2 2.4.0 serveStdio, handshake 2025-11-25', args: v2, era: 'handshake' },
    { key: 'v1Handshake', label: 'SDK v1 1.32.2 StdioServerTransport, 2025-11-25', args: [join(BENCH, 'servers/v1-stdio.mjs')], era: 'handshake' },
    { key: 'tmcp', label: 'tmcp 1.20 StdioTransport, 2026-07-28', args: tmcp, era: 'stateless' },
    { key: 'tmcpHandshake', label: 'tmcp 1.20 StdioTransport, handshake (answers 2025-06-18)', args: tmcp, era: 'handshake' },
    { key: 'bare', label: 'bare stdio, fixed answer (ceiling), 2026-07-28', args: bare, era: 'stateless', warmS: WARM_BARE_S },
    { key: 'bareHandshake', label: 'bare stdio, fixed answer (ceiling), handshake 2025-11-25', args: bare, era: 'handshake', warmS: WARM_BARE_S },
  ];
}

function callParams(era: Era): string {
  return JSON.stringify(era === 'stateless' ? { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } : { name: 'add', arguments: { a: 1, b: 2 } });
}

/** The answer of `add` 1 + 2, as both servers write it (checked on every response without parsing it). */
const SUM = '"structuredContent":{"result":3}';

/** Starts a subject's server and opens its era (the handshake, or nothing). */
async function open(s: Subject): Promise<StdioClient> {
  const c = new StdioClient(s.args);
  if (s.era === 'handshake') await c.handshake().catch((err: Error) => Promise.reject(new Error(`${s.label}: ${err.message}`)));
  return c;
}

/** Round trips for `seconds`, `inFlight` requests outstanding at any time: each latency, and the time taken. */
async function measure(client: StdioClient, era: Era, seconds: number, inFlight = 1): Promise<{ lat: number[]; ms: number }> {
  const params = callParams(era);
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let last = t0;
  const lane = async () => {
    let now = performance.now();
    while (now < end) {
      const start = now;
      const line = await client.requestLine('"tools/call"', params);
      if (!line.includes(SUM)) throw new Error(`unexpected answer ${line.slice(0, 300)}`);
      now = performance.now();
      lat.push(now - start);
    }
    last = Math.max(last, now);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { lat, ms: last - t0 };
}

const SLICE_S = 0.25;
/**
 * A round lasts as long as it did with the five subjects the part measured before the bare ceilings: the
 * subjects share it (each gets `duration / 2 × 5 / subjects` s of 1-in-flight slices), so the part's run
 * time stays about the same (~67 s at the defaults).
 */
const ROUND_SUBJECTS = 5;

interface RoundAcc {
  lat: number[];
  ms1: number;
  cpu1: number;
  n16: number;
  ms16: number;
  cpu16: number;
  /** The driver's (this process's) CPU seconds during the 16-in-flight slices. */
  driver16: number;
}

function summarize(a: RoundAcc): Round {
  const sorted = [...a.lat].sort((x, y) => x - y);
  return {
    perSec: a.lat.length / (a.ms1 / 1000),
    piped: a.n16 / (a.ms16 / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    cpu1: (a.cpu1 * 1e6) / a.lat.length,
    cpu16: (a.cpu16 * 1e6) / a.n16,
    driver16: (a.driver16 * 1e6) / a.n16,
    calls: a.lat.length + a.n16,
  };
}

export async function run(options: PartOptions): Promise<Row[]> {
  const list = await subjects(options);
  const perSubjectS = (Math.max(1, options.duration / 2) * ROUND_SUBJECTS) / list.length;
  const slicesPerRound = Math.max(4, Math.round(perSubjectS / SLICE_S));
  const clients = new Map<string, StdioClient>();
  const rounds = new Map<string, Round[]>(list.map((s) => [s.key, []]));
  try {
    for (const s of list) {
      const c = await open(s);
      clients.set(s.key, c);
      const warm = s.warmS ?? WARM_S;
      options.log(`mcp-stdio: ${s.key} started, warming up ${((warm * 4) / 3).toFixed(1)} s`);
      await measure(c, s.era, warm);
      await measure(c, s.era, warm / 3, PIPELINED);
    }
    for (let r = 0; r < options.rounds; r++) {
      const acc = new Map<string, RoundAcc>(list.map((s) => [s.key, { lat: [], ms1: 0, cpu1: 0, n16: 0, ms16: 0, cpu16: 0, driver16: 0 }]));
      // Slices handed out round-robin, reversed every other time, so a drifting load weighs on every subject alike.
      for (let i = 0; i < slicesPerRound; i++) {
        for (const s of i % 2 ? [...list].reverse() : list) {
          const c = clients.get(s.key)!;
          const a = acc.get(s.key)!;
          const t0 = cpuSeconds(c.pid);
          const one = await measure(c, s.era, SLICE_S);
          const t1 = cpuSeconds(c.pid);
          const d1 = process.cpuUsage();
          const many = await measure(c, s.era, SLICE_S / 2, PIPELINED);
          const d2 = process.cpuUsage(d1);
          const t2 = cpuSeconds(c.pid);
          a.driver16 += (d2.user + d2.system) / 1e6;
          for (const x of one.lat) a.lat.push(x);
          a.ms1 += one.ms;
          a.cpu1 += t1 - t0;
          a.n16 += many.lat.length;
          a.ms16 += many.ms;
          a.cpu16 += t2 - t1;
        }
      }
      for (const s of list) {
        const x = summarize(acc.get(s.key)!);
        rounds.get(s.key)!.push(x);
        options.log(
          `mcp-stdio: round ${r + 1} ${s.key}: ${x.perSec.toFixed(0)} round trips/s (${x.cpu1.toFixed(0)} µs CPU/req), ${x.piped.toFixed(0)} req/s with ${PIPELINED} in flight (${x.cpu16.toFixed(0)} µs CPU/req; driver ${x.driver16.toFixed(0)} µs/req)`,
        );
      }
    }
  } finally {
    for (const c of clients.values()) await c.stop();
  }
  return stdioRows(list, rounds);
}

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const file = await builtServer('servers/wiregen-stdio.ts');
  const reports: ProfileReport[] = [];
  for (const era of ['stateless', 'handshake'] as const) {
    const mine = ids.filter((id) => id.endsWith('-handshake') === (era === 'handshake'));
    if (!mine.length) continue;
    const dir = join(options.missProfDir, `mcp-stdio-${era}`);
    const c = await open({ key: 'ours', label: 'ours', args: [...cpuProfArgs(dir), file], era });
    try {
      await measure(c, era, options.duration / 2);
      await measure(c, era, options.duration / 2, PIPELINED);
    } finally {
      await c.stop();
    }
    const subject = `ours (built packages) over stdio, ${era === 'handshake' ? 'handshake 2025-11-25' : '2026-07-28'}, under --cpu-prof: ${options.duration / 2} s with 1 request in flight, then ${options.duration / 2} s with ${PIPELINED}`;
    reports.push({ targets: mine, subject, summary: summarizeDir(dir) });
  }
  return reports;
}
