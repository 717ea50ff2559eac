/**
 * @module bench/validation/worker — one validation subject in a fresh process (its own JIT and heap), serving
 * time slices on command so the parent can interleave every subject finely on a machine whose load drifts:
 *   node --import tsx bench/validation/worker.ts <subject> <corpus.json> <warm-up s>
 * It loads the subject, validates the corpus for <warm-up s>, prints `{"ready": true, …}`, then answers each
 * line on stdin with one JSON line: `run <ms>` → {validated, ms}; `bydef <s>` → {byDef}, the rate of each
 * definition's messages on their own (<s> seconds each). stdin closing ends it.
 *
 * Subjects: `ours` (generated standalone validators), `sdk` (the SDK's Zod schemas, `.parse`), `ajv` (ajv
 * compiling the same schema at run time exactly as the generator compiles it: createAjv and
 * validationDocument of generator/emit/validators.ts, the all-errors options), `ajv-defaults` (the same
 * document with ajv's default options: allErrors off, inlineRefs on), `ajv:<json>` (the generator's options
 * with <json> over them, for options-experiment.ts; `formatsMode` picks ajv-formats' mode).
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT } from '../lib/proc.ts';
import type { CorpusItem } from './corpus.ts';

type Check = (data: unknown) => unknown;

const [subject, corpusFile, warmupS] = process.argv.slice(2) as [string, string, string];
const items = JSON.parse(readFileSync(corpusFile, 'utf8')) as CorpusItem[];

/** A check per item that throws when `validate` rejects it (every item is one both sides accept). */
function rejecting(validate: (item: CorpusItem) => (data: unknown) => unknown): Check[] {
  return items.map((i) => {
    const v = validate(i);
    return (d: unknown) => {
      if (!v(d)) throw new Error(`${i.source}: rejected`);
    };
  });
}

async function checks(): Promise<Check[]> {
  if (subject === 'ours') {
    const mods: Record<string, Record<string, Check>> = {};
    for (const r of new Set(items.map((i) => i.revision)))
      mods[r] = (await import(join(ROOT, `generated/mcp-${r}/validators.js`))) as Record<string, Check>;
    return rejecting((i) => mods[i.revision]![i.def]!);
  }
  if (subject === 'sdk') {
    const sdk = (await import('@modelcontextprotocol/sdk/types.js')) as unknown as Record<string, { parse: Check }>;
    return items.map((i) => {
      const schema = sdk[i.sdk!]!;
      return (d: unknown) => schema.parse(d);
    });
  }
  if (subject === 'ajv' || subject === 'ajv-defaults' || subject.startsWith('ajv:')) {
    const { createContext } = await import('../../generator/context.ts');
    const { loadAndCheck } = await import('../../generator/generate.ts');
    const { createAjv, validationDocument, validatorRefs } = await import('../../generator/emit/validators.ts');
    const { default: Ajv } = await import('ajv');
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: addFormats } = await import('ajv-formats');
    const revisions = [...new Set(items.map((i) => i.revision))];
    const { plans } = loadAndCheck(createContext({ log: () => {}, only: revisions.map((r) => `mcp-${r}`) }));
    const compiled: Record<string, (def: string) => Check> = {};
    for (const plan of plans) {
      let ajv = createAjv(plan, false);
      if (subject !== 'ajv') {
        // The generator's options as its ajv instance holds them (generator/emit/validators.ts exports
        // createAjv, not the options), or ajv's defaults with only what these schemas need.
        const { formatsMode, ...options } = (
          subject === 'ajv-defaults'
            ? { strictTypes: false, strictTuples: false, allowUnionTypes: true }
            : { ...ajv.opts, ...JSON.parse(subject.slice(4)) }
        ) as Record<string, unknown> & { formatsMode?: 'fast' | 'full' };
        ajv = plan.draft === '2020-12' ? new Ajv2020.default(options) : new Ajv.default(options);
        addFormats.default(ajv, formatsMode ? { mode: formatsMode } : undefined);
      }
      ajv.addSchema(validationDocument(plan));
      const refs = validatorRefs(plan);
      compiled[plan.revision] = (def) => ajv.getSchema(refs[def]!) as Check;
    }
    return rejecting((i) => compiled[i.revision]!(i.def));
  }
  throw new Error(`unknown subject ${subject}`);
}

function loop(fns: Check[], data: unknown[], seconds: number): { perSec: number; validated: number; ms: number } {
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let passes = 0;
  let now = t0;
  do {
    for (let i = 0; i < fns.length; i++) fns[i]!(data[i]);
    passes++;
    now = performance.now();
  } while (now < end);
  return { perSec: (passes * fns.length) / ((now - t0) / 1000), validated: passes * fns.length, ms: now - t0 };
}

const tSetup = performance.now();
const fns = await checks();
const setupMs = performance.now() - tSetup;
const data = items.map((i) => i.data);
loop(fns, data, Number(warmupS));

function byDefRates(seconds: number): Record<string, number> {
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => groups.set(`${it.revision} ${it.def}`, [...(groups.get(`${it.revision} ${it.def}`) ?? []), i]));
  const per: Record<string, number> = {};
  for (const [k, idx] of groups)
    per[k] = loop(
      idx.map((i) => fns[i]!),
      idx.map((i) => data[i]),
      seconds,
    ).perSec;
  return per;
}

process.stdout.write(`${JSON.stringify({ ready: true, subject, messages: items.length, setupMs })}\n`);
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buf += chunk;
  let nl: number;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const [cmd, arg] = buf.slice(0, nl).split(' ');
    buf = buf.slice(nl + 1);
    if (cmd === 'run') {
      const r = loop(fns, data, Number(arg) / 1000);
      process.stdout.write(`${JSON.stringify({ validated: r.validated, ms: r.ms })}\n`);
    } else if (cmd === 'bydef') process.stdout.write(`${JSON.stringify({ byDef: byDefRates(Number(arg)) })}\n`);
    else process.stdout.write(`${JSON.stringify({ error: `unknown command ${cmd}` })}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
