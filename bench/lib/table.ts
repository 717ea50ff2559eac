/**
 * @module bench/lib/table — one row per measurement, the single table `npm run bench` prints, and the
 * `--json` document.
 */
import type { Spread } from './pair.ts';

export interface Row {
  /** validation | mcp-http | mcp-stdio | a2a | startup | generator */
  readonly part: string;
  /** What was measured: `ours (generated validators)`, `SDK McpServer (express)`, … */
  readonly subject: string;
  /**
   * The workload measured, where a part runs several (`tools/call add`, `tools/list 100 tools`, …): rows of one
   * workload and metric are drawn as one chart by `npm run bench:report`.
   */
  readonly workload?: string;
  /** `msgs/s`, `req/s`, `p99 ms`, `cold start ms`, … (unit included) */
  readonly metric: string;
  /** null: not measured (a pending peer, a failed run); `note` says why. */
  readonly value: number | null;
  /** ours / peer for the same metric, when this row is ours and there is a peer (or peer / ours where lower is better, see `ratioLabel`). */
  readonly ratio?: number | null;
  /** How the ratio reads, e.g. `vs SDK Zod`. */
  readonly ratioLabel?: string;
  /** The issue's target for this row, as text, e.g. `≥ 10× SDK`. */
  readonly target?: string;
  /** Whether the target is met; undefined where there is no target. */
  readonly met?: boolean | null;
  /** The target of bench/lib/targets.ts this row measures. */
  readonly targetId?: string;
  /** The ratio paired within each round: `ratio` is its median. */
  readonly spread?: Spread;
  /**
   * For a target's row: what a server doing nothing gets against the same peer, e.g. `bare stdio is 2.30×
   * SDK v2 at 1 in flight (paired)`; the targets table prints it with the target. Also in `note`.
   */
  readonly ceiling?: string;
  /** Free text: corpus size, errors, why a value is missing. */
  readonly note?: string;
  /** Raw per-round values and anything else worth keeping in the JSON. */
  readonly detail?: unknown;
}

function fmtNumber(v: number | null | undefined, metric = ''): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (/ms$|ms\)/.test(metric) || metric.includes('MiB') || metric.includes(' s'))
    return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3);
  if (Math.abs(v) >= 100) return Math.round(v).toLocaleString('en-US');
  return v.toFixed(2);
}

const fmtX = (r: number) => (r >= 10 ? r.toFixed(1) : r.toFixed(2));

/** `5.21× SDK v2 (4.90–5.40)`: the ratio, what it is against, and the min–max of its paired rounds. */
export function fmtRatio(r: number | null | undefined, label?: string, s?: Spread): string {
  if (r === null || r === undefined || Number.isNaN(r)) return '';
  const range = s && s.rounds.length > 1 ? ` (${fmtX(s.min)}–${fmtX(s.max)})` : '';
  return `${fmtX(r)}×${label ? ` ${label}` : ''}${range}`;
}

function metCell(met: boolean | null | undefined): string {
  if (met === undefined) return '';
  if (met === null) return 'n/a';
  return met ? 'yes' : 'NO';
}

/** The rows as a Markdown table (prints well in a terminal too). */
export function renderTable(rows: readonly Row[]): string {
  const header = ['part', 'subject', 'metric', 'value', 'ratio vs peer', 'target', 'met?', 'note'];
  const body = rows.map((r) => [
    r.part,
    r.subject,
    r.metric,
    fmtNumber(r.value, r.metric),
    fmtRatio(r.ratio, r.ratioLabel, r.spread),
    r.target ?? '',
    metCell(r.met),
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 3 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...body.map(line)].join('\n');
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Percentile (0–100) of already measured samples, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
