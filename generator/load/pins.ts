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
  /** The commit's date (ISO 8601), when it differs from the pin's. */
  readonly date?: string;
}

/** Where a pin's files come from (schemas/pins.schema.json `source`). */
export interface PinSource {
  readonly repository: string;
  readonly commit?: string;
  /** A release tag at `commit`. */
  readonly tag?: string;
  /** The release tag an untagged `commit` follows (package versions: load/version.ts). */
  readonly since?: string;
  /** The commit's date (ISO 8601). */
  readonly date?: string;
  readonly license: string;
}

export interface Pin {
  readonly id: string;
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  /**
   * Whether servers and clients speak this revision. A pin with `served: false` (a draft) is generated,
   * type-checked and diffable, but the registry never lists it, so it is never advertised nor negotiated.
   * Default: true.
   */
  readonly served?: boolean;
  readonly schema: string;
  readonly proto?: string;
  readonly manifest: string;
  readonly examples?: string;
  readonly source: PinSource;
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
    if (pin.protocol === 'mcp' && pin.served !== false && !/^\d{4}-\d{2}-\d{2}$/.test(pin.revision))
      fail({
        file: name,
        pointer: `/pins/${i}/revision`,
        message: `pin ${pin.id}: MCP revision ${JSON.stringify(pin.revision)} is not a date, so it cannot be negotiated; mark the pin "served": false (a draft)`,
      });
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

/** Whether the pin is served (see {@link Pin.served}). */
export function isServed(pin: Pick<Pin, 'served'>): boolean {
  return pin.served !== false;
}

/**
 * Verifies every pinned file's sha256 (or only those `only` accepts); stops at the first mismatch with a
 * one-line error naming the file.
 */
export function verifyPins(ctx: Context, pins: readonly Pin[], only: (file: PinnedFile) => boolean = () => true): void {
  for (const pin of pins) {
    for (const f of pin.files.filter(only)) {
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
          message: `pinned file of ${pin.id} has changed: sha256 ${actual} but schemas/pins.json records ${f.sha256}. Restore it, or re-pin it: wiregen pin ${pin.id} --update --from <source> (docs/bumping-a-schema.md)`,
        });
    }
  }
}
