/**
 * @module test/soak/harness/verdict — pass or fail of a soak run from its samples (pure: no I/O).
 *
 * The first {@link WARM_UP_SHARE} of the run is warm-up (JIT, pools, V8 heap sizing) and is left out. Over the
 * rest, a least-squares line is fitted to each metric of each process; its growth is slope × the measured
 * window. Memory (rss, heapUsed) fails when that growth exceeds 10 % of its warm value + 8 MiB: a V8 heap
 * sampled at arbitrary points of its GC cycle swings by a few MiB under steady load, RSS follows the heap's
 * reservations and allocator fragmentation by as much, so a smaller bound flags noise; a leak of 1 KiB per
 * operation at the run's rate (tens of operations a second) grows by tens of MiB in ten minutes and passes
 * it. Counts (active handles, file descriptors) move with the requests in flight, so they are compared as
 * the median of the last three samples against the median of the first three after warm-up: more than
 * {@link COUNT_BOUND} more fails (each leaked socket or timer adds one, and the run makes thousands).
 */
import type { ProcessSample } from './server.ts';

export const WARM_UP_SHARE = 0.2;
export const MIB = 1024 * 1024;
/** Memory growth allowed over the measured window: this share of the warm value … */
export const MEMORY_SHARE = 0.1;
/** … plus this many bytes. */
export const MEMORY_SLACK = 8 * MIB;
/** Handles or descriptors allowed at the end above the start of the measured window. */
export const COUNT_BOUND = 20;

export const METRICS = ['rss', 'heapUsed', 'handles', 'fds'] as const;
export type Metric = (typeof METRICS)[number];

export interface ProcessRun {
  readonly name: string;
  readonly samples: readonly ProcessSample[];
  /** How it exited before the end of the run, when it did. */
  readonly died?: string | undefined;
}

export interface MetricVerdict {
  /** Value at the start of the measured window (fitted line for memory; median of three for counts). */
  readonly start: number;
  readonly end: number;
  /** Slope of the fitted line, per minute. */
  readonly slopePerMinute: number;
  /** The growth compared with the bound (fitted growth for memory; end − start for counts). */
  readonly growth: number;
  readonly bound: number;
  readonly pass: boolean;
}

export interface Verdict {
  readonly pass: boolean;
  /** Why it failed (empty when it passed). */
  readonly reasons: string[];
  readonly processes: Record<string, Partial<Record<Metric, MetricVerdict>>>;
}

/** Least-squares line through (x, y): slope and intercept. */
export function fitLine(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

const median3 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

function judge(metric: Metric, measured: readonly ProcessSample[]): MetricVerdict {
  const t0 = measured[0]!.t;
  const xs = measured.map((s) => (s.t - t0) / 60_000);
  const ys = measured.map((s) => s[metric]);
  const { slope, intercept } = fitLine(xs, ys);
  if (metric === 'rss' || metric === 'heapUsed') {
    const start = intercept;
    const end = intercept + slope * xs.at(-1)!;
    const bound = MEMORY_SHARE * start + MEMORY_SLACK;
    return { start, end, slopePerMinute: slope, growth: end - start, bound, pass: end - start <= bound };
  }
  const start = median3(ys.slice(0, 3));
  const end = median3(ys.slice(-3));
  return { start, end, slopePerMinute: slope, growth: end - start, bound: COUNT_BOUND, pass: end - start <= COUNT_BOUND };
}

/** The verdict of a run: every process alive, no unexpected error, no metric past its bound. */
export function verdict(processes: readonly ProcessRun[], unexpectedErrors: number): Verdict {
  const reasons: string[] = [];
  const out: Record<string, Partial<Record<Metric, MetricVerdict>>> = {};
  if (unexpectedErrors > 0) reasons.push(`${unexpectedErrors} request(s) failed`);
  for (const p of processes) {
    out[p.name] = {};
    if (p.died) reasons.push(`${p.name} died (${p.died})`);
    if (p.samples.length < 2) {
      reasons.push(`${p.name}: ${p.samples.length} sample(s), too few to judge`);
      continue;
    }
    const from = p.samples[0]!.t + WARM_UP_SHARE * (p.samples.at(-1)!.t - p.samples[0]!.t);
    const measured = p.samples.filter((s) => s.t >= from);
    if (measured.length < 3) {
      reasons.push(`${p.name}: ${measured.length} sample(s) after warm-up, too few to judge`);
      continue;
    }
    for (const metric of METRICS) {
      if (metric === 'fds' && measured.some((s) => s.fds < 0)) continue; // no /proc here
      const v = judge(metric, measured);
      out[p.name]![metric] = v;
      if (!v.pass) reasons.push(`${p.name} ${metric} grew ${format(metric, v.growth)} (bound ${format(metric, v.bound)})`);
    }
  }
  return { pass: reasons.length === 0, reasons, processes: out };
}

/** A metric's value as the summary prints it (MiB for memory). */
export function format(metric: Metric, value: number): string {
  return metric === 'rss' || metric === 'heapUsed'
    ? `${(value / MIB).toFixed(1)}MiB`
    : value.toFixed(metric === 'handles' || metric === 'fds' ? 0 : 1);
}
