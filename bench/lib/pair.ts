/**
 * @module bench/lib/pair — ratios paired within rounds. On a shared machine the load drifts between rounds far
 * more than within one, so each round's ratio (ours ÷ peer, both measured in that round, back to back) is
 * the measurement, and a ratio is reported as the median over rounds with its min and max.
 */
import { median } from './table.ts';

/** A ratio over rounds: the median, the spread, and every round's value. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly rounds: readonly number[];
}

export function spread(values: readonly number[]): Spread {
  const finite = values.filter((v) => Number.isFinite(v));
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), rounds: values };
}

/** ours[i] ÷ peer[i] for each round i, summarised. */
export function paired(ours: readonly number[], peer: readonly number[]): Spread {
  if (ours.length !== peer.length) throw new Error(`paired: ${ours.length} rounds against ${peer.length}`);
  return spread(ours.map((x, i) => x / peer[i]!));
}

/** `min 1.9×, max 2.3× over 3 rounds` for a row's note. */
export function spreadNote(s: Spread): string {
  const f = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  return `paired ratio min ${f(s.min)}×, max ${f(s.max)}× over ${s.rounds.length} rounds`;
}

/** The geometric mean (the per-definition headline weighs each definition alike). */
export function geomean(values: readonly number[]): number {
  return Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}
