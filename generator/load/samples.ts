/**
 * @module load/samples — the repository's own specs: MCP servers in schemas/samples/*.yaml and A2A agents
 * in schemas/samples/a2a/*.yaml. Each is an ordinary spec (spec/load.ts); the repository adds one rule,
 * that its `name` is its file name, because `wiregen serve <name>` finds the behaviours by it
 * (samples/<name>.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Context } from '../context.ts';
import type { Diagnostic } from '../errors.ts';
import type { LoadedSpec } from '../spec/load.ts';

/** A repository spec: its name (the file name) and its path. */
export interface SampleFile {
  readonly name: string;
  readonly path: string;
}

/** Every repository spec, servers then agents, each sorted by name. */
export function sampleFiles(ctx: Context): SampleFile[] {
  const dir = join(ctx.options.schemasDir, 'samples');
  const list = (d: string) =>
    existsSync(d)
      ? readdirSync(d)
          .filter((f) => f.endsWith('.yaml'))
          .sort()
          .map((f) => ({ name: basename(f, '.yaml'), path: join(d, f) }))
      : [];
  return [...list(dir), ...list(join(dir, 'a2a'))];
}

/** The repository's rule for a loaded spec: its name is its file name. */
export function checkSampleName(spec: LoadedSpec, sample: SampleFile): Diagnostic[] {
  if (spec.name === sample.name) return [];
  return [
    {
      file: spec.file,
      pointer: '/name',
      ...spec.locate('/name'),
      message: `is "${spec.name}" but the file is ${sample.name}.yaml; they must agree`,
    },
  ];
}
