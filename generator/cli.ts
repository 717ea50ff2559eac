/**
 * @module cli — the `wiregen` command: one entry per command in {@link COMMANDS} (each in commands/), the
 * top-level help made from them, and the exit codes. Nothing else lives here.
 */
import type { Options } from './context.ts';
import { EXIT_BAD_INPUT, EXIT_OK, formatDiagnostic, InputError } from './errors.ts';
import { nearest } from './commands/args.ts';
import { a2aConformance } from './commands/a2a-conformance.ts';
import { CliError, type Command, debugging } from './commands/command.ts';
import { diff, pin } from './commands/evolve.ts';
import { generate } from './commands/generate.ts';
import { golden } from './commands/golden.ts';
import { init } from './commands/init.ts';
import { serve } from './commands/serve.ts';
import { validate } from './commands/validate.ts';

/** The commands, in the order the help lists them. */
const COMMANDS: Readonly<Record<string, Command>> = {
  init,
  generate,
  validate,
  serve,
  golden,
  'a2a-conformance': a2aConformance,
  pin,
  diff,
};

function mainHelp(): string {
  const rows = Object.values(COMMANDS).flatMap((c) => c.summary);
  const width = Math.max(...rows.map(([usage]) => usage.length)) + 2;
  return `wiregen: generates typed messages, validators and dispatch tables for MCP and A2A from the pinned schemas,
and typed servers and agents from a spec.

Usage: wiregen <command> [options]

Commands:
${rows.map(([usage, what]) => `  ${usage.padEnd(width)}${what}`).join('\n')}

Run 'wiregen <command> --help' for a command's options.
Exit codes: 0 ok, 1 differences or invalid data, 2 bad input (one line naming the file and location, or the
flag; WIREGEN_DEBUG=1 adds the stack of an error a served module threw).`;
}

/** The one line an unknown command (or a flag given before any command) gets. */
function unknownCommand(name: string): string {
  const names = Object.keys(COMMANDS);
  if (name.startsWith('-'))
    return `wiregen: ${name} before a command: give a command first (wiregen <command> ${name}); commands: ${names.join(', ')}`;
  const near = nearest(name, names);
  return near
    ? `wiregen: unknown command ${JSON.stringify(name)}; did you mean ${near}? (wiregen --help)`
    : `wiregen: unknown command ${JSON.stringify(name)}; the commands are ${names.join(', ')} (wiregen --help)`;
}

/** Runs the CLI; returns the exit code. Output goes to `out`, problems to `err`; `base` overrides options (tests). */
export async function main(
  argv: readonly string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  base: Partial<Options> = {},
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    out(mainHelp());
    return name === undefined ? EXIT_BAD_INPUT : EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    err(unknownCommand(name));
    return EXIT_BAD_INPUT;
  }
  try {
    return await command.run(rest, { out, err, base });
  } catch (e) {
    if (e instanceof InputError) {
      e.diagnostics.forEach((d) => err(formatDiagnostic(d)));
      return e.exitCode;
    }
    if (e instanceof CliError) {
      e.lines.forEach((l) => err(l));
      // The stack of what the user's code threw (a served module), on request only.
      if (debugging() && e.cause instanceof Error && e.cause.stack) err(e.cause.stack);
      return e.exitCode;
    }
    // A file the command could not read or write (permissions, a full disk, a folder where a file goes).
    const sys = e as { code?: unknown; path?: unknown; syscall?: unknown; message?: unknown };
    if (e instanceof Error && typeof sys.code === 'string' && /^E[A-Z]+$/.test(sys.code) && typeof sys.path === 'string') {
      err(`wiregen ${name}: ${sys.path}: cannot ${String(sys.syscall ?? 'use')} it (${sys.code})`);
      if (debugging() && e.stack) err(e.stack);
      return EXIT_BAD_INPUT;
    }
    throw e;
  }
}
