/**
 * @module bench/lib/built — our servers as users run them: `npm run build` (once per bench run) gives every
 * package its `dist/`; a bench server's own code (its entry, the fixture behaviours and generated module it
 * imports) is compiled to one plain-JavaScript file under bench/.built/ with esbuild, every package left an
 * import, so Node loads @wiregen/runtime and the generated packages from their built `dist/`.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { BENCH, ROOT, runNode } from './proc.ts';

const OUT = join(BENCH, '.built');
let built: Promise<unknown> | undefined;

/** Builds the packages (once) and compiles `entry` (relative to bench/); returns the file to run with node. */
export async function builtServer(entry: string): Promise<string> {
  built ??= runNode([join(ROOT, 'scripts', 'build.mjs')]);
  await built;
  mkdirSync(OUT, { recursive: true });
  const outfile = join(OUT, `${basename(entry).replace(/\.ts$/, '')}.mjs`);
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
