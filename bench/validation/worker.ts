/**
 * @module bench/validation/worker — one validation subject in a fresh process (its own JIT and heap):
 *   node --import tsx bench/validation/worker.ts <subject> <corpus.json> <warmup s> <measure s> [--by-def <s>] [--serve]
 * Subjects: `ours` (generated standalone validators), `sdk` (the SDK's Zod schemas, `.parse`), `ajv`
 * (ajv compiling the same schema at run time, with the generator's options), `ajv-defaults` (the same with
 * ajv's default options: allErrors off, inlineRefs on), `ajv:<json>` (the generator's options with <json> over
 * them, for options-experiment.ts). Prints one JSON line: messages validated per second;
 * with --by-def, also the rate of each definition's messages on their own (<s> seconds each). With --serve it
 * warms up, prints `{"ready": true}` and then validates in time slices on command (see the end of this file).
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT } from '../lib/proc.ts';
import { schemaDocument, type CorpusItem } from './corpus.ts';

type Check = (data: unknown) => unknown;

const [subject, corpusFile, warmupS, measureS] = process.argv.slice(2) as [string, string, string, string];
const byDef = process.argv.includes('--by-def') ? Number(process.argv[process.argv.indexOf('--by-def') + 1]) : 0;
const items = JSON.parse(readFileSync(corpusFile, 'utf8')) as CorpusItem[];

async function checks(): Promise<Check[]> {
  if (subject === 'ours') {
    const mods: Record<string, Record<string, Check & { errors?: unknown }>> = {};
    for (const r of new Set(items.map((i) => i.revision))) mods[r] = (await import(join(ROOT, `generated/mcp-${r}/validators.js`))) as Record<string, Check>;
    return items.map((i) => {
      const v = mods[i.revision]![i.def]!;
      return (d: unknown) => {
        if (!v(d)) throw new Error(`${i.source}: rejected`);
      };
    });
  }
  if (subject === 'sdk') {
    const sdk = (await import('@modelcontextprotocol/sdk/types.js')) as unknown as Record<string, { parse: Check }>;
    return items.map((i) => {
      const schema = sdk[i.sdk!]!;
      return (d: unknown) => schema.parse(d);
    });
  }
  if (subject === 'ajv' || subject === 'ajv-defaults' || subject.startsWith('ajv:')) {
    const { default: Ajv } = await import('ajv');
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: addFormats } = await import('ajv-formats');
    // The generator's options (generator/emit/validators.ts), or ajv's defaults with only what these schemas need.
    // `ajv:<json>`: the generator's options with <json> over them (options-experiment.ts); `formatsMode` picks ajv-formats' mode.
    const generator = { allErrors: true, strict: true, strictTypes: false, strictTuples: false, allowUnionTypes: true, inlineRefs: false };
    const { formatsMode, ...options } = (
      subject === 'ajv' ? generator : subject === 'ajv-defaults' ? { strictTypes: false, strictTuples: false, allowUnionTypes: true } : { ...generator, ...JSON.parse(subject.slice(4)) }
    ) as Record<string, unknown> & { formatsMode?: 'fast' | 'full' };
    const compiled: Record<string, (ref: string) => Check> = {};
    for (const r of new Set(items.map((i) => i.revision))) {
      const { doc, id, defsKey, draft } = schemaDocument(r);
      const ajv = draft === '2020-12' ? new Ajv2020.default(options) : new Ajv.default(options);
      addFormats.default(ajv, formatsMode ? { mode: formatsMode } : undefined);
      ajv.addSchema(doc);
      compiled[r] = (def) => ajv.getSchema(`${id}#/${defsKey}/${def}`) as Check;
    }
    return items.map((i) => {
      const v = compiled[i.revision]!(i.def);
      return (d: unknown) => {
        if (!v(d)) throw new Error(`${i.source}: rejected`);
      };
    });
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
  for (const [k, idx] of groups) per[k] = loop(idx.map((i) => fns[i]!), idx.map((i) => data[i]), seconds).perSec;
  return per;
}

if (process.argv.includes('--serve')) {
  // Time slices on command, so the parent can interleave every subject finely on a machine whose load drifts:
  // `run <ms>` → {validated, ms}; `bydef <s>` → {byDef}; stdin closing ends the worker.
  process.stdout.write(JSON.stringify({ ready: true, subject, messages: items.length, setupMs }) + '\n');
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const [cmd, arg] = buf.slice(0, nl).split(' ');
      buf = buf.slice(nl + 1);
      if (cmd === 'run') {
        const r = loop(fns, data, Number(arg) / 1000);
        process.stdout.write(JSON.stringify({ validated: r.validated, ms: r.ms }) + '\n');
      } else if (cmd === 'bydef') process.stdout.write(JSON.stringify({ byDef: byDefRates(Number(arg)) }) + '\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  const result = loop(fns, data, Number(measureS));
  const out: Record<string, unknown> = { subject, messages: items.length, setupMs, ...result };
  if (byDef) out['byDef'] = byDefRates(byDef);
  process.stdout.write(JSON.stringify(out) + '\n');
}
