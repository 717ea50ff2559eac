/**
 * @module bench/lib/rows — the rows of the measuring parts, written once: a value row (the median over rounds)
 * and a ratio row (ours ÷ a peer, paired within each round, the median with its spread; the target judged on
 * the median).
 */
import { paired, spreadNote } from './pair.ts';
import { median, type Row } from './table.ts';

export interface RowTarget {
  readonly id: string;
  /** As the table prints it: `≥ 5× SDK v2`. */
  readonly text: string;
  /** Whether the median paired ratio meets it. */
  readonly ok: (ratio: number) => boolean;
}

/** A subject's metric: the median over its rounds. */
export function valueRow(part: string, subject: string, metric: string, values: readonly number[], extra: Partial<Row> = {}): Row {
  return { part, subject, metric, value: median(values), ...extra, detail: { rounds: values, ...(extra.detail as object | undefined) } };
}

/** Ours against a peer on one metric, paired within rounds; with `target`, met or not on the median ratio. */
export function ratioRow(
  part: string,
  subject: string,
  metric: string,
  ours: readonly number[],
  peer: readonly number[],
  ratioLabel: string,
  target?: RowTarget,
  note?: string,
): Row {
  const s = paired(ours, peer);
  return {
    part,
    subject,
    metric,
    value: median(ours),
    ratio: s.median,
    ratioLabel,
    spread: s,
    ...(target ? { target: target.text, targetId: target.id, met: target.ok(s.median) } : {}),
    note: note ? `${note}; ${spreadNote(s)}` : spreadNote(s),
    detail: { rounds: ours, peerRounds: peer },
  };
}

/**
 * Per round, the best of several peers on one metric (the highest, or the lowest with `lower`): what a target
 * against "the fastest peer" pairs ours with, round by round. `peers` are each peer's rounds, by key.
 */
export function bestPerRound(peers: ReadonlyMap<string, readonly number[]>, lower = false): { values: number[]; keys: string[] } {
  const all = [...peers];
  const rounds = Math.min(...all.map(([, v]) => v.length));
  const values: number[] = [];
  const keys: string[] = [];
  for (let i = 0; i < rounds; i++) {
    let best = all[0]!;
    for (const p of all) if (lower ? p[1][i]! < best[1][i]! : p[1][i]! > best[1][i]!) best = p;
    values.push(best[1][i]!);
    keys.push(best[0]);
  }
  return { values, keys };
}
