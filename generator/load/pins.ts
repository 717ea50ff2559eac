/**
 * @module load/pins — reads schemas/pins.json and verifies the sha256 of every pinned file.
 *
 * Pinned inputs are never edited by hand; a changed byte stops the generator before anything runs,
 * with a one-line error naming the file.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { readJson } from './json.ts';
import { assertValid, compileInputSchema } from './validate-input.ts';

export interface PinnedFile {
  readonly path: string;
  readonly original: string;
  readonly sha256: string;
  readonly commit?: string;
  readonly tag?: string;
}

export interface Pin {
  readonly id: string;
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  readonly schema: string;
  readonly proto?: string;
  readonly manifest: string;
  readonly examples?: string;
  readonly source: { readonly repository: string; readonly commit?: string; readonly tag?: string; readonly license: string };
  readonly files: readonly PinnedFile[];
}

/** Display path for a file under the project root (what errors print). */
export function display(ctx: Context, absolute: string): string {
  return relative(ctx.options.root, absolute) || absolute;
}

/** Loads and validates schemas/pins.json (shape only; see {@link verifyPins} for the hashes). */
export function loadPins(ctx: Context): Pin[] {
  const file = ctx.options.pinsFile;
  const name = display(ctx, file);
  const doc = readJson(file, name);
  const schema = readJson(join(ctx.options.schemasDir, 'pins.schema.json'), display(ctx, join(ctx.options.schemasDir, 'pins.schema.json')));
  assertValid(compileInputSchema(schema as object), doc, name);
  const pins = (doc as { pins: Pin[] }).pins;
  const ids = new Set<string>();
  pins.forEach((pin, i) => {
    if (ids.has(pin.id)) fail({ file: name, pointer: `/pins/${i}/id`, message: `duplicate pin id ${pin.id}` });
    ids.add(pin.id);
    const listed = new Set(pin.files.map((f) => f.path));
    for (const key of ['schema', 'proto'] as const) {
      const path = pin[key];
      if (path !== undefined && !listed.has(path))
        fail({ file: name, pointer: `/pins/${i}/${key}`, message: `${path} is not among the pin's files, so its sha256 would go unchecked` });
    }
  });
  return pins;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Verifies every pinned file's sha256; stops at the first mismatch with a one-line error naming the file. */
export function verifyPins(ctx: Context, pins: readonly Pin[]): void {
  for (const pin of pins) {
    for (const f of pin.files) {
      const abs = join(ctx.options.schemasDir, f.path);
      const name = display(ctx, abs);
      let bytes: Buffer;
      try {
        bytes = readFileSync(abs);
      } catch (err) {
        fail({
          file: name,
          message: `pinned file of ${pin.id} cannot be read (${(err as NodeJS.ErrnoException).code}); restore it from ${pin.source.repository} ${f.original}`,
        });
      }
      const actual = sha256(bytes);
      if (actual !== f.sha256)
        fail({
          file: name,
          message: `pinned file of ${pin.id} has changed: sha256 ${actual} but schemas/pins.json records ${f.sha256}. Restore it, or bump the pin (README: "Bumping a pin")`,
        });
    }
  }
}
