#!/usr/bin/env node
// npm run build: every workspace package gets a dist/ of plain ES modules and .d.ts.
//
// 1. One TypeScript program covers all packages, each package's imports of the others resolved to their
//    sources by tsconfig.json's `paths`: one tsc run over the workspace is quicker than one per package, and
//    writes every package's declarations into .build/. The packages form no cycle (the generator depends on
//    the runtime, the runtime on the generated packages, they on @wiregen/core, which depends on none of
//    ours: test/consumer/package-graph.test.ts), and the steps below take them in package.json's order.
// 2. @wiregen/core, the runtime and the generated packages are bundled per entry point (package.json
//    `exports`) with esbuild, shared code split into chunks, every other package left an import: a cold start
//    then reads a few files, not dozens. The generator (the CLI) keeps tsc's one file per module, next to its
//    templates.
//    The generated packages' bundles are printed without whitespace: they are mostly precompiled validators
//    (mcp-2026-07-28's two validator modules are 0.86 MB as generated, its chunk 0.77 MB without the indentation), and Node reads and
//    parses all of it when a server first uses the revision; identifiers and function names stay, so stack
//    traces and profiles still name the validators. The runtime keeps its layout (its profiles are read by
//    line), and generated/ keeps the formatted sources.
//    A pin's accept-path sets (validators.fast.js, validators.accept-none.js) are not bundled: its
//    validators.js imports them as `#accept-path`, chosen by condition when the package is installed, and
//    they ship as generated, from the package's root (its `files`).
// 3. Each package receives its part of .build/ as dist/, plus the files that are not TypeScript.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.build');
const t0 = performance.now();

/** The workspace folders (package.json `workspaces`, a trailing `/*` meaning every child with a package.json). */
function workspaces() {
  const patterns = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
  return patterns.flatMap((p) =>
    p.endsWith('/*')
      ? readdirSync(join(root, p.slice(0, -2)))
          .map((d) => join(p.slice(0, -2), d))
          .filter((d) => existsSync(join(root, d, 'package.json')))
      : [p],
  );
}

/** Files under `dir` (relative paths), skipping dist/ and node_modules/. */
function* files(dir, base = dir) {
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) {
      if (name !== 'dist' && name !== 'node_modules') yield* files(abs, base);
    } else yield relative(base, abs);
  }
}

const isSource = (rel) => rel.endsWith('.ts') && !rel.endsWith('.d.ts');
const isMeta = (rel) => rel === 'package.json' || rel === 'README.md' || rel === 'LICENSE';

/** `exports` entry point → its source: `./dist/mcp/index.js` ← `mcp/index.ts` (or a `.js` source as it is). */
function entryPoints(pkgDir, pkg) {
  const entries = {};
  for (const target of Object.values(pkg.exports ?? {})) {
    if (typeof target !== 'object') continue;
    const built = target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
    const source = [`${built}.ts`, `${built}.js`].find((f) => existsSync(join(pkgDir, f)));
    if (!source) throw new Error(`${pkg.name}: no source for ${target.default}`);
    entries[built] = join(pkgDir, source);
  }
  return entries;
}

rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
} catch {
  process.stderr.write('build: tsc failed (errors above)\n');
  process.exit(1);
}
const built = [];
for (const ws of workspaces()) {
  const pkgDir = join(root, ws);
  const dist = join(pkgDir, 'dist');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const bundled = ws !== 'generator';
  const generated = ws.startsWith('generated/');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  // Declarations (and, unbundled, tsc's JavaScript).
  for (const rel of files(join(out, ws))) if (rel.endsWith('.d.ts') || !bundled) cpSync(join(out, ws, rel), join(dist, rel));
  // Declarations and assets written by hand or by the generator, as they are (.d.ts beside a .js source).
  for (const rel of files(pkgDir)) {
    if (isSource(rel) || isMeta(rel)) continue;
    if (bundled && rel.endsWith('.js')) continue; // bundled into the entry points
    cpSync(join(pkgDir, rel), join(dist, rel));
  }
  if (bundled)
    await build({
      entryPoints: entryPoints(pkgDir, pkg),
      outdir: dist,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      // A pin's validators.js imports its accept-path set as `#accept-path`, which the package's `imports`
      // map resolves by condition (a Worker's bundler gets the set that says no to everything): left an
      // import, so that the installed package still chooses (generator/emit/validators/index.ts ACCEPT_PATH).
      external: generated ? ['#accept-path'] : [],
      // Not the repository's tsconfig: its `paths` point the other packages at their sources.
      tsconfigRaw: '{}',
      chunkNames: 'chunks/[name]-[hash]',
      legalComments: 'none',
      minifyWhitespace: generated,
      logLevel: 'warning',
    });
  for (const bin of Object.values(pkg.bin ?? {})) chmodSync(join(pkgDir, bin), 0o755);
  built.push(pkg.name);
}
rmSync(out, { recursive: true, force: true });
process.stdout.write(`built ${built.length} packages (${built.join(', ')}) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
