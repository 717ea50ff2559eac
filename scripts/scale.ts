/**
 * @module scripts/scale — `npm run scale -- [--seconds N] [--instances N] [--concurrency N] [--fault F]
 * [--outage-seconds N]`: the scale run (test/scale/harness/run.ts) on loopback: PostgreSQL, three agent and
 * three MCP instances, a round-robin client for N seconds (default 20), and halfway a fault
 * (test/scale/harness/faults.ts): `kill` (default) SIGKILLs one instance of each; `pg-restart` stops
 * PostgreSQL for --outage-seconds (default 10) and starts it again; `pg-terminate` ends every session of the
 * database twice, a second apart. Prints the summary line (with the recovery times), then the details; exits 0
 * when nothing was lost, every task with a webhook got its final push, no push arrived twice but those in
 * flight at the fault (delivery is at least once), nothing was left in the outbox or leases, no instance
 * exited, every agent instance still follows a task another runs, and every request sent during a database
 * fault was answered within 5 s; 1 otherwise, 2 on bad
 * arguments.
 */
import { parseArgs } from 'node:util';
import { FAULTS, type FaultKind } from '../test/scale/harness/faults.ts';
import { detailLine, failures, runScale, summaryLine } from '../test/scale/harness/run.ts';

const USAGE =
  'Usage: npm run scale -- [--seconds <default 20>] [--instances <default 3>] [--concurrency <default 6>] ' +
  `[--fault <${FAULTS.join('|')}, default kill>] [--outage-seconds <default 10>]`;

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

let options: { seconds: number; instances: number; concurrency: number; fault: FaultKind; outageMs: number };
try {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      instances: { type: 'string' },
      concurrency: { type: 'string' },
      fault: { type: 'string' },
      'outage-seconds': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const fault = values.fault ?? 'kill';
  if (!(FAULTS as readonly string[]).includes(fault)) throw new Error(`--fault must be one of ${FAULTS.join(', ')}, not ${JSON.stringify(fault)}`);
  options = {
    seconds: positiveInt('seconds', values.seconds, 20),
    instances: positiveInt('instances', values.instances, 3),
    concurrency: positiveInt('concurrency', values.concurrency, 6),
    fault: fault as FaultKind,
    outageMs: positiveInt('outage-seconds', values['outage-seconds'], 10) * 1000,
  };
  if (options.instances < 2) throw new Error('--instances must be at least 2 (one is killed)');
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const result = await runScale({ ...options, log: (line) => process.stderr.write(`[scale] ${line}\n`) });
process.stdout.write(`${summaryLine(result)}\n${detailLine(result)}\n`);
const failed = failures(result);
for (const line of failed) process.stdout.write(`FAILED: ${line}\n`);
process.exit(failed.length ? 1 : 0);
