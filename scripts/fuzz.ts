/**
 * @module scripts/fuzz — `npm run fuzz -- [--n N] [--seed S] [--max-rss-mb M] [--built]`: our own fuzz suite
 * against `wiregen serve` from sources, on loopback only (test/fuzz/harness/run.ts). With `--built`, the stdio
 * targets run recorded-server from the built packages instead (`npm run build`, then bench/servers/wiregen-stdio.ts
 * compiled as bench/lib/built.ts does). Prints the report; exits 0 with no violation, 1 with any, 2 on bad
 * arguments.
 */
import { parseArgs } from 'node:util';
import { builtServer } from '../bench/lib/built.ts';
import { runFuzz } from '../test/fuzz/harness/run.ts';

const USAGE = 'Usage: npm run fuzz -- [--n <messages, default 20000>] [--seed <integer, default 1>] [--max-rss-mb <MB, default 512>] [--built]';

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

let options: { n: number; seed: number; maxRssMb: number; built: boolean };
try {
  const { values } = parseArgs({
    options: {
      n: { type: 'string' },
      seed: { type: 'string' },
      'max-rss-mb': { type: 'string' },
      built: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  options = {
    n: positiveInt('n', values.n, 20_000),
    seed: positiveInt('seed', values.seed, 1),
    maxRssMb: positiveInt('max-rss-mb', values['max-rss-mb'], 512),
    built: values.built ?? false,
  };
} catch (err) {
  process.stderr.write(`fuzz: ${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const stdioCommand = options.built ? [process.execPath, await builtServer('servers/wiregen-stdio.ts')] : undefined;
const result = await runFuzz({ ...options, ...(stdioCommand ? { stdioCommand } : {}) });
process.stdout.write(`${result.text}\n`);
process.exitCode = result.violations === 0 ? 0 : 1;
