/**
 * @module bench/validation/options-experiment — not part of `npm run bench`: what the generator's ajv options
 * cost. Compiles the pins' schemas at run time with the generator's options and with variants of them, and
 * validates the comparison corpus in each, interleaved in 100 ms slices (as part 1 does), next to ours and
 * the SDK's Zod. Used to read the validation profile (BENCHMARKS.md).
 *
 *   node --import tsx bench/validation/options-experiment.ts [seconds per subject, default 4]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandChild } from '../lib/proc.ts';
import { buildCorpus } from './corpus.ts';
import { rateOf, warmUp, worker } from './index.ts';

const VARIANTS: Record<string, string> = {
  'ours (generated, standalone)': 'ours',
  'SDK v2 Zod': 'sdk',
  'ajv run time, generator options (allErrors, inlineRefs off)': 'ajv',
  '… + unevaluated: false': `ajv:${JSON.stringify({ unevaluated: false, dynamicRef: false })}`,
  '… allErrors: false': `ajv:${JSON.stringify({ allErrors: false })}`,
  '… allErrors: false + unevaluated: false': `ajv:${JSON.stringify({ allErrors: false, unevaluated: false, dynamicRef: false })}`,
  '… allErrors: false + unevaluated: false + inlineRefs': `ajv:${JSON.stringify({ allErrors: false, unevaluated: false, dynamicRef: false, inlineRefs: true })}`,
  '… allErrors: false + unevaluated: false + inlineRefs + fast formats': `ajv:${JSON.stringify({ allErrors: false, unevaluated: false, dynamicRef: false, inlineRefs: true, formatsMode: 'fast' })}`,
};

const seconds = Number(process.argv[2] ?? 4);
const corpus = await buildCorpus();
const dir = mkdtempSync(join(tmpdir(), 'wiregen-bench-opts-'));
const file = join(dir, 'common.json');
writeFileSync(file, JSON.stringify(corpus.accept));
const workers = new Map<string, CommandChild>();
const slices = new Map<string, { validated: number; ms: number }[]>();
try {
  for (const [label, subject] of Object.entries(VARIANTS)) {
    workers.set(label, worker(subject, file));
    slices.set(label, []);
  }
  for (const w of workers.values()) await w.ready;
  for (const w of workers.values()) await warmUp(w);
  const labels = [...workers.keys()];
  for (let i = 0; i < (seconds * 1000) / 100; i++)
    for (const l of i % 2 ? [...labels].reverse() : labels)
      slices.get(l)!.push((await workers.get(l)!.command('run 100')) as { validated: number; ms: number });
} finally {
  for (const w of workers.values()) await w.stop();
  rmSync(dir, { recursive: true, force: true });
}
const sdk = rateOf(slices.get('SDK v2 Zod')!);
for (const [label, s] of slices)
  process.stdout.write(`${label.padEnd(72)} ${(rateOf(s) / 1e6).toFixed(2).padStart(6)} M msgs/s  ${(rateOf(s) / sdk).toFixed(2)}× SDK v2 Zod\n`);
