/**
 * @module test/soak/harness/run — the soak run: an MCP server process and an A2A agent process on 127.0.0.1
 * (server.ts), mixed traffic from this process for a while (traffic.ts), the samples each process reported
 * every 2 s judged (verdict.ts), a JSON report and an SVG chart (chart.ts) written to a directory.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chartSvg } from './chart.ts';
import { startServer } from './processes.ts';
import { drive, KINDS, type TrafficCounts } from './traffic.ts';
import { format, METRICS, verdict, WARM_UP_SHARE, type ProcessRun, type Verdict } from './verdict.ts';

export interface SoakOptions {
  readonly seconds: number;
  readonly concurrency: number;
  /**
   * MiB of completed tasks the agent's SQLite store holds before the run (default 0), so that SQLite's page
   * cache (16,000 KiB per connection in better-sqlite3's build) is full before memory is measured.
   */
  readonly prefillMib?: number;
  /** The report directory (created when missing). */
  readonly out: string;
  readonly log?: (line: string) => void;
}

export interface SoakResult {
  readonly seconds: number;
  readonly concurrency: number;
  readonly prefillMib: number;
  readonly counts: TrafficCounts;
  readonly processes: ProcessRun[];
  readonly verdict: Verdict;
  /** Paths of the files written. */
  readonly report: string;
  readonly chart: string;
}

/** Runs the soak for `seconds`; the servers are stopped whatever happens. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const mcp = await startServer('mcp');
  const prefillMib = options.prefillMib ?? 0;
  const a2a = await startServer('a2a', [String(prefillMib)]).catch(async (err: unknown) => {
    await mcp.stop();
    throw err;
  });
  log(`mcp pid ${mcp.pid} ${mcp.url}; a2a pid ${a2a.pid} ${a2a.url}`);
  const started = Date.now();
  let counts: TrafficCounts;
  let progress: NodeJS.Timeout | undefined;
  try {
    progress = setInterval(() => log(`${Math.round((Date.now() - started) / 1000)} s`), 30_000);
    counts = await drive({ mcp: mcp.url, a2a: `${a2a.url}/a2a` }, options.concurrency, started + options.seconds * 1000);
  } finally {
    clearInterval(progress);
    // A process that died mid-run is known by now; stopping it again is a no-op.
    await Promise.all([mcp.stop(), a2a.stop()]);
  }
  const processes: ProcessRun[] = [mcp, a2a].map((p) => ({ name: p.name, pid: p.pid, samples: [...p.samples], died: p.died() }));
  const errors = Object.values(counts.errors).reduce((a, b) => a + b, 0);
  const result = verdict(processes, errors);
  for (const p of [mcp, a2a]) if (p.died()) log(`${p.name} log: ${p.log()}`);
  await mkdir(options.out, { recursive: true });
  const report = join(options.out, 'report.json');
  const chart = join(options.out, 'soak.svg');
  const first = Math.min(...processes.flatMap((p) => p.samples.map((s) => s.t)));
  const last = Math.max(...processes.flatMap((p) => p.samples.map((s) => s.t)));
  const warmUpEnd = first + WARM_UP_SHARE * (last - first);
  const title = `wiregen soak: ${options.seconds} s, ${options.concurrency} workers, store prefilled ${prefillMib} MiB, ${result.pass ? 'PASS' : 'FAIL'}`;
  await writeFile(chart, chartSvg(processes, warmUpEnd, title));
  const body = {
    seconds: options.seconds,
    concurrency: options.concurrency,
    prefillMib,
    startedAt: new Date(started).toISOString(),
    counts,
    verdict: result,
    processes,
  };
  await writeFile(report, `${JSON.stringify(body, null, 2)}\n`);
  return { seconds: options.seconds, concurrency: options.concurrency, prefillMib, counts, processes, verdict: result, report, chart };
}

/** One line: PASS/FAIL, requests by kind, errors, then per process and metric start→end and slope per minute. */
export function summaryLine(r: SoakResult): string {
  const total = Object.values(r.counts.done).reduce((a, b) => a + b, 0);
  const errors = Object.values(r.counts.errors).reduce((a, b) => a + b, 0);
  const kinds = KINDS.map((k) => `${k}=${r.counts.done[k]}`).join(' ');
  const metrics = r.processes
    .map((p) => {
      const parts = METRICS.flatMap((m) => {
        const v = r.verdict.processes[p.name]?.[m];
        return v ? [`${m} ${format(m, v.start)}→${format(m, v.end)} (${v.slopePerMinute >= 0 ? '+' : ''}${format(m, v.slopePerMinute)}/min)`] : [];
      });
      return `${p.name}: ${parts.join(', ')}`;
    })
    .join('; ');
  const why = r.verdict.pass ? '' : ` | ${r.verdict.reasons.join('; ')}`;
  return `soak ${r.verdict.pass ? 'PASS' : 'FAIL'} ${r.seconds}s: ${total} requests (${kinds}), ${errors} errors | ${metrics}${why}`;
}
