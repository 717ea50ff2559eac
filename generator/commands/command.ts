/**
 * @module commands/command — what one `wiregen` command is: a line for the top-level help, its own help,
 * and `run`, which loads what the command needs only when it runs (so `serve` starts without the
 * generator's passes and `generate` without the runtime).
 */
import type { Options } from '../context.ts';
import { EXIT_BAD_INPUT } from '../errors.ts';

/** Where a command writes, and the options tests override. */
export interface Io {
  /** Output (stdout). */
  readonly out: (line: string) => void;
  /** Problems (stderr). */
  readonly err: (line: string) => void;
  /** Overrides of the generator's options (tests: another project root). */
  readonly base: Partial<Options>;
}

export interface Command {
  /** One or more `<usage>  <what it does>` lines of the top-level help. */
  readonly summary: readonly (readonly [usage: string, what: string])[];
  /** The command's `--help`. */
  readonly help: string;
  /** Runs the command with the arguments after its name; resolves with the exit code. */
  run(args: string[], io: Io): Promise<number>;
}

/**
 * Bad input reported as ready-made lines (a flag, a serve target, the problems a generated createServer
 * found): the CLI prints each on stderr, without a stack, and exits with `exitCode`.
 */
export class CliError extends Error {
  readonly lines: readonly string[];
  readonly exitCode: number;
  /** `cause`: what the user's code threw (its stack is printed with WIREGEN_DEBUG=1). */
  constructor(lines: readonly string[], exitCode: number = EXIT_BAD_INPUT, cause?: unknown) {
    super(lines.join('\n'), cause === undefined ? undefined : { cause });
    this.name = 'CliError';
    this.lines = lines;
    this.exitCode = exitCode;
  }
}

/** Bad input that is not a file's: one line, `wiregen <command>: <reason>`, exit 2. */
export function usageError(command: string, reason: string): CliError {
  return new CliError([`wiregen ${command}: ${reason}`]);
}

/** Whether stacks are printed beside the one-line errors: WIREGEN_DEBUG=1 (or `wiregen serve --verbose`). */
export function debugging(): boolean {
  const v = process.env['WIREGEN_DEBUG'];
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}
