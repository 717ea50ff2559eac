/**
 * @module bench/lib/chart — the charts of BENCHMARKS.md as data: the rows of one run grouped into one chart per
 * part and workload, each with a panel per rate metric (`req/s`, `msgs/s`, `round trips/s`, …) and per CPU per
 * request metric, one bar per subject, ours highlighted. bench/lib/chart-svg.ts draws them.
 *
 * The workload of a row is its `workload` field. A part whose rows have none is grouped by its subjects'
 * suffix after the last top-level `, ` (`ours (built packages), 2026-07-28`) when every subject has one that
 * names a workload other subjects share (a shorter name, `2025-11-25`, joins the one it ends, `handshake
 * 2025-11-25`); otherwise the part is one chart.
 */
import type { Row } from './table.ts';

export interface Bar {
  readonly subject: string;
  /** null: not measured. */
  readonly value: number | null;
  readonly ours: boolean;
}

export interface Panel {
  /** The row's metric, unit included: `req/s`, `CPU µs/req (16 in flight)`. */
  readonly metric: string;
  readonly higherIsBetter: boolean;
  readonly bars: readonly Bar[];
}

export interface Chart {
  readonly part: string;
  readonly workload?: string;
  /** `<part>[-<workload>]`, lower case, `-` for anything but letters and digits: the SVG's file name. */
  readonly slug: string;
  readonly title: string;
  readonly panels: readonly Panel[];
}

/** A throughput: `req/s`, `msgs/s over the mix (247)`, `round trips/s (1 in flight)`. */
export const isRateMetric = (metric: string): boolean => /\/s\b/.test(metric) && !/CPU/.test(metric);
/** CPU time per request: `CPU µs/req`, `instance CPU µs/req`. */
export const isCpuPerRequestMetric = (metric: string): boolean => /CPU\b.*\/req\b/.test(metric);

/** Ours: the subject the project measures (`ours: listenMcpHttp …`, `ours (built packages) …`). */
export const isOurs = (subject: string): boolean => /^ours\b/.test(subject);

/** The subject split at its last `, ` outside parentheses: [name, suffix], or undefined without one. */
export function splitSuffix(subject: string): [string, string] | undefined {
  let depth = 0;
  let at = -1;
  for (let i = 0; i < subject.length; i++) {
    const c = subject[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0 && subject[i + 1] === ' ') at = i;
  }
  return at < 0 ? undefined : [subject.slice(0, at), subject.slice(at + 2)];
}

export const slugOf = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The workload of each subject of a part without `workload` fields, by subject suffix, or undefined when the
 * suffixes do not name workloads (a subject without one, or one no other subject shares).
 */
function suffixWorkloads(subjects: readonly string[]): Map<string, string> | undefined {
  const suffixes = new Map<string, string>();
  for (const s of subjects) {
    const split = splitSuffix(s);
    if (!split) return undefined;
    suffixes.set(s, split[1]);
  }
  const count = new Map<string, number>();
  for (const x of suffixes.values()) count.set(x, (count.get(x) ?? 0) + 1);
  const shared = [...count].filter(([, n]) => n >= 2).map(([x]) => x);
  const out = new Map<string, string>();
  for (const [s, x] of suffixes) {
    const w = shared.includes(x) ? x : shared.find((y) => y.endsWith(` ${x}`));
    if (w === undefined) return undefined;
    out.set(s, w);
  }
  return out;
}

/** The rows a chart draws: rates and CPU per request. */
const charted = (r: Row): boolean => isRateMetric(r.metric) || isCpuPerRequestMetric(r.metric);

/** The charts of `rows`, in the order their parts, workloads, metrics and subjects first appear. */
export function groupCharts(rows: readonly Row[]): Chart[] {
  const parts = [...new Set(rows.map((r) => r.part))];
  const charts: Chart[] = [];
  for (const part of parts) {
    const mine = rows.filter((r) => r.part === part && charted(r));
    if (!mine.length) continue;
    const byField = rows.some((r) => r.part === part && r.workload !== undefined);
    const bySuffix = byField ? undefined : suffixWorkloads([...new Set(mine.map((r) => r.subject))]);
    const workloadOf = (r: Row): string | undefined => (byField ? r.workload : bySuffix?.get(r.subject));
    const groups = new Map<string | undefined, Row[]>();
    for (const r of mine) {
      const w = workloadOf(r);
      groups.set(w, [...(groups.get(w) ?? []), r]);
    }
    for (const [workload, group] of groups) {
      const panels: Panel[] = [];
      for (const metric of [...new Set(group.map((r) => r.metric))]) {
        const bars: Bar[] = [];
        const seen = new Set<string>();
        for (const r of group.filter((x) => x.metric === metric)) {
          // One bar per subject: ours repeats its row once per peer it is paired with, with the same value.
          if (seen.has(r.subject)) continue;
          seen.add(r.subject);
          bars.push({ subject: r.subject, value: r.value, ours: isOurs(r.subject) });
        }
        panels.push({ metric, higherIsBetter: isRateMetric(metric), bars });
      }
      const name = workload === undefined ? part : `${part}-${workload}`;
      charts.push({
        part,
        ...(workload === undefined ? {} : { workload }),
        slug: slugOf(name),
        title: workload === undefined ? part : `${part}: ${workload}`,
        panels,
      });
    }
  }
  return charts;
}
