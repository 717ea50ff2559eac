/**
 * @module bench/validation/alone-experiment — not part of `npm run bench`: the accept corpus's per-definition
 * ratios when each definition is validated alone, in a pair of fresh processes (ours and the SDK v2's Zod)
 * that have seen no other definition's messages. Part 1 of the bench takes every definition's rate after the
 * whole corpus has run in one process (the functions the definitions share have then seen every shape); this
 * says what that order does to each side. Slices alternate between the two processes, three each.
 *
 *   node --import tsx bench/validation/alone-experiment.ts [ms per slice, default 300] [definition key…]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCorpus } from './corpus.ts';
import { worker } from './index.ts';

const [msArg, ...only] = process.argv.slice(2);
const sliceMs = Number(msArg ?? 300);
const corpus = await buildCorpus();
const keyOf = (i: { revision: string; def: string }) => `${i.revision} ${i.def}`;
const keys = only.length ? only : [...new Set(corpus.accept.map(keyOf))];
const dir = mkdtempSync(join(tmpdir(), 'wiregen-bench-alone-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const rows: { key: string; ours: number; sdk: number; ratio: number }[] = [];
try {
  for (const [n, key] of keys.entries()) {
    const file = join(dir, 'one.json');
    writeFileSync(file, JSON.stringify(corpus.accept.filter((i) => keyOf(i) === key)));
    const ours = worker('ours', file);
    const sdk = worker('sdk', file);
    try {
      await Promise.all([ours.ready, sdk.ready]);
      const rates = { ours: [] as number[], sdk: [] as number[] };
      for (let r = 0; r < 3; r++)
        for (const [side, w] of r % 2
          ? ([
              ['sdk', sdk],
              ['ours', ours],
            ] as const)
          : ([
              ['ours', ours],
              ['sdk', sdk],
            ] as const)) {
          const { byDef } = (await w.command(`bydef ${sliceMs}`)) as { byDef: Record<string, number> };
          rates[side].push(byDef[key]!);
        }
      const row = { key, ours: median(rates.ours), sdk: median(rates.sdk), ratio: 0 };
      row.ratio = row.ours / row.sdk;
      rows.push(row);
      process.stderr.write(`[${n + 1}/${keys.length}] ${key}: ${row.ratio.toFixed(2)}×\n`);
    } finally {
      await Promise.all([ours.stop(), sdk.stop()]);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
rows.sort((a, b) => a.ratio - b.ratio);
for (const r of rows)
  process.stdout.write(
    `${r.key.padEnd(56)} ours ${(1e9 / r.ours).toFixed(1).padStart(7)} ns  SDK ${(1e9 / r.sdk).toFixed(1).padStart(8)} ns  ${r.ratio.toFixed(2)}×\n`,
  );
const geomean = Math.exp(rows.reduce((s, r) => s + Math.log(r.ratio), 0) / rows.length);
process.stdout.write(`per-definition geometric mean, each alone: ${geomean.toFixed(2)}× SDK v2 Zod over ${rows.length} definitions\n`);
