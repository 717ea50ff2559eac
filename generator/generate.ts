/**
 * @module generate — the repository's pipeline, one pass after another: every pin loaded (load/), checked
 * (check/) and planned (plan/); then emitted (emit/) and formatted (format/): the repository's specs, every
 * pin's package, and generated/'s own index and registry. The caller writes or compares generated/
 * (commands/generate.ts, with format/index.ts). The run's worker threads are one object (workers/), made when
 * the run starts and closed when it ends, here.
 */
import type { Context } from './context.ts';
import { checkManifest } from './check/manifest.ts';
import { emitPin } from './emit/index.ts';
import { emitRepositoryFiles } from './emit/repository.ts';
import { checkSampleName, sampleFiles, type SampleFile } from './load/samples.ts';
import { generateSpecIn, type GeneratedSpec } from './spec/generate.ts';
import { InputError, type Diagnostic } from './errors.ts';
import { diffTree, writeTree, type FileSet } from './format/index.ts';
import { loadPinInputs } from './load/index.ts';
import { manifestValidator } from './load/manifest.ts';
import { isServed, loadPins, verifyPins, type Pin } from './load/pins.ts';
import { planPin, type PinPlan } from './plan/index.ts';
import { Workers } from './workers/index.ts';

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
}

/**
 * Runs the whole pipeline; returns the file set (paths relative to generated/) and a report per pin. The
 * pins are loaded, checked and planned first, then the repository's specs are generated (so a bad spec stops
 * the run before the pins' emission), then the pins are emitted, then generated/'s own files.
 */
export async function generateAll(ctx: Context): Promise<{ files: FileSet; reports: PinReport[] }> {
  // The run's threads: prettier loads on them while the pins load.
  const workers = new Workers({
    onThreadError: (err) => ctx.options.log(`a validator thread failed (${err.message}); its pins compile on the main thread`),
  });
  try {
    // load → check → plan, every pin.
    const { plans, mcp, served } = loadAndCheck(ctx);
    // The pins' validators start compiling on worker threads now, while the specs below are generated.
    workers.compileValidators(plans);
    // emit → format: the repository's specs, every pin's package, generated/'s own files.
    const files: FileSet = new Map();
    for (const { folder, generated } of await generateSamples(ctx, workers))
      for (const [name, text] of generated.files) files.set(`${folder}/${name}`, text);
    const reports = await emitPins(ctx, files, plans, workers);
    if (!ctx.options.only) for (const [path, text] of await emitRepositoryFiles(plans, served, mcp, workers)) files.set(path, text);
    return { files, reports };
  } finally {
    await workers.close();
  }
}

/** The pin ids and the repository spec names of `options.only` (everything when it is not set). */
function partitionOnly(ctx: Context, pins: readonly Pin[], samples: readonly SampleFile[]) {
  const only = ctx.options.only;
  if (!only) return { pins: [...pins], samples: [...samples] };
  const unknown = only.filter((id) => !pins.some((p) => p.id === id) && !samples.some((f) => f.name === id));
  if (unknown.length) {
    const pinList = pins.map((p) => p.id).join(', ');
    const looksLikePin = unknown.every((id) => /^(mcp|a2a)-/.test(id));
    throw new InputError([
      looksLikePin
        ? { file: 'schemas/pins.json', message: `no pin ${unknown.join(', ')} (pins: ${pinList})` }
        : {
            file: 'schemas/samples',
            message: `no pin or sample ${unknown.join(', ')} (samples: ${samples.map((f) => f.name).join(', ')}; pins: ${pinList})`,
          },
    ]);
  }
  return { pins: pins.filter((p) => only.includes(p.id)), samples: samples.filter((f) => only.includes(f.name)) };
}

/**
 * Loads and verifies every pin of `options.only` (all without it), cross-checking each manifest; throws on any
 * problem. `only` may also name repository specs (generateAll generates those).
 */
export function loadAndCheck(ctx: Context): Loaded {
  const { pins } = partitionOnly(ctx, loadPins(ctx), sampleFiles(ctx));
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
  return { pins, plans, mcp, served };
}

/**
 * The repository's specs (all, or those `options.only` names), each generated by the function behind
 * `wiregen generate --spec` (spec/generate.ts), with its protocol's default pin, its files formatted on the
 * run's `workers`. Every problem of every spec is reported at once.
 */
async function generateSamples(ctx: Context, workers: Workers): Promise<{ folder: string; generated: GeneratedSpec }[]> {
  const { samples } = partitionOnly(ctx, loadPins(ctx), sampleFiles(ctx));
  const out: { folder: string; generated: GeneratedSpec }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const sample of samples) {
    const t0 = performance.now();
    try {
      const generated = await generateSpecIn(ctx, sample.path, undefined, workers);
      diagnostics.push(...checkSampleName(generated.spec, sample));
      out.push({ folder: `samples/${sample.name}`, generated });
      const what = generated.spec.kind === 'agent' ? ' (A2A agent)' : '';
      ctx.options.log(`samples/${sample.name}: ${plural(generated.files.size, 'file')}${what} (${((performance.now() - t0) / 1000).toFixed(2)} s)`);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      diagnostics.push(...err.diagnostics);
    }
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  return out;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Emits one folder of generated/: runs `emit` (which returns formatted files), adds them under `dir`, and
 * logs `<dir>: <what the files are> (<seconds> s)`, the seconds since `t0` (default: now).
 */
async function emitFolder(
  ctx: Context,
  files: FileSet,
  dir: string,
  emit: () => Promise<FileSet>,
  what: (count: number) => string,
  t0 = performance.now(),
): Promise<{ files: number; ms: number }> {
  const emitted = await emit();
  for (const [name, text] of emitted) files.set(`${dir}/${name}`, text);
  const ms = performance.now() - t0;
  ctx.options.log(`${dir}: ${what(emitted.size)} (${(ms / 1000).toFixed(2)} s)`);
  return { files: emitted.size, ms };
}

/** Emits every pin's package into `files`, logging each; a report per pin. */
async function emitPins(ctx: Context, files: FileSet, plans: readonly PinPlan[], workers: Workers): Promise<PinReport[]> {
  const reports: PinReport[] = [];
  // Every pin's emission starts before the first is awaited: each hands its types.ts to a prettier thread
  // and the next pin's validators compile meanwhile. Added and logged in pin order.
  const emitting = plans.map((plan) => {
    const t0 = performance.now();
    const emitted = emitPin(plan, workers);
    emitted.catch(() => {}); // awaited below, in order; a later pin's failure must not go unhandled meanwhile
    return { plan, t0, emitted };
  });
  for (const { plan, t0, emitted } of emitting) {
    const defs = Object.keys(plan.defs).length;
    const methods = plan.methods.length;
    const done = await emitFolder(
      ctx,
      files,
      plan.id,
      () => emitted,
      (n) => `${defs} defs, ${methods} methods, ${plural(n, 'file')}`,
      t0,
    );
    reports.push({ id: plan.id, defs, methods, ...done });
  }
  return reports;
}

/** The folders of generated/ `options.only` names (a pin's, or samples/<name>), or undefined for all of it. */
export function onlyFolders(ctx: Context): string[] | undefined {
  const only = ctx.options.only;
  if (!only) return undefined;
  const samples = new Set(sampleFiles(ctx).map((f) => f.name));
  return only.map((id) => (samples.has(id) ? `samples/${id}` : id));
}

export { diffTree, writeTree };
