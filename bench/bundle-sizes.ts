/**
 * @module bench/bundle-sizes — `npx tsx bench/bundle-sizes.ts`: the size of a server bundled as a Cloudflare
 * Worker (bench/lib/worker-bundle.ts: esbuild, conditions workerd/worker/browser, minified), by the MCP
 * revisions it carries. Prints the Markdown table of BENCHMARKS.md "Worker bundle": bytes as bundled and
 * gzipped (Workers' size limits are on the compressed upload). Sizes, not speed: no rounds needed.
 */
import { gzipSync } from 'node:zlib';
import { bundleWorker, MCP_REVISIONS, type WorkerBundle } from './lib/worker-bundle.ts';

const MCP = 'test/bundle/fixtures/mcp-worker.ts';
const A2A = 'test/bundle/fixtures/a2a-worker.ts';

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
const gz = (files: Iterable<string>) => [...files].reduce((n, text) => n + gzipSync(text).length, 0);

const rows: string[][] = [];
const row = (what: string, bundle: WorkerBundle, note: string) => rows.push([what, kb(bundle.bytes), kb(gz(bundle.files.values())), note]);

// One bundle per revision served alone, then every revision, then the same split into chunks.
for (const revision of [...MCP_REVISIONS].reverse()) {
  const bundle = await bundleWorker(MCP, { served: [revision] });
  row(`MCP, ${revision} only`, bundle, `its package ${kb(bundle.bySource.get(`generated/mcp-${revision}`) ?? 0)}; the other revisions aliased away`);
}
row('MCP, every revision', await bundleWorker(MCP), 'nothing aliased: what a bundle holds by default');
const split = await bundleWorker(MCP, { splitting: true });
const entry = Object.entries(split.metafile.outputs).find(([, o]) => o.entryPoint === MCP)!;
const entryText = [...split.files].find(([path]) => path.endsWith(entry[0]))?.[1] ?? '';
rows.push([
  'MCP, every revision, split: the entry',
  kb(entry[1].bytes),
  kb(gzipSync(entryText).length),
  'the runtime and the server; each revision a chunk loaded when asked for',
]);
const a2a = await bundleWorker(A2A);
row('A2A agent', a2a, `@wiregen/a2a-1.0 ${kb(a2a.bySource.get('generated/a2a-1.0') ?? 0)}`);

process.stdout.write(`| bundle | minified | gzipped | note |\n|---|---:|---:|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
