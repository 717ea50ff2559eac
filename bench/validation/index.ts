/**
 * @module bench/validation — part 1: messages per second validating the fixed corpus (corpus.ts) with
 *   (a) ours: the generated ajv standalone validators (generated/mcp-<revision>/validators.js);
 *   (b) the official SDK 1.32.2's Zod schemas, `.parse`, the same messages;
 *   (c) ajv compiling the same JSON Schema at run time (Ajv2020 / Ajv for draft-07, ajv-formats), with the
 *       generator's options, and for information with ajv's defaults;
 * each subject in a process of its own, warmed up, then validating in 100 ms slices handed out round-robin
 * (so a machine whose load drifts weighs on every subject alike). Also cold start:
 * import plus the first validation, in a fresh plain-Node process each time (cold-start.mjs).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartOptions } from '../lib/part.ts';
import { BENCH, CommandChild, runNode, TSX } from '../lib/proc.ts';
import { median, type Row } from '../lib/table.ts';
import { buildCorpus, type CorpusItem } from './corpus.ts';

const WARMUP_S = 0.2;
/**
 * Warm-up of each worker, one after the other once all are up: 250 ms slices until the last three rates agree
 * within 5 % (at least 2 s, at most 8 s). On a loaded machine the JIT's background compiles are starved, so a
 * fixed short warm-up left our validators still tiering up during the measurement.
 */
export async function warmUp(w: CommandChild): Promise<number[]> {
  const rates: number[] = [];
  for (let i = 0; i < 32; i++) {
    const r = (await w.command('run 250')) as { validated: number; ms: number };
    rates.push(r.validated / (r.ms / 1000));
    const last = rates.slice(-3);
    const mean = last.reduce((a, b) => a + b, 0) / last.length;
    if (i >= 7 && last.every((x) => Math.abs(x - mean) / mean < 0.05)) break;
  }
  return rates;
}
const SLICE_MS = 100;

export function rateOf(slices: readonly { validated: number; ms: number }[]): number {
  return slices.reduce((s, x) => s + x.validated, 0) / (slices.reduce((s, x) => s + x.ms, 0) / 1000);
}

/** The rate over each quarter of the run: the spread a drifting machine left. */
function quarters(slices: readonly { validated: number; ms: number }[]): number[] {
  const q = Math.ceil(slices.length / 4);
  return [0, 1, 2, 3].map((i) => rateOf(slices.slice(i * q, (i + 1) * q))).filter((x) => !Number.isNaN(x));
}
const COLD_RUNS = 5;

export async function run(options: PartOptions): Promise<Row[]> {
  const corpus = await buildCorpus();
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-bench-'));
  try {
    const commonFile = join(dir, 'common.json');
    const oursFile = join(dir, 'ours.json');
    const messageFile = join(dir, 'message.json');
    writeFileSync(commonFile, JSON.stringify(corpus.common));
    writeFileSync(oursFile, JSON.stringify(corpus.ours));
    const callTool = corpus.common.find((i) => i.revision === '2026-07-28' && i.def === 'CallToolRequest' && i.source.startsWith('seed000'))!;
    writeFileSync(messageFile, JSON.stringify(callTool.data));
    options.log(
      `validation: corpus ${corpus.common.length} messages both sides accept, ${corpus.ours.length} ours accepts, ${corpus.excluded.length} left out`,
    );

    // Every subject in a warmed-up process of its own; the parent hands out time slices round-robin, so load
    // that drifts on a shared machine lands on every subject alike.
    const seconds = Math.max(1, options.duration / 5) * options.rounds;
    const subjects = ['ours', 'sdk', 'ajv', 'ajv-defaults', 'ours-full'];
    const workers = new Map<string, CommandChild>();
    const slices = new Map<string, { validated: number; ms: number }[]>(subjects.map((s) => [s, []]));
    let oursByDef: Record<string, number>;
    let sdkByDef: Record<string, number>;
    try {
      for (const s of subjects) {
        const [subject, file] = s === 'ours-full' ? ['ours', oursFile] : [s, commonFile];
        workers.set(s, new CommandChild([...TSX, join(BENCH, 'validation/worker.ts'), subject, file, String(WARMUP_S)]));
      }
      for (const w of workers.values()) await w.ready;
      for (const [s, w] of workers) options.log(`validation: ${s} warmed up: ${(await warmUp(w)).map((r) => `${(r / 1000).toFixed(0)}k`).join(' ')}`);
      const count = Math.round((seconds * 1000) / SLICE_MS);
      for (let i = 0; i < count; i++) {
        for (const s of i % 2 ? [...subjects].reverse() : subjects)
          slices.get(s)!.push((await workers.get(s)!.command(`run ${SLICE_MS}`)) as { validated: number; ms: number });
      }
      // Where the aggregate comes from: each definition's messages on their own, ours against the SDK.
      oursByDef = (await workers.get('ours')!.command('bydef 0.05'))['byDef'] as Record<string, number>;
      sdkByDef = (await workers.get('sdk')!.command('bydef 0.05'))['byDef'] as Record<string, number>;
    } finally {
      for (const w of workers.values()) await w.stop();
    }
    for (const s of subjects) options.log(`validation: ${s}: ${rateOf(slices.get(s)!).toFixed(0)} msgs/s`);

    const cold = new Map<string, number[]>([
      ['ours', []],
      ['sdk', []],
      ['ajv', []],
      ['ajv-all', []],
    ]);
    for (let i = 0; i < COLD_RUNS; i++) {
      for (const s of cold.keys()) {
        const { stdout } = await runNode([join(BENCH, 'validation/cold-start.mjs'), s, messageFile]);
        cold.get(s)!.push((JSON.parse(stdout) as { totalMs: number }).totalMs);
      }
    }
    options.log(`validation: cold start medians ${[...cold].map(([k, v]) => `${k} ${median(v).toFixed(1)} ms`).join(', ')}`);
    return rows(corpus, slices, oursByDef, sdkByDef, cold);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function rows(
  corpus: { common: CorpusItem[]; ours: CorpusItem[]; excluded: { source: string; reason: string }[] },
  slices: Map<string, { validated: number; ms: number }[]>,
  oursByDef: Record<string, number>,
  sdkByDef: Record<string, number>,
  cold: Map<string, number[]>,
): Row[] {
  const part = 'validation';
  const rate = (s: string) => rateOf(slices.get(s)!);
  const ours = rate('ours');
  const sdk = rate('sdk');
  const ajv = rate('ajv');
  const ajvD = rate('ajv-defaults');
  const n = corpus.common.length;
  const metric = `msgs/s (${n} msgs)`;
  const perDef = Object.keys(oursByDef)
    .map((k) => ({ def: k, ratio: oursByDef[k]! / sdkByDef[k]! }))
    .sort((a, b) => a.ratio - b.ratio);
  const geo = Math.exp(perDef.reduce((s, d) => s + Math.log(d.ratio), 0) / perDef.length);
  const below1 = perDef.filter((d) => d.ratio < 1);
  const coldMs = (s: string) => median(cold.get(s)!);
  const detailOf = (s: string) => ({ quarters: quarters(slices.get(s)!), slices: slices.get(s)!.length, sliceMs: SLICE_MS });
  return [
    {
      part,
      subject: 'ours (generated standalone validators)',
      metric,
      value: ours,
      ratio: ours / sdk,
      ratioLabel: 'SDK Zod',
      target: '≥ 10× SDK Zod',
      met: ours >= 10 * sdk,
      note: 'SDK recordings + 2026-07-28 examples, both sides accept',
      detail: { ...detailOf('ours'), corpus: corpus.common.map((i) => `${i.source} → ${i.revision} ${i.def} / ${i.sdk}`) },
    },
    {
      part,
      subject: 'SDK 1.32.2 Zod schemas (.parse)',
      metric,
      value: sdk,
      note: 'same messages, the schema of the same kind',
      detail: detailOf('sdk'),
    },
    {
      part,
      subject: 'ajv, compiled at run time (generator options)',
      metric,
      value: ajv,
      note: `ours is ${(ours / ajv).toFixed(2)}× this`,
      detail: detailOf('ajv'),
    },
    {
      part,
      subject: 'ajv, compiled at run time (ajv defaults)',
      metric,
      value: ajvD,
      note: `allErrors off, inlineRefs on; ours is ${(ours / ajvD).toFixed(2)}× this`,
      detail: detailOf('ajv-defaults'),
    },
    {
      part,
      subject: 'ours (generated standalone validators)',
      metric: `msgs/s (${corpus.ours.length} msgs)`,
      value: rate('ours-full'),
      note: 'every message ours accepts, incl. 2026-07-28-only kinds',
      detail: { ...detailOf('ours-full'), excluded: corpus.excluded },
    },
    {
      part,
      subject: 'ours (generated standalone validators)',
      metric: `per-$def ratio, geomean (${perDef.length} defs)`,
      value: geo,
      ratioLabel: 'SDK Zod',
      ratio: geo,
      note: `${below1.length} defs slower than Zod; min ${perDef[0]!.ratio.toFixed(2)}× (${perDef[0]!.def}), max ${perDef.at(-1)!.ratio.toFixed(0)}× (${perDef.at(-1)!.def})`,
      detail: { perDef, ours: oursByDef, sdk: sdkByDef },
    },
    {
      part,
      subject: 'ours (generated standalone validators)',
      metric: 'cold start ms',
      value: coldMs('ours'),
      ratio: coldMs('ours') / coldMs('sdk'),
      ratioLabel: 'SDK Zod',
      note: 'import validators.js + first CallToolRequest',
      detail: cold.get('ours'),
    },
    {
      part,
      subject: 'SDK 1.32.2 Zod schemas (.parse)',
      metric: 'cold start ms',
      value: coldMs('sdk'),
      note: 'import types.js + first CallToolRequestSchema.parse',
      detail: cold.get('sdk'),
    },
    {
      part,
      subject: 'ajv, compiled at run time',
      metric: 'cold start ms',
      value: coldMs('ajv'),
      note: 'import ajv + compile CallToolRequest (2026-07-28) + first validation',
      detail: cold.get('ajv'),
    },
    {
      part,
      subject: 'ajv, compiled at run time (all $defs)',
      metric: 'cold start ms',
      value: coldMs('ajv-all'),
      note: 'the same, compiling every $def of the pin',
      detail: cold.get('ajv-all'),
    },
  ];
}
