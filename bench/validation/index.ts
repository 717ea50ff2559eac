/**
 * @module bench/validation — part 1: validating the fixed corpus (corpus.ts) with
 *   (a) ours: the generated standalone validators, from the built packages;
 *   (b) the official SDK v2's Zod schemas (`specTypeSchemas` of @modelcontextprotocol/server 2.4.0), the
 *       schema of the same spec type for each message;
 *   (c) for information, ajv compiling the same JSON Schema at run time (generator options, ajv defaults);
 * on accepts (messages both accept) and on rejects (those messages mutated into messages both reject).
 * Each subject and corpus in a process of its own (worker.ts), warmed up. Every round: 100 ms slices of the
 * whole corpus handed out round-robin (the aggregate rates), then each definition's messages on their own
 * (the per-definition rates), ours and the SDK's back to back for each definition. The headline is the
 * per-definition ratio ours ÷ SDK v2, its geometric mean over definitions (each definition weighs alike,
 * whatever its share of the corpus) paired within each round; and the slowest definition. Also cold start: import plus the first validation, a fresh process each time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../lib/built.ts';
import { geomean, paired, spread } from '../lib/pair.ts';
import type { PartOptions } from '../lib/part.ts';
import { BENCH, CHILD_ENV, CommandChild, runNode, TSX } from '../lib/proc.ts';
import { cpuProfArgs, summarizeDir } from '../lib/profiling.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import { median, type Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';
import { buildCorpus, type Corpus, type CorpusItem } from './corpus.ts';

const WARMUP_S = 0.2;
/** The targets (bench/lib/targets.ts): the per-definition geomean on accepts and on rejects, and the floor for every definition. */
const ACCEPT_TARGET = 12;
const REJECT_TARGET = 12;
const EVERY_DEF_TARGET = 2;
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
/** Time on each definition's messages per subject and round. */
const BYDEF_MS = 30;
const COLD_RUNS = 5;
/** The workers' environment: tsx without the repository's `paths` (bench/tsconfig.workers.json), so the validators' own imports (`@wiregen/core`) load the built packages too. */
const WORKER_ENV = { ...CHILD_ENV, TSX_TSCONFIG_PATH: join(BENCH, 'tsconfig.workers.json') };

/** A worker validating `file` with `subject` (see worker.ts), with `flags` for node. */
export function worker(subject: string, file: string, flags: readonly string[] = []): CommandChild {
  return new CommandChild([...TSX, ...flags, join(BENCH, 'validation/worker.ts'), subject, file, String(WARMUP_S)], WORKER_ENV);
}

export function rateOf(slices: readonly { validated: number; ms: number }[]): number {
  return slices.reduce((s, x) => s + x.validated, 0) / (slices.reduce((s, x) => s + x.ms, 0) / 1000);
}

/** The workers: subject × corpus. `ours`/`sdk` on accepts and rejects carry the targets. */
const WORKERS = {
  'ours-accept': ['ours', 'accept'],
  'sdk-accept': ['sdk', 'accept'],
  'ours-reject': ['ours', 'reject'],
  'sdk-reject': ['sdk', 'reject'],
  ajv: ['ajv', 'accept'],
  'ajv-defaults': ['ajv-defaults', 'accept'],
  'ours-all': ['ours', 'ours'],
} as const;
type WorkerKey = keyof typeof WORKERS;

/** The definitions of `items`, as the workers key them (`<revision> <def>`), in corpus order. */
function defKeys(items: readonly CorpusItem[]): string[] {
  return [...new Set(items.map((i) => `${i.revision} ${i.def}`))];
}

interface Measured {
  /** Per worker, per round: the aggregate rate. */
  readonly rates: Record<WorkerKey, number[]>;
  /** Per by-def worker, per round: definition → rate. */
  readonly byDef: Record<string, Record<string, number>[]>;
}

let lastCorpus: Corpus | undefined;
let lastMeasured: Measured | undefined;

function corpusFiles(corpus: Corpus, dir: string): Record<'accept' | 'reject' | 'ours', string> {
  const files = { accept: join(dir, 'accept.json'), reject: join(dir, 'reject.json'), ours: join(dir, 'ours.json') };
  for (const k of ['accept', 'reject', 'ours'] as const) writeFileSync(files[k], JSON.stringify(corpus[k]));
  return files;
}

export async function run(options: PartOptions): Promise<Row[]> {
  await ensureBuilt();
  const corpus = await buildCorpus();
  lastCorpus = corpus;
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-bench-'));
  try {
    const files = corpusFiles(corpus, dir);
    const messageFile = join(dir, 'message.json');
    const callTool = corpus.accept.find((i) => i.revision === '2026-07-28' && i.def === 'CallToolRequest' && i.source.startsWith('recording'))!;
    writeFileSync(messageFile, JSON.stringify(callTool.data));
    options.log(
      `validation: ${corpus.accept.length} messages both accept, ${corpus.reject.length} mutants both reject, ${corpus.ours.length} ours accepts, ${corpus.excluded.length} left out`,
    );
    const keys = Object.keys(WORKERS) as WorkerKey[];
    const workers = new Map<WorkerKey, CommandChild>();
    const measured: Measured = { rates: Object.fromEntries(keys.map((k) => [k, []])) as unknown as Record<WorkerKey, number[]>, byDef: {} };
    try {
      for (const k of keys) {
        const [subject, file] = WORKERS[k];
        workers.set(k, worker(subject, files[file]));
      }
      for (const w of workers.values()) await w.ready;
      for (const [k, w] of workers) options.log(`validation: ${k} warmed up: ${(await warmUp(w)).map((r) => `${(r / 1000).toFixed(0)}k`).join(' ')}`);
      const slicesPerRound = Math.round((Math.max(1, options.duration / 5) * 1000) / SLICE_MS);
      for (let r = 0; r < options.rounds; r++) {
        const slices = new Map<WorkerKey, { validated: number; ms: number }[]>(keys.map((k) => [k, []]));
        // Round-robin, reversed every other time, so load that drifts lands on every subject alike.
        for (let i = 0; i < slicesPerRound; i++)
          for (const k of i % 2 ? [...keys].reverse() : keys)
            slices.get(k)!.push((await workers.get(k)!.command(`run ${SLICE_MS}`)) as { validated: number; ms: number });
        for (const k of keys) measured.rates[k].push(rateOf(slices.get(k)!));
        // Per definition, ours and the SDK's back to back (the first of the pair alternating), so each
        // definition's ratio is paired within milliseconds rather than across the seconds a whole pass takes.
        for (const mode of ['accept', 'reject'] as const) {
          const pair = [`ours-${mode}`, `sdk-${mode}`] as const;
          const got: Record<string, Record<string, number>> = { [pair[0]]: {}, [pair[1]]: {} };
          for (const [i, def] of defKeys(corpus[mode]).entries())
            for (const k of (i + r) % 2 ? [...pair].reverse() : pair) {
              const rates = (await workers.get(k)!.command(`bydef ${BYDEF_MS} ${JSON.stringify([def])}`))['byDef'] as Record<string, number>;
              got[k]![def] = rates[def]!;
            }
          for (const k of pair) (measured.byDef[k] ??= []).push(got[k]!);
        }
        options.log(`validation: round ${r + 1}: ${keys.map((k) => `${k} ${(measured.rates[k].at(-1)! / 1000).toFixed(0)}k/s`).join(', ')}`);
      }
    } finally {
      for (const w of workers.values()) await w.stop();
    }
    lastMeasured = measured;

    const cold = new Map<string, number[]>(['ours', 'sdk', 'ajv', 'ajv-all'].map((s) => [s, []]));
    for (let i = 0; i < COLD_RUNS; i++)
      for (const s of cold.keys()) {
        const { stdout } = await runNode([join(BENCH, 'validation/cold-start.mjs'), s, messageFile]);
        cold.get(s)!.push((JSON.parse(stdout) as { totalMs: number }).totalMs);
      }
    options.log(`validation: cold start medians ${[...cold].map(([k, v]) => `${k} ${median(v).toFixed(1)} ms`).join(', ')}`);
    return rows(corpus, measured, cold);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per round, the ratio of each definition; the definitions' geomean per round; each definition's median ratio. */
function perDefinition(ours: Record<string, number>[], sdk: Record<string, number>[]) {
  const defs = Object.keys(ours[0]!).sort();
  const perRound = ours.map((o, i) => defs.map((d) => o[d]! / sdk[i]![d]!));
  const geo = spread(perRound.map(geomean));
  const byDef = defs.map((def, j) => ({
    def,
    ratio: median(perRound.map((r) => r[j]!)),
    ours: median(ours.map((o) => o[def]!)),
    sdk: median(sdk.map((s) => s[def]!)),
  }));
  byDef.sort((a, b) => a.ratio - b.ratio);
  return { defs, geo, byDef };
}

function rows(corpus: Corpus, m: Measured, cold: Map<string, number[]>): Row[] {
  const part = 'validation';
  const ours = 'ours (generated validators, built packages)';
  const sdk = 'SDK v2 2.4.0 Zod (specTypeSchemas)';
  const out: Row[] = [];
  const slowest: { mode: string; def: string; ratio: number }[] = [];
  for (const [mode, target] of [
    ['accept', ACCEPT_TARGET],
    ['reject', REJECT_TARGET],
  ] as const) {
    const d = perDefinition(m.byDef[`ours-${mode}`]!, m.byDef[`sdk-${mode}`]!);
    const below = d.byDef.filter((x) => x.ratio < EVERY_DEF_TARGET);
    slowest.push({ mode, def: d.byDef[0]!.def, ratio: d.byDef[0]!.ratio });
    const n = mode === 'accept' ? corpus.accept.length : corpus.reject.length;
    out.push({
      part,
      subject: ours,
      metric: `${mode}s: per-$def ratio, geomean (${d.defs.length} defs)`,
      value: d.geo.median,
      ratio: d.geo.median,
      ratioLabel: 'SDK v2 Zod',
      spread: d.geo,
      target: `≥ ${target}× SDK v2 Zod`,
      targetId: `validation-${mode}`,
      met: d.geo.median >= target,
      note: `${n} messages; ${below.length} defs below ${EVERY_DEF_TARGET}× Zod; min ${d.byDef[0]!.ratio.toFixed(2)}× (${d.byDef[0]!.def}), max ${d.byDef.at(-1)!.ratio.toFixed(0)}× (${d.byDef.at(-1)!.def})`,
      detail: { perDef: d.byDef, rounds: d.geo.rounds },
    });
  }
  const worst = slowest.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  out.push({
    part,
    subject: ours,
    metric: 'slowest $def ratio (accepts and rejects)',
    value: worst.ratio,
    ratio: worst.ratio,
    ratioLabel: 'SDK v2 Zod',
    target: `≥ ${EVERY_DEF_TARGET}× SDK v2 Zod (every def)`,
    targetId: 'validation-no-slower',
    met: slowest.every((s) => s.ratio >= EVERY_DEF_TARGET),
    note: slowest.map((s) => `${s.mode}s: ${s.def} ${s.ratio.toFixed(2)}×`).join('; '),
  });
  for (const mode of ['accept', 'reject'] as const) {
    const n = mode === 'accept' ? corpus.accept.length : corpus.reject.length;
    out.push(
      ratioRow(
        part,
        ours,
        `${mode}s: msgs/s over the mix (${n})`,
        m.rates[`ours-${mode}`],
        m.rates[`sdk-${mode}`],
        'SDK v2 Zod',
        undefined,
        'aggregate, weighted by the corpus',
      ),
      valueRow(part, sdk, `${mode}s: msgs/s over the mix (${n})`, m.rates[`sdk-${mode}`]),
    );
  }
  const accepts = `accepts: msgs/s over the mix (${corpus.accept.length})`;
  const ajvNote = (k: 'ajv' | 'ajv-defaults') => `ours is ${median(paired(m.rates['ours-accept'], m.rates[k]).rounds).toFixed(2)}× this`;
  out.push(
    valueRow(part, 'ajv, compiled at run time (generator options)', accepts, m.rates.ajv, { note: ajvNote('ajv') }),
    valueRow(part, 'ajv, compiled at run time (ajv defaults)', accepts, m.rates['ajv-defaults'], {
      note: `allErrors off, inlineRefs on; ${ajvNote('ajv-defaults')}`,
    }),
    valueRow(part, ours, `accepts: msgs/s, all ours accepts (${corpus.ours.length})`, m.rates['ours-all'], {
      note: 'incl. kinds the SDK v2 has no spec type for',
      detail: { excluded: corpus.excluded, mutationsDropped: corpus.mutationsDropped },
    }),
  );
  const c = (s: string) => cold.get(s)!;
  out.push(
    {
      ...ratioRow(part, ours, 'cold start ms', c('ours'), c('sdk'), 'SDK v2 Zod'),
      note: 'import @wiregen/mcp-2026-07-28/validators + first CallToolRequest; runs paired in order',
    },
    valueRow(part, sdk, 'cold start ms', c('sdk'), { note: 'import @modelcontextprotocol/server + first specTypeSchemas.CallToolRequest' }),
    valueRow(part, 'ajv, compiled at run time', 'cold start ms', c('ajv'), {
      note: 'import ajv + compile CallToolRequest (2026-07-28) + first validation',
    }),
    valueRow(part, 'ajv, compiled at run time (all $defs)', 'cold start ms', c('ajv-all'), { note: 'the same, compiling every $def of the pin' }),
  );
  return out;
}

/** The definitions that missed (below the target ratio, or slower than Zod), worst first, at most 8. */
function missedDefs(mode: 'accept' | 'reject', threshold: number): string[] {
  const d = perDefinition(lastMeasured!.byDef[`ours-${mode}`]!, lastMeasured!.byDef[`sdk-${mode}`]!);
  return d.byDef
    .filter((x) => x.ratio < threshold)
    .slice(0, 8)
    .map((x) => x.def);
}

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  if (!lastCorpus || !lastMeasured) return [];
  const reports: ProfileReport[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'wiregen-bench-'));
  try {
    const files = corpusFiles(lastCorpus, tmp);
    for (const mode of ['accept', 'reject'] as const) {
      const mine = ids.filter((id) => id === `validation-${mode}` || id === 'validation-no-slower');
      const threshold = ids.includes(`validation-${mode}`) ? (mode === 'accept' ? ACCEPT_TARGET : REJECT_TARGET) : EVERY_DEF_TARGET;
      const defs = mine.length ? missedDefs(mode, threshold) : [];
      if (!defs.length) continue;
      const dir = join(options.missProfDir, `validation-${mode}`);
      const w = worker('ours', files[mode], cpuProfArgs(dir));
      try {
        await w.ready;
        await w.command(`only ${JSON.stringify(defs)}`);
        await warmUp(w);
        await w.command('run 3000');
      } finally {
        await w.stop();
      }
      const subject = `ours validating the ${mode}s of the ${defs.length} definitions furthest below ${threshold}× (${defs.join(', ')}) for 3 s, under --cpu-prof`;
      reports.push({ targets: mine, subject, summary: summarizeDir(dir) });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return reports;
}
