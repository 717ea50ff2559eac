/**
 * @module bench/worker-validation — `npx tsx bench/worker-validation.ts [--duration <s>] [--rounds <n>]`: what
 * validation costs a Worker, whose bundle carries a pin's all-errors validators alone (the pin's `#accept-path`
 * import resolves to validators.accept-none.js under the `workerd` and `worker` conditions:
 * generator/emit/validators/index.ts ACCEPT_PATH), against Node, Bun and Deno, which ask the accept-path set
 * (validators.fast.js) first. The 2026-07-28 messages of the validation corpus (bench/validation/corpus.ts:
 * the recordings and the schema's examples our validators accept; the rejects, those mutated into messages
 * both sides reject) are validated by generated/mcp-2026-07-28/validators.js in two processes: plain Node,
 * and Node with `--conditions=workerd`, the set a Worker's bundler picks (the same V8 as workerd's). Each
 * round runs both, in alternating order; the table gives medians over rounds of the time per message and the
 * geometric mean over definitions of the per-definition ratio. Prints a Markdown table (BENCHMARKS.md
 * "Worker bundle").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { geomean } from './lib/pair.ts';
import { CHILD_ENV, NODE, ROOT, TSX } from './lib/proc.ts';
import { median } from './lib/table.ts';
import type { CorpusItem } from './validation/corpus.ts';

type Validate = (data: unknown) => boolean;

/** What one process measured: the accept-path file it loaded, ns per message of each corpus, and per definition. */
interface Measured {
  readonly acceptPath: string;
  readonly ns: Record<'accept' | 'reject', number>;
  readonly byDef: Record<'accept' | 'reject', Record<string, number>>;
}

const PIN = join(ROOT, 'generated', 'mcp-2026-07-28');
const WARMUP_MS = 1000;
const BYDEF_MS = 40;

/** ns per message over `ms` of passes over `items` (each answer checked against the item's). */
function nsPerMessage(items: readonly CorpusItem[], validators: Record<string, Validate>, ms: number): number {
  const checks = items.map((i) => ({ v: validators[i.def]!, data: i.data, want: i.expect === 'accept', source: i.source }));
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (const c of checks) if (c.v(c.data) !== c.want) throw new Error(`${c.source}: expected to ${c.want ? 'accept' : 'reject'}`);
    n += checks.length;
    t = performance.now();
  }
  return ((t - t0) * 1e6) / n;
}

/** The child: `--child <corpus.json> <ms>`, run under the conditions of its process. */
async function child(corpusFile: string, ms: number): Promise<void> {
  const url = pathToFileURL(join(PIN, 'validators.js')).href;
  const validators = (await import(url)) as Record<string, Validate>;
  const corpus = JSON.parse(readFileSync(corpusFile, 'utf8')) as Record<'accept' | 'reject', CorpusItem[]>;
  const out: Measured = {
    acceptPath: fileURLToPath(import.meta.resolve('#accept-path', url)).slice(PIN.length + 1),
    ns: { accept: 0, reject: 0 },
    byDef: { accept: {}, reject: {} },
  };
  for (const kind of ['accept', 'reject'] as const) {
    const items = corpus[kind];
    nsPerMessage(items, validators, WARMUP_MS);
    out.ns[kind] = nsPerMessage(items, validators, ms);
    for (const def of new Set(items.map((i) => i.def)))
      out.byDef[kind][def] = nsPerMessage(
        items.filter((i) => i.def === def),
        validators,
        BYDEF_MS,
      );
  }
  process.stdout.write(JSON.stringify(out));
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

async function main(): Promise<void> {
  const duration = option('--duration', 2);
  const rounds = option('--rounds', 3);
  const { buildCorpus } = await import('./validation/corpus.ts');
  const corpus = await buildCorpus();
  const pick = (items: readonly CorpusItem[]) => items.filter((i) => i.revision === '2026-07-28');
  const chosen = { accept: pick(corpus.ours), reject: pick(corpus.reject) };
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-worker-validation-'));
  const file = join(dir, 'corpus.json');
  writeFileSync(file, JSON.stringify(chosen));
  const run = (conditions: readonly string[]): Measured =>
    JSON.parse(
      execFileSync(
        NODE,
        [
          ...conditions.map((c) => `--conditions=${c}`),
          '--experimental-import-meta-resolve',
          ...TSX,
          fileURLToPath(import.meta.url),
          '--child',
          file,
          String(duration * 1000),
        ],
        { cwd: ROOT, env: CHILD_ENV, encoding: 'utf8', maxBuffer: 1 << 24 },
      ),
    ) as Measured;
  const node: Measured[] = [];
  const worker: Measured[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) (node.push(run([])), worker.push(run(['workerd'])));
      else (worker.push(run(['workerd'])), node.push(run([])));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const loaded = `Node: ${node[0]!.acceptPath}; \`--conditions=workerd\`: ${worker[0]!.acceptPath}`;
  if (node[0]!.acceptPath !== 'validators.fast.js' || worker[0]!.acceptPath !== 'validators.accept-none.js')
    throw new Error(`unexpected accept-path sets loaded (${loaded})`);
  const rows = (['accept', 'reject'] as const).map((kind) => {
    const a = median(node.map((m) => m.ns[kind]));
    const b = median(worker.map((m) => m.ns[kind]));
    const defs = Object.keys(node[0]!.byDef[kind]);
    const ratios = defs.map((d) => median(worker.map((m) => m.byDef[kind][d]!)) / median(node.map((m) => m.byDef[kind][d]!)));
    const worst = defs.map((d, i) => [d, ratios[i]!] as const).sort((x, y) => y[1] - x[1])[0]!;
    return [
      `${kind === 'accept' ? 'valid' : 'invalid'} messages (${chosen[kind].length}, ${defs.length} definitions)`,
      `${(a / 1000).toFixed(2)} µs`,
      `${(b / 1000).toFixed(2)} µs`,
      `${(b / a).toFixed(2)}×`,
      `${geomean(ratios).toFixed(2)}× (slowest: ${worst[0]} ${worst[1].toFixed(2)}×)`,
    ];
  });
  process.stdout.write(
    `${loaded}; ${rounds} rounds of ${duration} s, medians\n\n| 2026-07-28 corpus | accept path first (Node) | all-errors only (Worker) | ratio | per definition, geometric mean |\n|---|---:|---:|---:|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`,
  );
}

if (process.argv[2] === '--child') await child(process.argv[3]!, Number(process.argv[4]));
else await main();
