/**
 * @module generate — the repository's pipeline: every pin (load → check → plan → emit → format) and every
 * repository spec (spec/generate.ts), then write or compare generated/.
 */
import type { Context } from './context.ts';
import { checkManifest } from './check/manifest.ts';
import { emitRegistry, title } from './emit/dispatch.ts';
import { GENERATOR_NAME } from './context.ts';
import { emitPin } from './emit/index.ts';
import { createEmitPool, type EmitPool, type EmittedPin } from './emit/pool.ts';
import { emitRegistryPackageJson } from './emit/package.ts';
import { fixtureFiles, type FixtureFile } from './load/fixtures.ts';
import { emitRepositorySpecs, loadRepositorySpecs } from './spec/repository.ts';
import { InputError, type Diagnostic } from './errors.ts';
import { diffTree, formatFile, header, writeTree, type FileSet } from './format/index.ts';
import { startFormatPool } from './format/pool.ts';
import { loadPinInputs } from './load/index.ts';
import { manifestValidator } from './load/manifest.ts';
import { isServed, loadPins, verifyPins, type Pin } from './load/pins.ts';
import { planPin, type PinPlan } from './plan/index.ts';

export interface PinReport {
  readonly id: string;
  readonly defs: number;
  readonly methods: number;
  readonly files: number;
  readonly ms: number;
}

export interface Loaded {
  readonly pins: Pin[];
  readonly plans: PinPlan[];
  /**
   * The served MCP plans, oldest revision first: the registry lists them so. Drafts (`served: false`) are
   * generated but never registered, so never advertised nor negotiated.
   */
  readonly mcp: PinPlan[];
  /** The plans the registry lists: every served pin's. */
  readonly served: PinPlan[];
  /** The repository's specs `options.only` names (all without it). */
  readonly fixtures: FixtureFile[];
}

/** The pin ids and the repository spec names of `options.only` (everything when it is not set). */
function partitionOnly(ctx: Context, pins: readonly Pin[], fixtures: readonly FixtureFile[]) {
  const only = ctx.options.only;
  if (!only) return { pins: [...pins], fixtures: [...fixtures] };
  const unknown = only.filter((id) => !pins.some((p) => p.id === id) && !fixtures.some((f) => f.name === id));
  if (unknown.length) {
    const pinList = pins.map((p) => p.id).join(', ');
    const looksLikePin = unknown.every((id) => /^(mcp|a2a)-/.test(id));
    throw new InputError([
      looksLikePin
        ? { file: 'schemas/pins.json', message: `no pin ${unknown.join(', ')} (pins: ${pinList})` }
        : {
            file: 'schemas/fixtures',
            message: `no pin or fixture ${unknown.join(', ')} (fixtures: ${fixtures.map((f) => f.name).join(', ')}; pins: ${pinList})`,
          },
    ]);
  }
  return { pins: pins.filter((p) => only.includes(p.id)), fixtures: fixtures.filter((f) => only.includes(f.name)) };
}

/**
 * Loads and verifies every pin of `options.only` (all without it), cross-checking each manifest; throws on any
 * problem. `only` may also name repository specs (generateAll generates those).
 */
export function loadAndCheck(ctx: Context): Loaded {
  const { pins, fixtures } = partitionOnly(ctx, loadPins(ctx), fixtureFiles(ctx));
  verifyPins(ctx, pins);
  const validator = pins.length ? manifestValidator(ctx) : undefined;
  const diagnostics: Diagnostic[] = [];
  const plans: PinPlan[] = [];
  for (const pin of pins) {
    const loaded = loadPinInputs(ctx, pin, validator!);
    const found = checkManifest(loaded);
    diagnostics.push(...found);
    if (found.length === 0) plans.push(planPin(loaded));
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  const servedIds = new Set(pins.filter(isServed).map((p) => p.id));
  const served = plans.filter((p) => servedIds.has(p.id));
  const mcp = served.filter((p) => p.protocol === 'mcp').sort((a, b) => (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0));
  return { pins, plans, mcp, served, fixtures };
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The index of the generated folder. */
function generatedReadme(plans: readonly PinPlan[], served: readonly PinPlan[]): string {
  const draft = (p: PinPlan) => (served.includes(p) ? '' : ' (draft, not served)');
  const rows = plans.map((p) => `| \`${p.id}/\` | \`${p.packageName}\` | ${p.version} | ${title(p)}${draft(p)} |`);
  return `# generated/

Committed output of \`npm run generate\`: one package per pinned protocol revision. Do not edit; CI runs
\`npm run generate -- --check\` and fails when this folder differs from what the generator produces.

| folder | package | version | protocol |
|---|---|---|---|
${rows.join('\n')}
| \`revisions/\` | \`@wiregen/revisions\` | | the registry: every package above by protocol and era |

\`fixtures/\` holds the modules generated from the repository's own server and agent specs.
`;
}

/** How {@link generateAll} emits the pins. */
export interface GenerateOptions {
  /**
   * Worker threads the pins are emitted on (emit/pool.ts), at most one per pin; 0 emits them on the main
   * thread, each validators.js formatted on the prettier pool (format/pool.ts). The files are the same either
   * way. Default: 0 (see {@link DEFAULT_THREADS}).
   */
  readonly threads?: number;
}

/**
 * On the main thread unless asked: on the project's two-core machine, two threads each emitting whole pins
 * took 17.6 s against 13 s for the main thread compiling and the prettier threads formatting (each thread
 * loads and warms up ajv, TypeScript and prettier of its own: about 9 s of CPU more in all).
 */
const DEFAULT_THREADS = 0;

/**
 * Every plan's package from the pool, as promises in plan order. The jobs are queued biggest first (by the
 * size of the definitions, which the compile and format times follow), so the threads end close together.
 */
function emitOnPool(pool: EmitPool, plans: readonly PinPlan[]): Promise<EmittedPin>[] {
  const size = new Map(plans.map((p) => [p, JSON.stringify(p.defs).length]));
  const emitted = new Map<PinPlan, Promise<EmittedPin>>();
  for (const plan of [...plans].sort((a, b) => size.get(b)! - size.get(a)!)) {
    const job = pool.emit(plan);
    job.catch(() => {}); // awaited in plan order; a later pin's failure must not go unhandled meanwhile
    emitted.set(plan, job);
  }
  return plans.map((p) => emitted.get(p)!);
}

/** Every pin's package emitted on the main thread, as promises in plan order, with the time each started. */
function emitInThread(plans: readonly PinPlan[]): Promise<EmittedPin>[] {
  // Every pin's emission starts before the first is awaited: each hands its validators.js to a formatting
  // thread (format/pool.ts) and the next pin's validators compile meanwhile.
  return plans.map((plan) => {
    const t0 = performance.now();
    const emitted = emitPin(plan).then((files) => ({ files, ms: performance.now() - t0 }));
    emitted.catch(() => {}); // awaited in plan order; a later pin's failure must not go unhandled meanwhile
    return emitted;
  });
}

/**
 * Runs the whole pipeline; returns the file set (paths relative to generated/) and a report per pin. The
 * pins are loaded and checked, then the repository's specs (a bad one stops the run before any pin is
 * compiled), then every pin's emission starts (on the main thread, its validators compile now, one pin after
 * the other, and each validators.js goes to a formatting thread as soon as it is compiled), then the specs'
 * modules are emitted, and the pins' packages are added and logged in pin order.
 */
export async function generateAll(ctx: Context, options: GenerateOptions = {}): Promise<{ files: FileSet; reports: PinReport[] }> {
  const { plans, mcp, served, fixtures } = loadAndCheck(ctx);
  const threads = Math.min(options.threads ?? DEFAULT_THREADS, plans.length);
  const pool = threads > 0 ? createEmitPool(threads) : undefined;
  if (!pool && plans.length) startFormatPool(); // its threads load prettier while the specs load
  try {
    const specs = await loadRepositorySpecs(ctx, fixtures);
    const emitting = pool ? emitOnPool(pool, plans) : emitInThread(plans);
    const files: FileSet = new Map();
    for (const { folder, files: spec } of await emitRepositorySpecs(ctx, specs))
      for (const [name, text] of spec) files.set(`${folder}/${name}`, text);
    const reports: PinReport[] = [];
    for (const [i, plan] of plans.entries()) {
      const defs = Object.keys(plan.defs).length;
      const methods = plan.methods.length;
      const emitted = await emitting[i]!;
      for (const [name, text] of emitted.files) files.set(`${plan.id}/${name}`, text);
      ctx.options.log(`${plan.id}: ${defs} defs, ${methods} methods, ${plural(emitted.files.size, 'file')} (${(emitted.ms / 1000).toFixed(2)} s)`);
      reports.push({ id: plan.id, defs, methods, files: emitted.files.size, ms: emitted.ms });
    }
    if (!ctx.options.only) {
      files.set('README.md', await formatFile('README.md', generatedReadme(plans, served), ''));
      const registryHead = header(GENERATOR_NAME, ['schemas/pins.json']);
      files.set('revisions/index.ts', await formatFile('index.ts', emitRegistry(served, mcp), registryHead));
      files.set('revisions/package.json', emitRegistryPackageJson(served));
    }
    return { files, reports };
  } finally {
    await pool?.close();
  }
}

/** The folders of generated/ `options.only` names (a pin's, or fixtures/<name>), or undefined for all of it. */
export function onlyFolders(ctx: Context): string[] | undefined {
  const only = ctx.options.only;
  if (!only) return undefined;
  const fixtures = new Set(fixtureFiles(ctx).map((f) => f.name));
  return only.map((id) => (fixtures.has(id) ? `fixtures/${id}` : id));
}

export { diffTree, writeTree };
