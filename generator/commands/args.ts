/**
 * @module commands/args — a command's arguments read with node:util parseArgs, and what a typo gets: one line
 * naming the flag, the nearest known one ("did you mean --http?") or else the flags the command knows, exit 2.
 * The same nearest-name rule answers an unknown command (cli.ts).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './command.ts';

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment), case-insensitive. */
export function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[x.length]![y.length]!;
}

/** `candidates` by distance from `name`, nearest first (ties in alphabetical order). */
export function byDistance(name: string, candidates: readonly string[]): string[] {
  return [...candidates].sort((a, b) => distance(name, a) - distance(name, b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The candidate `name` most likely stands for: the only one it begins (`--notif` for `--notifications`), else
 * the nearest when near enough to be a typo (at most a third of the longer name's letters differ, at least
 * one may).
 */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const bare = (s: string) => s.replace(/^-+/, '').toLowerCase();
  const begun = candidates.filter((c) => bare(name).length >= 3 && bare(c).startsWith(bare(name)));
  if (begun.length === 1) return begun[0];
  const [best] = byDistance(name, candidates);
  if (best === undefined) return undefined;
  return distance(bare(name), bare(best)) <= Math.max(1, Math.floor(Math.max(bare(name).length, bare(best).length) / 3)) ? best : undefined;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What parseArgs gives for `options` (positionals allowed or not, they are strings). */
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/** `--name` of every option (and `-x` of the short ones). */
function flagsOf(options: Options): string[] {
  return Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
}

/** The one line an unknown flag gets: the nearest known flag, or the flags the command knows. */
export function unknownFlag(command: string, flag: string, options: Options): string {
  const known = flagsOf(options).filter((f) => f.startsWith('--'));
  const near = nearest(flag.split('=')[0]!, flagsOf(options));
  return near
    ? `unknown option ${flag}; did you mean ${near}? (wiregen ${command} --help)`
    : `unknown option ${flag}; its options are ${known.join(', ')} (wiregen ${command} --help)`;
}

/**
 * parseArgs (strict) with the errors a user can cause turned into one line naming `wiregen <command>` and the
 * flag (a CliError, exit 2): an unknown flag with the nearest known one, a missing value, a value given to a
 * switch, an argument the command does not take.
 */
export function parseCommand<const O extends Options>(command: string, args: string[], options: O, allowPositionals = true): Parsed<O> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (!(e instanceof TypeError) || typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw e;
    const unknown = /^Unknown option '([^']+)'/.exec(e.message);
    if (unknown) throw usageError(command, unknownFlag(command, unknown[1]!, options));
    const missing = /^Option '(?:-\w, )?(--[^ ']+) <value>' argument missing/.exec(e.message);
    if (missing) throw usageError(command, `${missing[1]} needs a value (wiregen ${command} --help)`);
    const switched = /^Option '(?:-\w, )?(--[^ ']+)' does not take an argument/.exec(e.message);
    if (switched) throw usageError(command, `${switched[1]} takes no value (wiregen ${command} --help)`);
    const positional = /^Unexpected argument '([^']*)'/.exec(e.message);
    if (positional) throw usageError(command, `unexpected argument ${JSON.stringify(positional[1])} (wiregen ${command} --help)`);
    throw usageError(command, `${e.message.split('\n')[0]} (wiregen ${command} --help)`);
  }
}
