/**
 * @module bench/lib/built — our servers as users run them: `npm run build` (once per bench run) gives every
 * package its `dist/`; a bench server's own code (its entry, the sample behaviours and generated module it
 * imports) is compiled to one plain-JavaScript file under node_modules/.cache/wiregen-bench/ with esbuild,
 * every package left an import, so Node loads @wiregen/runtime and the generated packages from their built
 * `dist/` (resolved up the tree from there, as from any file of the project; and out of reach of the lint
 * and format checks, which a bundle would fail).
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { BENCH, ROOT, runNode } from './proc.ts';

/** Where the compiled servers (and anything else the bench writes for its servers) go. */
export const BUILT = join(ROOT, 'node_modules', '.cache', 'wiregen-bench');

let built: Promise<unknown> | undefined;

/** `npm run build` (once per bench run): every package's `dist/`, as a user installs it. */
export async function ensureBuilt(): Promise<void> {
  built ??= runNode([join(ROOT, 'scripts', 'build.mjs')]);
  await built;
}

/** Builds the packages (once) and compiles `entry` (relative to bench/); returns the file to run with node. */
export async function builtServer(entry: string): Promise<string> {
  await ensureBuilt();
  mkdirSync(BUILT, { recursive: true });
  const outfile = join(BUILT, `${basename(entry).replace(/\.ts$/, '')}.mjs`);
  await build({
    entryPoints: [join(BENCH, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // The repository's tsconfig `paths` would point @wiregen/* at sources: resolve them as Node does instead.
    tsconfigRaw: '{}',
    logLevel: 'warning',
  });
  return outfile;
}
