/**
 * @module test/bundle/fetch-path — what a fetch handler loads, bundled as a Cloudflare Worker bundles it
 * (bench/lib/worker-bundle.ts: esbuild, conditions workerd/worker/browser, minified):
 *
 * - it imports none of Node's modules (the allow-list below is empty: docs/deployment.md, Workers);
 * - no top-level statement of any module in it calls a timer, `createRequire`, a random source, or reads
 *   `process`, `Buffer` or `import.meta` (a Worker refuses timers and random values in global scope and has
 *   no `import.meta.url`, nor `process` and `Buffer` without `nodejs_compat`);
 * - an MCP server that serves 2026-07-28 only carries that revision's package and no other, within the budget,
 *   and of that package's two validator sets the all-errors one only (its `#accept-path` import resolved by
 *   the `workerd` condition, as Node resolves it too).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/proc.ts';
import { bundleWorker, MCP_REVISIONS, type WorkerBundle } from '../../bench/lib/worker-bundle.ts';

/** Node built-ins the fetch path may import: none (docs/deployment.md, "Cloudflare Workers"). */
const ALLOWED_NODE_IMPORTS: readonly string[] = [];

/**
 * Bytes of the minified MCP Worker serving 2026-07-28 only. Measured 326,884 (December 2026; 505,644 with
 * both validator sets and ajv's error objects written out): the revision's package is 240 KB of it (its
 * all-errors validators; the accept-path set, 147 KB more, is the one whose validators all say no under the
 * `workerd` condition: see below), the runtime and the server 87 KB. BENCHMARKS.md "Worker bundle" has the
 * table (bench/bundle-sizes.ts).
 */
const MCP_BUDGET = 400_000;
/** Bytes of that bundle that are not the revision's package: the runtime, @wiregen/core, the server. */
const RUNTIME_BUDGET = 100_000;

const MCP = 'test/bundle/fixtures/mcp-worker.ts';
const A2A = 'test/bundle/fixtures/a2a-worker.ts';

// Calls and names a module must not make or read at import (outside functions and class bodies).
const FORBIDDEN_CALLS = new Set([
  'setInterval',
  'setTimeout',
  'setImmediate',
  'createRequire',
  'require',
  'getRandomValues',
  'randomUUID',
  'randomBytes',
]);
const FORBIDDEN_NAMES = new Set(['process', 'Buffer']);

/**
 * `file:line what` for each forbidden call or read that runs when `file` is imported (`typeof process` is a
 * safe look; a CommonJS module's `require` is esbuild's, of the bundle's own modules).
 */
function importTimeEffects(file: string, commonJs = false): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const deferred = (node: ts.Node) =>
    ts.isFunctionLike(node) ||
    // Instance fields run at construction; static ones and static blocks at import.
    (ts.isPropertyDeclaration(node) && !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) ||
    ts.isTypeNode(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isImportDeclaration(node) ||
    ts.isExportDeclaration(node);
  const visit = (node: ts.Node): void => {
    if (deferred(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      if (name !== undefined && FORBIDDEN_CALLS.has(name) && !(commonJs && name === 'require')) at(node, `calls ${name}`);
    }
    const member = ts.isPropertyAccessExpression(node.parent) && node.parent.name === node;
    if (ts.isIdentifier(node) && FORBIDDEN_NAMES.has(node.text) && !member && !ts.isTypeOfExpression(node.parent)) at(node, `reads ${node.text}`);
    if (ts.isMetaProperty(node)) at(node, 'reads import.meta');
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return found;
}

/** What the bundle holds of each input file (not esbuild's virtual ones), with whether it is CommonJS. */
function inputsOf(bundle: WorkerBundle): { file: string; commonJs: boolean }[] {
  const kept = new Set(
    Object.values(bundle.metafile.outputs).flatMap((o) =>
      Object.entries(o.inputs)
        .filter(([, i]) => i.bytesInOutput > 0)
        .map(([f]) => f),
    ),
  );
  return [...kept].filter((f) => !f.includes(':')).map((file) => ({ file, commonJs: bundle.metafile.inputs[file]?.format === 'cjs' }));
}

describe('the fetch path bundled for a Worker', () => {
  const mcp = bundleWorker(MCP, { served: ['2026-07-28'] });
  const a2a = bundleWorker(A2A);

  it.each([
    ['MCP', mcp],
    ['A2A', a2a],
  ])('%s: imports no Node module outside the allow-list', async (_, bundle) => {
    expect((await bundle).imports.filter((i) => !ALLOWED_NODE_IMPORTS.includes(i))).toEqual([]);
  });

  it.each([
    ['MCP', mcp],
    ['A2A', a2a],
  ])('%s: no module in it starts a timer, makes a require, draws a random value or reads process at import', async (_, bundle) => {
    const inputs = inputsOf(await bundle);
    expect(inputs.length).toBeGreaterThan(20);
    expect(inputs.flatMap((i) => importTimeEffects(i.file, i.commonJs))).toEqual([]);
  });

  it('the static check finds what it looks for', () => {
    // A module as the session sweeper and node-builtins were written: the check must name both lines.
    const file = 'test/bundle/fixtures/import-effects.ts';
    expect(importTimeEffects(file)).toEqual([`${file}:8 calls createRequire`, `${file}:8 reads import.meta`, `${file}:11 calls setInterval`]);
  });

  it('MCP serving 2026-07-28 only: that package and no other, within the budget', async () => {
    const bundle = await mcp;
    const packages = [...bundle.bySource.keys()].filter((s) => s.startsWith('generated/mcp-'));
    expect(packages).toEqual(['generated/mcp-2026-07-28']);
    expect(bundle.bytes).toBeLessThanOrEqual(MCP_BUDGET);
    const pin = bundle.bySource.get('generated/mcp-2026-07-28')!;
    expect(bundle.bytes - pin).toBeLessThanOrEqual(RUNTIME_BUDGET);
  });

  it("MCP: the pin's accept-path set is the one its package.json gives the `workerd` condition", async () => {
    // The pin's `imports` map sends `#accept-path` to validators.accept-none.js under `workerd` and `worker`
    // (Node's conditional imports: https://nodejs.org/api/packages.html#subpath-imports), so a Worker's bundle
    // carries the all-errors set alone.
    const files = inputsOf(await mcp).map((i) => i.file);
    expect(files.filter((f) => f.startsWith('generated/mcp-2026-07-28/validators'))).toEqual([
      'generated/mcp-2026-07-28/validators.accept-none.js',
      'generated/mcp-2026-07-28/validators.js',
    ]);
  });

  it.each([
    ['no condition (Node, Bun, Deno)', [], 'validators.fast.js'],
    ['workerd', ['workerd'], 'validators.accept-none.js'],
    ['worker', ['worker'], 'validators.accept-none.js'],
    ['browser', ['browser'], 'validators.fast.js'],
  ])("Node resolves every pin's #accept-path with %s", (_, conditions, want) => {
    const pins = readdirSync(join(ROOT, 'generated')).filter((d) => existsSync(join(ROOT, 'generated', d, 'validators.js')));
    expect(pins.length).toBeGreaterThanOrEqual(7);
    const parents = pins.map((d) => pathToFileURL(join(ROOT, 'generated', d, 'validators.js')).href);
    const script = `process.stdout.write(JSON.stringify(${JSON.stringify(parents)}.map((p) => import.meta.resolve('#accept-path', p))))`;
    const flags = [...conditions.map((c) => `--conditions=${c}`), '--experimental-import-meta-resolve', '--input-type=module'];
    const out = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(JSON.parse(out)).toEqual(pins.map((d) => pathToFileURL(join(ROOT, 'generated', d, want)).href));
  });

  it('MCP serving every revision: each revision is a chunk of its own when split, loaded only when asked for', async () => {
    const bundle = await bundleWorker(MCP, { splitting: true });
    const outputs = Object.values(bundle.metafile.outputs);
    const entry = outputs.find((o) => o.entryPoint === MCP)!;
    // The entry holds no revision's package: each is reached by a dynamic import of the chunk that holds it.
    expect(Object.keys(entry.inputs).filter((i) => i.startsWith('generated/mcp-20'))).toEqual([]);
    const loaded = new Set(entry.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
    for (const revision of MCP_REVISIONS) {
      const chunk = Object.entries(bundle.metafile.outputs).find(([, o]) => o.entryPoint === `generated/mcp-${revision}/index.ts`);
      expect(chunk && loaded.has(chunk[0]), revision).toBe(true);
    }
  });
});
