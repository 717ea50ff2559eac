/**
 * @module spec/repository — the repository's own specs (schemas/fixtures/*.yaml, schemas/fixtures/a2a/*.yaml)
 * for `npm run generate`, in two passes: {@link loadRepositorySpecs} reads and checks every spec (where a bad
 * spec's errors come from), {@link emitRepositorySpecs} emits their modules. generate.ts compiles the pins'
 * validators between the two, so the formatting threads get their first validators.js before the specs'
 * modules are emitted, and a bad spec still stops the run before any pin is compiled. Each module is the one
 * {@link generateSpec} writes for `wiregen generate --spec`, with its protocol's default pin.
 */
import type { Context } from '../context.ts';
import { emitSpec } from '../emit/fixture.ts';
import { type Diagnostic, InputError } from '../errors.ts';
import type { FileSet } from '../format/index.ts';
import { checkFixtureName, type FixtureFile } from '../load/fixtures.ts';
import { generateSpec } from './generate.ts';
import { type LoadedSpec, loadSpec } from './load.ts';

/** One spec, read and checked, and the milliseconds that took. */
export interface RepositorySpec {
  readonly fixture: FixtureFile;
  readonly spec: LoadedSpec;
  readonly ms: number;
}

/**
 * Reads and checks every spec of `fixtures`. When one has a problem, the error lists every problem of every
 * spec, in spec order, as loading and emitting each spec in turn finds them (what `wiregen generate` has
 * always reported).
 */
export async function loadRepositorySpecs(ctx: Context, fixtures: readonly FixtureFile[]): Promise<RepositorySpec[]> {
  const specs: RepositorySpec[] = [];
  let failed = false;
  for (const fixture of fixtures) {
    const t0 = performance.now();
    try {
      const spec = await loadSpec(ctx, fixture.path);
      if (checkFixtureName(spec, fixture).length) failed = true;
      else specs.push({ fixture, spec, ms: performance.now() - t0 });
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      failed = true;
    }
  }
  if (failed) throw new InputError(await problemsInTurn(ctx, fixtures));
  return specs;
}

/** Every problem of every spec, each spec loaded and emitted in turn (the failing run's report). */
async function problemsInTurn(ctx: Context, fixtures: readonly FixtureFile[]): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const fixture of fixtures) {
    try {
      const { spec } = await generateSpec(ctx, fixture.path);
      diagnostics.push(...checkFixtureName(spec, fixture));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      diagnostics.push(...err.diagnostics);
    }
  }
  return diagnostics;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Emits the module of every spec {@link loadRepositorySpecs} returned, logging `fixtures/<name>: <n> files
 * (<s> s)` for each (the seconds of its load and its emission); throws every emission problem at once.
 */
export async function emitRepositorySpecs(ctx: Context, specs: readonly RepositorySpec[]): Promise<{ folder: string; files: FileSet }[]> {
  const out: { folder: string; files: FileSet }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { fixture, spec, ms } of specs) {
    const t0 = performance.now();
    let files: FileSet;
    try {
      files = await emitSpec(spec);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      diagnostics.push(...err.diagnostics);
      continue;
    }
    out.push({ folder: `fixtures/${fixture.name}`, files });
    const what = spec.kind === 'agent' ? ' (A2A agent)' : '';
    ctx.options.log(`fixtures/${fixture.name}: ${plural(files.size, 'file')}${what} (${((ms + performance.now() - t0) / 1000).toFixed(2)} s)`);
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  return out;
}
