/**
 * @module scripts/scale — `npm run scale -- [--seconds N] [--instances N] [--concurrency N]`: the scale run
 * (test/scale/harness/run.ts) on loopback: PostgreSQL, three agent and three MCP instances, a round-robin client
 * for N seconds (default 20), one instance of each SIGKILLed halfway. Prints the summary line, then the details;
 * exits 0 when nothing was lost, every task with a webhook got its final push and no push arrived twice but
 * those the killed instance had in flight (delivery is at least once), 1 otherwise, 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { detailLine, runScale, summaryLine } from '../test/scale/harness/run.ts';

const USAGE = 'Usage: npm run scale -- [--seconds <default 20>] [--instances <default 3>] [--concurrency <default 6>]';

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

let options: { seconds: number; instances: number; concurrency: number };
try {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, instances: { type: 'string' }, concurrency: { type: 'string' } } });
  options = {
    seconds: positiveInt('seconds', values.seconds, 20),
    instances: positiveInt('instances', values.instances, 3),
    concurrency: positiveInt('concurrency', values.concurrency, 6),
  };
  if (options.instances < 2) throw new Error('--instances must be at least 2 (one is killed)');
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const result = await runScale({ ...options, log: (line) => process.stderr.write(`[scale] ${line}\n`) });
process.stdout.write(`${summaryLine(result)}\n${detailLine(result)}\n`);
if (result.lostIds.length) process.stdout.write(`lost: ${result.lostIds.join(' ')}\n`);
process.exit(result.lost === 0 && result.duplicatesAfterKill === 0 && result.missingFinalPushes === 0 ? 0 : 1);
