/**
 * @module scripts/soak — `npm run soak -- [--minutes N | --seconds N] [--concurrency N] [--out DIR]`: the soak
 * run (test/soak/harness/run.ts) on 127.0.0.1: an MCP server process and an A2A agent process under mixed
 * traffic for N minutes (default 10), each sampling its RSS, heapUsed, active handles and file descriptors
 * every 2 s. Writes report.json and soak.svg to DIR (default soak-report/), prints the summary line; exits 0
 * when it passed (verdict.ts), 1 when it failed, 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { runSoak, summaryLine } from '../test/soak/harness/run.ts';

const USAGE = 'Usage: npm run soak -- [--minutes <default 10> | --seconds <N>] [--concurrency <default 8>] [--out <dir, default soak-report>]';

const HELP = `
An MCP server process and an A2A agent process on 127.0.0.1 under mixed traffic, each sampling RSS, heapUsed,
active handles and file descriptors every 2 s. Writes report.json and soak.svg to --out, prints one summary line.
Exit 0: passed; 1: memory or handles/fds grew past their bounds, a request failed or a process died; 2: bad arguments.
`;

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

let options: { seconds: number; concurrency: number; out: string };
try {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      concurrency: { type: 'string' },
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
