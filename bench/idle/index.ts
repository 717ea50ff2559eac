/**
 * @module bench/idle — memory per idle long-lived stream and per idle session, ours against the SDK v2 and tmcp:
 * for each server, a fresh process, its memory before and after a holder process opens and holds COUNT
 * (1,000) of (a) 2026-07-28 `subscriptions/listen` streams, (b) handshake-era sessions (initialize,
 * notifications/initialized, Mcp-Session-Id) each with its GET SSE stream, (c) such sessions without a GET
 * stream (measure.ts); KB per stream or session = Δ resident memory ÷ COUNT (also anonymous memory, and for
 * ours the V8 heap after GC). Servers are measured in turn within each round; ratios are paired within rounds.
 */
import { execFileSync } from 'node:child_process';
import type { PartOptions } from '../lib/part.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';
import { measureIdle, SERVERS, type IdleMode, type IdleSample, type IdleServer } from './measure.ts';

const COUNT = 1_000;
const PART = 'idle';

export const WORKLOADS: readonly { readonly mode: IdleMode; readonly label: string; readonly unit: string; readonly targetId?: string }[] = [
  { mode: 'listen', label: 'subscriptions/listen stream (2026-07-28)', unit: 'stream', targetId: 'idle-listen-kb' },
  { mode: 'session-get', label: 'session with its GET stream (2025-11-25)', unit: 'session', targetId: 'idle-session-kb' },
  { mode: 'session', label: 'session without a GET stream (2025-11-25)', unit: 'session' },
];

/** The soft limit on open files of this process (its children inherit it); each held stream is two (holder, server). */
function openFileLimit(): number {
  try {
    const text = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    return text === 'unlimited' ? Infinity : Number(text);
  } catch {
    return NaN;
  }
}

export interface IdleRun {
  readonly count: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
  /** How long each server is left to settle before each reading (measure.ts SETTLE_MS by default). */
  readonly settleMs?: number;
  /** The servers, ours first (SERVERS by default; the tests run ours from sources). */
  readonly servers?: readonly IdleServer[];
}

/** Every workload on every server, `rounds` times, `count` streams each: the rows. */
export async function measureRows({ count, rounds, log, settleMs, servers = SERVERS }: IdleRun): Promise<Row[]> {
  const limit = openFileLimit();
  if (!(limit >= count + 256)) {
    const note = `skipped: ulimit -n is ${limit}, ${count} streams need ${count + 256} (raise it: ulimit -n 8192)`;
    log(`idle: ${note}`);
    return [{ part: PART, subject: 'all', metric: 'KB per stream', value: null, note }];
  }
  const samples = new Map<string, IdleSample[]>();
  for (let r = 0; r < rounds; r++) {
    for (const w of WORKLOADS) {
      for (const s of servers) {
        const sample = await measureIdle(s, w.mode, count, settleMs);
        const key = `${w.mode}/${s.key}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        const heap = sample.heapKb !== undefined ? `, heap ${sample.heapKb.toFixed(1)} KB` : '';
        log(`idle: round ${r + 1} ${w.mode} ${s.label}: ${sample.rssKb.toFixed(1)} KB RSS, ${sample.anonKb.toFixed(1)} KB anon${heap}`);
      }
    }
  }
  const rows: Row[] = [];
  for (const w of WORKLOADS) {
    const of = (key: string, f: (x: IdleSample) => number) => samples.get(`${w.mode}/${key}`)!.map(f);
    const rss = (x: IdleSample) => x.rssKb;
    const metric = `KB per ${w.unit}`;
    const note = `${count} held, Δ RSS ÷ ${count}`;
    const extra = { workload: w.label };
    const target = w.targetId ? { id: w.targetId, text: '≤ 0.5× SDK v2', ok: (x: number) => x <= 0.5 } : undefined;
    rows.push({ ...ratioRow(PART, servers[0]!.label, metric, of('ours', rss), of('v2', rss), 'SDK v2', target, note), ...extra });
    rows.push({ ...ratioRow(PART, servers[0]!.label, metric, of('ours', rss), of('tmcp', rss), 'tmcp'), ...extra });
    rows.push({
      ...valueRow(
        PART,
        servers[0]!.label,
        `heap KB per ${w.unit}`,
        of('ours', (x) => x.heapKb ?? NaN),
        { note: 'V8 heap after GC' },
      ),
      ...extra,
    });
    for (const s of servers) {
      rows.push({
        ...valueRow(
          PART,
          s.label,
          `anon KB per ${w.unit}`,
          of(s.key, (x) => x.anonKb),
        ),
        ...extra,
      });
      if (s.key !== 'ours') rows.push({ ...valueRow(PART, s.label, metric, of(s.key, rss), { note }), ...extra });
    }
  }
  return rows;
}

export function run(options: PartOptions): Promise<Row[]> {
  options.log(`idle: ${options.rounds} round(s) × ${WORKLOADS.length} workloads × ${SERVERS.length} servers, ${COUNT} held each`);
  return measureRows({ count: COUNT, rounds: options.rounds, log: options.log });
}

/** For a missed target: where the memory of ours and of the SDK v2 is, with the streams held. */
export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const reports: ProfileReport[] = [];
  for (const w of WORKLOADS.filter((x) => x.targetId && ids.includes(x.targetId))) {
    const memory: Record<string, IdleSample['after']> = {};
    const notes: string[] = [];
    for (const s of SERVERS.filter((x) => x.key !== 'tmcp')) {
      const sample = await measureIdle(s, w.mode, COUNT);
      memory[s.label] = sample.after;
      notes.push(
        `${s.label}: ${sample.rssKb.toFixed(1)} KB RSS, ${sample.anonKb.toFixed(1)} KB anon${sample.heapKb !== undefined ? `, ${sample.heapKb.toFixed(1)} KB heap` : ''} per ${w.unit}`,
      );
    }
    options.log(`idle: profiled ${w.mode}`);
    reports.push({ targets: [w.targetId!], subject: `${COUNT} ${w.label} held`, memory, note: notes.join('; ') });
  }
  return reports;
}
