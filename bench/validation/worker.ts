/**
 * @module bench/validation/worker — one validation subject in a fresh process (its own JIT and heap), serving
 * time slices on command so the parent can interleave every subject finely on a machine whose load drifts:
 *   node --import tsx bench/validation/worker.ts <subject> <corpus.json> <warm-up s>
 * It loads the subject, validates the corpus for <warm-up s>, prints `{"ready": true, …}`, then answers each
 * line on stdin with one JSON line: `run <ms>` → {validated, ms}; `bydef <ms> [<json list>]` → {byDef},
 * the rate of each definition's messages on their own (<ms> each; with the list, of those definitions only);
 * `only <json list>` → keeps only those definitions (keys as in byDef), for a profile of them. stdin closing ends it.
 *
 * Every check asserts the item's expected answer (an accept accepted, a reject rejected) and throws otherwise.
 * Subjects: `ours` (the generated standalone validators from the built packages: generated/mcp-<revision>/dist/
 * validators.js, the `@wiregen/mcp-<revision>/validators` export), `sdk` (the SDK v2's spec type schemas,
 * `specTypeSchemas.<Def>['~standard'].validate` as its documentation calls them), `ajv` (ajv compiling the
 * same schema at run time exactly as the generator compiles it: compiledDocument of
 * generator/emit/validators/index.ts, the all-errors options and class), `ajv-defaults` (the same document with ajv's default
 * options: allErrors off, inlineRefs on), `ajv:<json>` (the generator's options with <json> over them, for
 * options-experiment.ts; `formatsMode` picks ajv-formats' mode).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/proc.ts';
import type { CorpusItem } from './corpus.ts';

type Check = (data: unknown) => unknown;
type Validate = (data: unknown) => boolean;

const [subject, corpusFile, warmupS] = process.argv.slice(2) as [string, string, string];
let items = JSON.parse(readFileSync(corpusFile, 'utf8')) as CorpusItem[];

/** A check per item that throws when `validate` answers otherwise than the item expects. */
function asserting(validate: (item: CorpusItem) => Validate): Check[] {
  return items.map((i) => {
    const v = validate(i);
    const want = i.expect === 'accept';
    return (d: unknown) => {
      if (v(d) !== want) throw new Error(`${subject}: ${i.source}: expected to ${i.expect}`);
    };
  });
}

async function checks(): Promise<Check[]> {
  if (subject === 'ours') {
    const mods: Record<string, Record<string, Validate>> = {};
    for (const r of new Set(items.map((i) => i.revision)))
      mods[r] = (await import(join(ROOT, `generated/mcp-${r}/dist/validators.js`))) as Record<string, Validate>;
    return asserting((i) => mods[i.revision]![i.def]!);
  }
  if (subject === 'sdk') {
    const { specTypeSchemas } = await import('@modelcontextprotocol/server');
    const schemas = specTypeSchemas as unknown as Record<string, { '~standard': { validate(d: unknown): { issues?: unknown } } }>;
    return asserting((i) => {
      const s = schemas[i.sdk!]!['~standard'];
      return (d) => s.validate(d).issues === undefined;
    });
  }
  if (subject === 'ajv' || subject === 'ajv-defaults' || subject.startsWith('ajv:')) {
    const { createContext } = await import('../../generator/context.ts');
    const { loadAndCheck } = await import('../../generator/generate.ts');
    const { compiledDocument, createAjv, validationDocument, validatorRefs } = await import('../../generator/emit/validators/ajv.ts');
    const { default: Ajv } = await import('ajv');
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: addFormats } = await import('ajv-formats');
    const revisions = [...new Set(items.map((i) => i.revision))];
    const { plans } = loadAndCheck(createContext({ log: () => {}, only: revisions.map((r) => `mcp-${r}`) }));
    const compiled: Record<string, (def: string) => Validate> = {};
    for (const plan of plans) {
      if (subject === 'ajv') {
        // The generator's own compilation, the one it writes validators.js from.
        const document = compiledDocument(plan);
        compiled[plan.revision] = (def) => document.validator(def) as unknown as Validate;
        continue;
      }
      // The generator's options as its ajv instance holds them (generator/emit/validators/index.ts exports
      // createAjv, not the options), or ajv's defaults with only what these schemas need.
      const { formatsMode, ...options } = (
        subject === 'ajv-defaults'
          ? { strictTypes: false, strictTuples: false, allowUnionTypes: true }
          : { ...createAjv(plan, false).opts, ...JSON.parse(subject.slice(4)) }
      ) as Record<string, unknown> & { formatsMode?: 'fast' | 'full' };
      const ajv = plan.draft === '2020-12' ? new Ajv2020.default(options) : new Ajv.default(options);
      addFormats.default(ajv, formatsMode ? { mode: formatsMode } : undefined);
      ajv.addSchema(validationDocument(plan));
      const refs = validatorRefs(plan);
      compiled[plan.revision] = (def) => ajv.getSchema(refs[def]!) as Validate;
    }
    return asserting((i) => compiled[i.revision]!(i.def));
  }
  throw new Error(`unknown subject ${subject}`);
}

/**
 * Validates every item in turn for `seconds`. The clock is read between batches of passes, the batch doubled
 * until one takes 0.2 ms: a definition with one small message validates in tens of nanoseconds, about what a
 * clock read costs, and reading it after every pass would measure the clock rather than the validator.
 */
function loop(fns: Check[], data: unknown[], seconds: number): { perSec: number; validated: number; ms: number } {
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let passes = 0;
  let batch = 1;
  let now = t0;
  do {
    for (let b = 0; b < batch; b++) for (let i = 0; i < fns.length; i++) fns[i]!(data[i]);
    passes += batch;
    const before = now;
    now = performance.now();
    if (now - before < 0.2 && batch < 1 << 20) batch *= 2;
  } while (now < end);
  return { perSec: (passes * fns.length) / ((now - t0) / 1000), validated: passes * fns.length, ms: now - t0 };
}

const keyOf = (it: CorpusItem) => `${it.revision} ${it.def}`;
const tSetup = performance.now();
let fns = await checks();
const setupMs = performance.now() - tSetup;
let data = items.map((i) => i.data);
loop(fns, data, Number(warmupS));

/** The rate of each definition's messages on their own; with `only`, of those definitions alone (in that order). */
function byDefRates(seconds: number, only?: readonly string[]): Record<string, number> {
  const groups = new Map<string, number[]>((only ?? []).map((k) => [k, []]));
  items.forEach((it, i) => {
    if (!only || groups.has(keyOf(it))) groups.set(keyOf(it), [...(groups.get(keyOf(it)) ?? []), i]);
  });
  const per: Record<string, number> = {};
  for (const [k, idx] of groups) if (!idx.length) throw new Error(`${subject}: no messages of ${k}`);
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
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    const sp = line.indexOf(' ');
    const [cmd, arg] = sp < 0 ? [line, ''] : [line.slice(0, sp), line.slice(sp + 1)];
    if (cmd === 'run') {
      const r = loop(fns, data, Number(arg) / 1000);
      process.stdout.write(`${JSON.stringify({ validated: r.validated, ms: r.ms })}\n`);
    } else if (cmd === 'bydef') {
      const sp2 = arg.indexOf(' ');
      const [ms, only] = sp2 < 0 ? [arg, undefined] : [arg.slice(0, sp2), JSON.parse(arg.slice(sp2 + 1)) as string[]];
      process.stdout.write(`${JSON.stringify({ byDef: byDefRates(Number(ms) / 1000, only) })}\n`);
    } else if (cmd === 'only') {
      const keep = new Set(JSON.parse(arg) as string[]);
      const idx = items.map((it, i) => (keep.has(keyOf(it)) ? i : -1)).filter((i) => i >= 0);
      [items, fns, data] = [idx.map((i) => items[i]!), idx.map((i) => fns[i]!), idx.map((i) => data[i])];
      process.stdout.write(`${JSON.stringify({ kept: items.length })}\n`);
    } else process.stdout.write(`${JSON.stringify({ error: `unknown command ${cmd}` })}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
