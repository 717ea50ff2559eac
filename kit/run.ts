/**
 * @module kit/run — `npm run a2a-kit`: captures every scenario into kit/out/ (replacing it), or with
 * `--check` captures into a temporary folder and compares it with kit/out/ byte for byte (exit 1 naming
 * every file that differs, is missing or is extra). `--base-port <n>` moves the agents (0: any free ports);
 * what is written does not change. `--out <dir>` writes or checks another folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { capture } from './capture.ts';
import { DEFAULT_BASE_PORT } from './network.ts';

export const DEFAULT_OUT = join(dirname(fileURLToPath(import.meta.url)), 'out');

/** Writes `files` into `dir`, which ends up holding exactly them. */
export function writeOut(dir: string, files: Readonly<Record<string, string>>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** The differences between two folders of files, one line each (empty: identical). */
export function compareDirs(expected: string, actual: string): string[] {
  const list = (dir: string) => {
    try {
      return readdirSync(dir).sort();
    } catch {
      return [];
    }
  };
  const want = list(expected);
  const got = list(actual);
  const problems: string[] = [];
  for (const name of want) if (!got.includes(name)) problems.push(`${name}: not written by this capture`);
  for (const name of got) if (!want.includes(name)) problems.push(`${name}: new, not in ${expected}`);
  for (const name of want.filter((n) => got.includes(n))) {
    const a = readFileSync(join(expected, name));
    const b = readFileSync(join(actual, name));
    if (!a.equals(b)) problems.push(`${name}: differs${firstLine(a.toString('utf8'), b.toString('utf8'))}`);
  }
  return problems;
}

function firstLine(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i]) return ` from line ${i + 1}:\n  - ${x[i] ?? '(end of file)'}\n  + ${y[i] ?? '(end of file)'}`;
  return '';
}

/** Captures again into a temporary folder and compares with `out`; the differences (empty: none). */
export async function check(out: string = DEFAULT_OUT, basePort = DEFAULT_BASE_PORT): Promise<string[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'a2a-kit-'));
  try {
    writeOut(tmp, await capture({ basePort }));
    return compareDirs(out, tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      check: { type: 'boolean', default: false },
      'base-port': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'npm run a2a-kit [-- --check] [--base-port <n>] [--out <dir>]\n  writes (or with --check compares) the A2A 101 captures; see kit/README.md\n',
    );
    return 0;
  }
  const basePort = values['base-port'] === undefined ? DEFAULT_BASE_PORT : Number(values['base-port']);
  if (!Number.isInteger(basePort) || basePort < 0 || basePort > 65532) {
    process.stderr.write(`--base-port must be a port number (0 for any free ports), got ${values['base-port']}\n`);
    return 2;
  }
  const out = values.out ?? DEFAULT_OUT;
  if (values.check) {
    const problems = await check(out, basePort);
    if (problems.length) {
      process.stderr.write(`${out} is not what the kit captures now:\n${problems.join('\n')}\n`);
      return 1;
    }
    process.stdout.write(`${out}: the capture matches, byte for byte\n`);
    return 0;
  }
  const files = await capture({ basePort, progress: (base, n) => process.stdout.write(`${base}: ${n} file${n === 1 ? '' : 's'}\n`) });
  writeOut(out, files);
  process.stdout.write(`wrote ${Object.keys(files).length} files to ${out}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = 2;
    },
  );
