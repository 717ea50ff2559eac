/**
 * @module cli — the `wiregen` command: one entry per command in {@link COMMANDS} (each in commands/), the
 * top-level help made from them, and the exit codes. Nothing else lives here.
 */
import type { Options } from './context.ts';
import { EXIT_BAD_INPUT, EXIT_OK, formatDiagnostic, InputError } from './errors.ts';
import { CliError, type Command } from './commands/command.ts';
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
Exit codes: 0 ok, 1 differences or invalid data, 2 bad input (the error names the file and location).`;
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
    err(`wiregen: unknown command ${JSON.stringify(name)}\n\n${mainHelp()}`);
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
      return e.exitCode;
    }
    if (e instanceof TypeError && 'code' in e && String((e as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      err(`wiregen ${name}: ${e.message}`);
      return EXIT_BAD_INPUT;
    }
    throw e;
  }
}
