/**
 * @module scripts/soak — `npm run soak -- [--minutes N | --seconds N] [--concurrency N] [--prefill-mib N] [--out DIR]`: the soak
 * run (test/soak/harness/run.ts) on 127.0.0.1: an MCP server process and an A2A agent process under mixed
 * traffic for N minutes (default 10), each sampling its RSS, heapUsed, active handles and file descriptors
 * every 2 s; the agent's SQLite store first filled with --prefill-mib MiB of tasks (default 20). Writes report.json and soak.svg to DIR (default soak-report/), prints the summary line; exits 0
 * when it passed (verdict.ts), 1 when it failed, 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { runSoak, summaryLine } from '../test/soak/harness/run.ts';

const USAGE =
  'Usage: npm run soak -- [--minutes <default 10> | --seconds <N>] [--concurrency <default 8>] [--prefill-mib <default 20>] [--out <dir, default soak-report>]';

const HELP = `
An MCP server process and an A2A agent process on 127.0.0.1 under mixed traffic, each sampling RSS, heapUsed,
active handles and file descriptors every 2 s (and, reported only: RSS split into anonymous and file-backed
pages, the agent's database and WAL sizes). Writes report.json and soak.svg to --out, prints one summary line.
--prefill-mib N: the agent's SQLite store first holds about N MiB of completed tasks (default 20; 0 for none), so
SQLite's page cache (up to 16,000 KiB per connection in better-sqlite3's build) is full before memory is
measured; on an empty store it fills during the run and its RSS climbs by up to that much.
Exit 0: passed; 1: memory or handles/fds grew past their bounds, a request failed or a process died; 2: bad arguments.
`;

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

function nonNegativeInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a whole number ≥ 0, not ${JSON.stringify(text)}`);
  return Number(text);
}

let options: { seconds: number; concurrency: number; prefillMib: number; out: string };
try {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      concurrency: { type: 'string' },
      'prefill-mib': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n${HELP}`);
    process.exit(0);
  }
  if (values.minutes !== undefined && values.seconds !== undefined) throw new Error('--minutes and --seconds exclude each other');
  if (values.out === '') throw new Error('--out must name a directory');
  options = {
    seconds: values.seconds !== undefined ? positiveInt('seconds', values.seconds, 0) : positiveInt('minutes', values.minutes, 10) * 60,
    concurrency: positiveInt('concurrency', values.concurrency, 8),
    prefillMib: nonNegativeInt('prefill-mib', values['prefill-mib'], 20),
    out: values.out ?? 'soak-report',
  };
} catch (err) {
  process.stderr.write(`soak: ${(err as Error).message} (see --help)\n`);
  process.exit(2);
}

const result = await runSoak({ ...options, log: (line) => process.stderr.write(`[soak] ${line}\n`) });
process.stdout.write(`${summaryLine(result)}\nreport: ${result.report}\nchart: ${result.chart}\n`);
if (result.counts.firstErrors.length) process.stdout.write(`first errors:\n  ${result.counts.firstErrors.join('\n  ')}\n`);
process.exit(result.verdict.pass ? 0 : 1);
