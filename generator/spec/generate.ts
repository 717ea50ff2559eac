/**
 * @module spec/generate — one spec to one module: the function behind `wiregen generate --spec <file> --out
 * <dir>`, and behind every generated/samples/<name>/ of `npm run generate` (generate.ts calls it for each
 * of the repository's specs). Nothing is written here: the caller writes or compares the files.
 */
import type { Context } from '../context.ts';
import { emitSpec } from '../emit/spec-module.ts';
import type { FileSet } from '../format/index.ts';
import type { Workers } from '../workers/index.ts';
import { loadSpec, type LoadedSpec } from './load.ts';

export interface GeneratedSpec {
  readonly spec: LoadedSpec;
  /** The module's files, by path relative to its folder. */
  readonly files: FileSet;
}

/**
 * Reads and checks the spec at `path` (relative to the project root) for the pin `pinId` (default: the newest
 * pin of its protocol) and emits its module. Throws an InputError listing every problem of the spec.
 */
export function generateSpec(ctx: Context, path: string, pinId?: string): Promise<GeneratedSpec> {
  return generateSpecIn(ctx, path, pinId);
}

/**
 * {@link generateSpec} as a part of a full generate, whose `workers` format the module's long files
 * (generate.ts, for the repository's specs).
 */
export async function generateSpecIn(ctx: Context, path: string, pinId: string | undefined, workers?: Workers): Promise<GeneratedSpec> {
  const spec = await loadSpec(ctx, path, pinId);
  return { spec, files: await emitSpec(spec, workers) };
}
