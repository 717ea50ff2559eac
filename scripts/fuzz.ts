/**
 * @module scripts/fuzz — `npm run fuzz -- [--n N] [--seed S] [--max-rss-mb M]`: our own fuzz suite against
 * `wiregen serve` from sources, on loopback only (test/fuzz/harness/run.ts). Prints the report; exits 0 with
 * no violation, 1 with any, 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { runFuzz } from '../test/fuzz/harness/run.ts';

const USAGE = 'Usage: npm run fuzz -- [--n <messages, default 20000>] [--seed <integer, default 1>] [--max-rss-mb <MB, default 512>]';

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

let options: { n: number; seed: number; maxRssMb: number };
try {
  const { values } = parseArgs({
    options: { n: { type: 'string' }, seed: { type: 'string' }, 'max-rss-mb': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  options = {
    n: positiveInt('n', values.n, 20_000),
    seed: positiveInt('seed', values.seed, 1),
    maxRssMb: positiveInt('max-rss-mb', values['max-rss-mb'], 512),
  };
} catch (err) {
  process.stderr.write(`fuzz: ${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const result = await runFuzz(options);
process.stdout.write(`${result.text}\n`);
process.exitCode = result.violations === 0 ? 0 : 1;
