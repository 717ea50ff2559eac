/**
 * @module bench/lib/worker-bundle — a server bundled as a Cloudflare Worker bundles it (wrangler runs esbuild
 * with the conditions `workerd`, `worker`, `browser`, an ES module out), from the repository's sources
 * (tsconfig.json's `paths`), minified. The MCP revisions the server does not serve are aliased to an empty
 * module, as docs/deployment.md tells a Worker to do; Node's modules are left imports, so that a test can
 * list the ones the bundle still asks for. Used by test/bundle/ (the budget and the Web-only run) and
 * bench/bundle-sizes.ts (the table of BENCHMARKS.md).
 */
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { handshakeRevisions, statelessRevisions } from '@wiregen/revisions';
import { ROOT } from './proc.ts';

/**
 * What wrangler gives esbuild for a Worker without `nodejs_compat`: one ES module, the `workerd`, `worker` and
 * `browser` conditions, Node's modules left imports (workerd then refuses to start a bundle that asks for one).
 * Every Worker the tests and benches bundle starts from these.
 */
export const WRANGLER_BUILD = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  target: 'es2022',
  external: ['node:*'],
} as const satisfies BuildOptions;

/** Every MCP revision the registry has, oldest first per era. */
export const MCP_REVISIONS: readonly string[] = [...handshakeRevisions, ...statelessRevisions];

/** The empty module a revision not served is aliased to. */
export const UNBUNDLED = join(ROOT, 'test', 'bundle', 'fixtures', 'unbundled.ts');

export interface WorkerBundleOptions {
  /** The MCP revisions served (their packages bundled); the others are aliased to {@link UNBUNDLED}. Default: all. */
  readonly served?: readonly string[];
  /** `esm` as a Worker takes it (default); `iife` to run in a `node:vm` context (test/bundle/web-only.test.ts). */
  readonly format?: 'esm' | 'iife';
  /** Code splitting (ES modules only): each revision's package a chunk of its own. Default false. */
  readonly splitting?: boolean;
  /** Where the output goes (default: kept in memory). */
  readonly outdir?: string;
}

export interface WorkerBundle {
  /** Bytes of every output file (with splitting, the entry and its chunks). */
  readonly bytes: number;
  /** The output files' text, by path (in memory builds). */
  readonly files: ReadonlyMap<string, string>;
  /** Modules the output still imports (Node built-ins: `node:*`), sorted. */
  readonly imports: readonly string[];
  /** Bytes of the output by where they come from: `generated/mcp-2026-07-28`, `runtime/mcp`, `core`, `node_modules/ajv`… */
  readonly bySource: ReadonlyMap<string, number>;
  readonly metafile: Metafile;
}

/** Where an input of the bundle comes from, one level deep (a package, a runtime folder). */
export function sourceOf(input: string): string {
  const m = /^(generated\/[^/]+|runtime\/[^/]+|core|node_modules\/(?:@[^/]+\/)?[^/]+|examples\/[^/]+|test|bench)/.exec(input);
  return m ? m[1]! : input;
}

/** Bundles `entry` (relative to the repository) for a Worker. */
export async function bundleWorker(entry: string, options: WorkerBundleOptions = {}): Promise<WorkerBundle> {
  const served = options.served ?? MCP_REVISIONS;
  const alias = Object.fromEntries(MCP_REVISIONS.filter((v) => !served.includes(v)).map((v) => [`@wiregen/mcp-${v}`, UNBUNDLED]));
  const result = await build({
    ...WRANGLER_BUILD,
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    format: options.format ?? 'esm',
    ...(options.format === 'iife' ? { globalName: 'worker' } : {}),
    splitting: options.splitting ?? false,
    minify: true,
    tsconfig: join(ROOT, 'tsconfig.json'),
    alias,
    metafile: true,
    write: options.outdir !== undefined,
    ...(options.outdir !== undefined ? { outdir: options.outdir } : { outdir: join(ROOT, 'node_modules', '.cache', 'wiregen-worker') }),
    logLevel: 'silent',
  });
  const metafile = result.metafile!;
  const outputs = Object.values(metafile.outputs);
  const bySource = new Map<string, number>();
  for (const output of outputs)
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      bySource.set(sourceOf(input), (bySource.get(sourceOf(input)) ?? 0) + bytesInOutput);
  return {
    bytes: outputs.reduce((n, o) => n + o.bytes, 0),
    files: new Map((result.outputFiles ?? []).map((f) => [f.path, f.text])),
    imports: [...new Set(outputs.flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))].sort(),
    bySource,
    metafile,
  };
}
