/**
 * @module bench/lib/part — what every part module exports: `run(options) → rows`, and optionally
 * `profileMisses(options, ids)`: for the targets of the part that were not met, the profile that shows why.
 */
import type { ProfileReport } from './targets.ts';
import type { Row } from './table.ts';

export interface PartOptions {
  /** Seconds of each measured load run (HTTP, A2A); stdio and validation windows derive from it. */
  readonly duration: number;
  /** Rounds per subject, interleaved across subjects; ratios are paired within each round. */
  readonly rounds: number;
  /** When set, our server children run with `--cpu-prof --cpu-prof-dir=<dir>/<part>`. */
  readonly cpuProfDir?: string;
  /** Where the profiles of missed targets are written (`<dir>/<part>/`). */
  readonly missProfDir: string;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
}

export type PartRunner = (options: PartOptions) => Promise<Row[]>;

export interface PartModule {
  readonly run: PartRunner;
  /** Profiles ours doing what the missed targets (`ids`, all of this part) measure. */
  readonly profileMisses?: (options: PartOptions, ids: readonly string[]) => Promise<ProfileReport[]>;
}

/** Extra node flags for our children when profiling. */
export function profFlags(options: PartOptions, part: string): string[] {
  return options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}/${part}`] : [];
}
