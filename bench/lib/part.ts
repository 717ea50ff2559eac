/**
 * @module bench/lib/part — what every part module exports: `run(options) → rows`.
 */
import type { Row } from './table.ts';

export interface PartOptions {
  /** Seconds of each measured load run (HTTP, A2A); stdio and validation windows derive from it. */
  readonly duration: number;
  /** Rounds per subject, interleaved across subjects; the table reports the median round. */
  readonly rounds: number;
  /** When set, our server children run with `--cpu-prof --cpu-prof-dir=<dir>/<part>`. */
  readonly cpuProfDir?: string;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
}

export type PartRunner = (options: PartOptions) => Promise<Row[]>;

/** Extra node flags for our children when profiling. */
export function profFlags(options: PartOptions, part: string): string[] {
  return options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}/${part}`] : [];
}
