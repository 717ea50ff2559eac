/**
 * @module bench/lib/targets — the speed and memory targets, each with the part that measures it. A part's row that
 * measures a target carries its `targetId` and `met`; `npm run bench -- --json` lists every target here
 * under `targets`, with the measured value, the paired spread, met or not (null when its part did not run),
 * and, for a target not met, the profile that shows why (each part's `profileMisses`).
 */
import type { ProfileSummary } from './profile.ts';
import type { MemoryBreakdown } from './procfs.ts';
import type { Spread } from './pair.ts';
import type { Row } from './table.ts';

export interface TargetDef {
  readonly id: string;
  readonly part: string;
  readonly text: string;
}

export const TARGETS: readonly TargetDef[] = [
  { id: 'http-rps', part: 'mcp-http', text: 'HTTP 2026-07-28 tools/call: req/s ≥ 5× the fastest peer' },
  { id: 'http-cpu-bare', part: 'mcp-http', text: 'HTTP 2026-07-28 tools/call: CPU per request ≤ 1.5× bare node:http' },
  { id: 'http-p99', part: 'mcp-http', text: 'HTTP 2026-07-28 tools/call: p99 below SDK v2' },
  { id: 'stdio-1', part: 'mcp-stdio', text: 'stdio 2026-07-28: ≥ 0.95× the bare stdio ceiling (bench/servers/bare-stdio.mjs), 1 in flight' },
  { id: 'stdio-16', part: 'mcp-stdio', text: 'stdio 2026-07-28: ≥ 0.8× bare stdio, 16 in flight' },
  {
    id: 'stdio-1-handshake',
    part: 'mcp-stdio',
    text: 'stdio handshake era (2025-11-25): ≥ 0.95× the bare stdio ceiling (bench/servers/bare-stdio.mjs), 1 in flight',
  },
  { id: 'stdio-16-handshake', part: 'mcp-stdio', text: 'stdio handshake era (2025-11-25): ≥ 0.8× bare stdio, 16 in flight' },
  { id: 'validation-accept', part: 'validation', text: 'validation: per-$def geometric mean ≥ 12× SDK v2 Zod on accepts' },
  { id: 'validation-reject', part: 'validation', text: 'validation: per-$def geometric mean ≥ 12× SDK v2 Zod on rejects' },
  { id: 'validation-no-slower', part: 'validation', text: 'validation: every definition at least 2× faster than SDK v2 Zod (accepts and rejects)' },
  { id: 'cold-start-stdio', part: 'startup', text: 'cold start ≤ 0.4× SDK v2 (stdio, 2026-07-28 tools/call)' },
  { id: 'cold-start-stdio-handshake', part: 'startup', text: 'cold start ≤ 0.4× SDK v2 (stdio, initialize)' },
  { id: 'cold-start-http', part: 'startup', text: 'cold start ≤ 0.4× SDK v2 (HTTP, 2026-07-28 tools/call)' },
  { id: 'idle-rss-stdio', part: 'startup', text: 'idle RSS ≤ 0.8× SDK v2 (stdio)' },
  { id: 'idle-rss-http', part: 'startup', text: 'idle RSS ≤ 0.8× SDK v2 (HTTP)' },
  { id: 'rss-100k-stdio', part: 'startup', text: 'RSS after 100k requests ≤ SDK v2 (stdio)' },
  { id: 'rss-100k-http', part: 'startup', text: 'RSS after 100k requests ≤ SDK v2 (HTTP)' },
  { id: 'a2a-rps', part: 'a2a', text: 'A2A SendMessage: req/s ≥ 3× @a2a-js/sdk' },
  { id: 'generate', part: 'generator', text: 'full generate under 10 s' },
  { id: 'idle-listen-kb', part: 'idle', text: 'memory per idle subscriptions/listen stream ≤ 0.5× SDK v2' },
  { id: 'idle-session-kb', part: 'idle', text: 'memory per idle handshake session (with its GET stream) ≤ 0.5× SDK v2' },
  { id: 'cold-start-stdio-tmcp', part: 'startup', text: 'cold start ≤ 0.6× tmcp 1.20 (stdio, 2026-07-28 tools/call)' },
  { id: 'cold-start-stdio-handshake-tmcp', part: 'startup', text: 'cold start ≤ 0.6× tmcp 1.20 (stdio, initialize)' },
  { id: 'cold-start-http-tmcp', part: 'startup', text: 'cold start ≤ 0.6× tmcp 1.20 (HTTP, 2026-07-28 tools/call)' },
  { id: 'notes-rps-add', part: 'notes', text: 'notes server, add_note: req/s ≥ 5× the fastest peer (Zod as Standard Schema)' },
  { id: 'notes-rps-list', part: 'notes', text: 'notes server, list_notes: req/s ≥ 5× the fastest peer (Zod as Standard Schema)' },
  { id: 'workload-rps-tool', part: 'workloads', text: 'HTTP create_pull_request (GitHub schema): req/s ≥ 5× the fastest peer' },
  { id: 'workload-rps-list', part: 'workloads', text: 'HTTP tools/list of 100 GitHub tools: req/s ≥ 5× the fastest peer' },
  { id: 'workload-rps-blob', part: 'workloads', text: 'HTTP resources/read of a 64 KB blob: req/s ≥ 5× the fastest peer' },
  { id: 'workload-rps-invalid', part: 'workloads', text: 'HTTP create_pull_request rejected arguments: req/s ≥ 5× the fastest peer' },
  { id: 'workload-cpu-bare-tool', part: 'workloads', text: 'HTTP create_pull_request: CPU per request ≤ 2× bare node:http' },
  { id: 'scale-xacts', part: 'scale', text: 'PostgreSQL transactions per A2A task ≤ 3' },
  { id: 'scale-pg-cpu', part: 'scale', text: "PostgreSQL CPU per task ≤ the instance's CPU per task" },
  { id: 'scale-cpu-3v1', part: 'scale', text: 'CPU per task summed over instances and the database with 3 instances ≤ 1.2× that with 1' },
];

/** Why a missed target was missed: a CPU profile of ours doing it, or where the memory is. */
export interface ProfileReport {
  /** The target ids it explains. */
  readonly targets: readonly string[];
  /** What was profiled, and how (the load, the duration). */
  readonly subject: string;
  readonly summary?: ProfileSummary;
  /** For memory targets: ours and the peer, resident memory by kind. */
  readonly memory?: Readonly<Record<string, MemoryBreakdown | undefined>>;
  readonly note?: string;
}

export interface TargetResult {
  readonly id: string;
  readonly part: string;
  readonly target: string;
  /** The measured ratio (ours ÷ peer) or value the target is judged on. */
  readonly value: number | null;
  readonly spread?: Spread;
  /** null: not measured (its part was not run, or failed). */
  readonly met: boolean | null;
  readonly note?: string;
  /** The ceiling the measurement is read against (the row's `ceiling`), when its part measures one. */
  readonly ceiling?: string;
  readonly profiles?: readonly ProfileReport[];
}

/** Every target with its row's result; the profiles of the misses attached. */
export function targetResults(rows: readonly Row[], profiles: readonly ProfileReport[]): TargetResult[] {
  return TARGETS.map((t) => {
    const row = rows.find((r) => r.targetId === t.id);
    if (!row) return { id: t.id, part: t.part, target: t.text, value: null, met: null, note: 'not measured: its part was not run or failed' };
    const mine = profiles.filter((p) => p.targets.includes(t.id));
    return {
      id: t.id,
      part: t.part,
      target: t.text,
      value: row.ratio ?? row.value,
      ...(row.spread ? { spread: row.spread } : {}),
      met: row.met ?? null,
      ...(row.note ? { note: row.note } : {}),
      ...(row.ceiling ? { ceiling: row.ceiling } : {}),
      ...(mine.length ? { profiles: mine } : {}),
    };
  });
}

const fmt = (x: number | null) => (x === null ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/**
 * The targets as a Markdown table: measured (the median paired ratio, or the value), its spread, met or not;
 * a target with a ceiling has it after its text (`…; ceiling: bare stdio is 2.30× SDK v2 …`).
 */
export function renderTargets(targets: readonly TargetResult[]): string {
  const lines = ['| target | measured | min–max over rounds | met? |', '|---|---:|---|---|'];
  for (const t of targets) {
    const range = t.spread && t.spread.rounds.length > 1 ? `${fmt(t.spread.min)}–${fmt(t.spread.max)}` : '';
    const ceiling = t.ceiling ? `; ceiling: ${t.ceiling}` : '';
    lines.push(`| ${t.target}${ceiling} | ${fmt(t.value)} | ${range} | ${t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'} |`);
  }
  return lines.join('\n');
}
