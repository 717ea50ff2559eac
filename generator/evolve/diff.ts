/**
 * @module evolve/diff — compares two pins of one protocol: their schema bundles (evolve/diff-schema.ts),
 * manifests (evolve/diff-methods.ts) and, for A2A, protos (evolve/diff-proto.ts). For A2A the proto is
 * normative and the bundle is built from it, so what the proto comparison reports (fields, their
 * required-ness and types, enum values) is not reported again from the bundle; the bundle adds only what the
 * proto cannot say (formats, consts, value constraints, closed objects).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { loadPinInputs, type LoadedPin } from '../load/index.ts';
import { manifestValidator } from '../load/manifest.ts';
import { display, isServed, loadPins, verifyPins, type Pin } from '../load/pins.ts';
import { diffMethods } from './diff-methods.ts';
import { diffProtos } from './diff-proto.ts';
import { SchemaDiff } from './diff-schema.ts';
import { sortFindings, type Finding } from './findings.ts';

/** What the bundle of an A2A pin says beyond its proto: these schema findings are kept. */
const BUNDLE_ONLY: ReadonlySet<string> = new Set([
  'ADDITIONAL_PROPERTIES_CLOSED',
  'ADDITIONAL_PROPERTIES_OPENED',
  'FORMAT_SAME',
  'SCHEMA_SAME_CONST',
]);

/** The definition a schema finding is about: the first segment of its subject (`Task.status` → `Task`). */
function definitionOf(f: Finding): string {
  return f.subject.split(/[.|[{ ]/)[0]!;
}

/** Loads pins by id for comparing: pins.json, the sha256 of the files read (not examples), the inputs. */
export function loadForDiff(ctx: Context, ids: readonly string[]): LoadedPin[] {
  const all = loadPins(ctx);
  const validator = manifestValidator(ctx);
  return ids.map((id) => {
    const pin = all.find((p) => p.id === id);
    if (!pin) fail({ file: display(ctx, ctx.options.pinsFile), message: `no pin ${id} (pins: ${all.map((p) => p.id).join(', ')})` });
    verifyPins(ctx, [pin], (f) => f.path === pin.schema || f.path === pin.proto);
    return loadPinInputs(ctx, pin, validator);
  });
}

/** Every change from pin `a` to pin `b` (same protocol), sorted: wire-breaking first. */
export function diffPins(a: LoadedPin, b: LoadedPin): Finding[] {
  const shapes = new SchemaDiff(a.bundle, b.bundle).definitions();
  const methods = diffMethods(a, b, shapes);
  let schema = shapes.out;
  const proto = a.proto && b.proto ? diffProtos(a.proto, b.proto) : [];
  if (a.proto && b.proto) {
    const covered = new Set([...a.proto.messages.keys(), ...a.proto.enums.keys(), ...b.proto.messages.keys(), ...b.proto.enums.keys()]);
    schema = schema.filter((f) => !covered.has(definitionOf(f)) || (BUNDLE_ONLY.has(f.rule) && !/ minItems /.test(f.message)));
  }
  return sortFindings([...methods, ...proto, ...schema]);
}

/** Findings about the pin records themselves, for one pin id at two versions of the project. */
export function diffPinRecords(a: Pin | undefined, b: Pin | undefined, pinsFile: string): Finding[] {
  if (a && !b) return [{ rule: 'PIN_NO_DELETE', class: 'wire-breaking', file: pinsFile, subject: a.id, message: `pin ${a.id} removed` }];
  if (!a && b) return [{ rule: 'PIN_ADDED', class: 'compatible', file: pinsFile, subject: b.id, message: `pin ${b.id} added` }];
  if (a && b && isServed(a) !== isServed(b))
    return [
      {
        rule: 'PIN_SAME_SERVED',
        class: isServed(b) ? 'compatible' : 'wire-breaking',
        file: pinsFile,
        subject: b.id,
        message: `pin ${b.id} ${isServed(b) ? 'is served, was a draft' : 'is a draft (no longer served)'}`,
      },
    ];
  return [];
}

/**
 * Whether pin `a` (of the project in `ctxA`) and `b` (in `ctxB`) have the same inputs a comparison reads:
 * the pinned schema and proto (by sha256), the manifest (by its bytes: pins.json does not hash it), and
 * the served flag. Then there is nothing to compare.
 */
export function samePinnedInputs(ctxA: Context, a: Pin, ctxB: Context, b: Pin): boolean {
  const hashes = (p: Pin) =>
    JSON.stringify(
      p.files
        .filter((f) => f.path === p.schema || f.path === p.proto)
        .map((f) => f.sha256)
        .sort(),
    );
  const manifest = (ctx: Context, p: Pin) => {
    try {
      return readFileSync(join(ctx.options.schemasDir, p.manifest));
    } catch {
      return undefined;
    }
  };
  const ma = manifest(ctxA, a);
  const mb = manifest(ctxB, b);
  return hashes(a) === hashes(b) && isServed(a) === isServed(b) && ma !== undefined && mb !== undefined && ma.equals(mb);
}
