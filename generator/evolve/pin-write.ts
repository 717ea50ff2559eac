/**
 * @module evolve/pin-write — the two ends of `wiregen pin`: writing a planned pin (the files, its
 * schemas/pins.json record, a new pin's manifest started from the nearest pin's), or, with `--check`,
 * comparing the plan with what is pinned and writing nothing.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Context } from '../context.ts';
import { EXIT_DIFFERENT, EXIT_OK } from '../errors.ts';
import { display, type Pin } from '../load/pins.ts';

/** A pin ready to write: its record, where it goes in pins.json, and the files to copy in. */
export interface PinPlan {
  readonly pin: Pin;
  /** Its index in schemas/pins.json; -1 for a new pin. */
  readonly index: number;
  readonly existing?: Pin;
  /** The pin a new pin's manifest starts from (for an existing pin: itself). */
  readonly nearest?: Pin;
  /** Files to copy: destination (relative to schemas/) and source. */
  readonly sources: readonly { readonly path: string; readonly abs: string }[];
  /** Display path of pins.json. */
  readonly pinsName: string;
}

/** pins.json with the planned record in place (a new pin goes after the last pin of its protocol). */
function pinsDocument(ctx: Context, plan: PinPlan): string {
  const doc = JSON.parse(readFileSync(ctx.options.pinsFile, 'utf8')) as { pins: Pin[] };
  if (plan.index >= 0) doc.pins[plan.index] = plan.pin;
  else {
    const last = doc.pins.map((p) => p.protocol).lastIndexOf(plan.pin.protocol);
    doc.pins.splice(last < 0 ? doc.pins.length : last + 1, 0, plan.pin);
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A new pin's manifest: the nearest pin's, renamed (its `pin`, `revision` and the comments naming them). */
export function startManifest(text: string, from: Pin, to: Pin): string {
  const lines = text.split('\n').map((line) => {
    if (/^pin:/.test(line)) return `pin: ${to.id}`;
    if (/^revision:/.test(line)) return `revision: ${JSON.stringify(to.revision)}`;
    if (!line.startsWith('#')) return line;
    return line.split(`schemas/${from.schema}`).join(`schemas/${to.schema}`).split(from.revision).join(to.revision);
  });
  return `# Started by 'wiregen pin' from ${from.manifest}: the cross-check ('npm run generate') names what to change.\n${lines.join('\n')}`;
}

/** Writes the plan; returns what was done, one line each. */
export function writePin(ctx: Context, plan: PinPlan): string[] {
  const { pin, existing, nearest } = plan;
  const lines: string[] = [];
  for (const f of plan.sources) {
    const dest = join(ctx.options.schemasDir, f.path);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(f.abs, dest);
  }
  const now = new Set(pin.files.map((f) => f.path));
  const dropped = (existing?.files ?? []).filter((f) => !now.has(f.path));
  for (const f of dropped) rmSync(join(ctx.options.schemasDir, f.path), { force: true });
  writeFileSync(ctx.options.pinsFile, pinsDocument(ctx, plan));
  const examples = plan.sources.filter((f) => f.path.includes('/examples/')).length;
  lines.push(
    `${existing ? 'Re-pinned' : 'Pinned'} ${pin.id} at ${pin.source.commit?.slice(0, 12)}${pin.source.tag ? ` (${pin.source.tag})` : ''}: ` +
      `${plan.sources.length} file(s) copied${examples ? ` (${examples} examples)` : ''}${dropped.length ? `, ${dropped.length} no longer upstream removed` : ''}; ` +
      `their sha256 recorded in ${plan.pinsName}.`,
  );
  const manifest = join(ctx.options.schemasDir, pin.manifest);
  if (!existing && nearest && !existsSync(manifest)) {
    const text = readFileSync(join(ctx.options.schemasDir, nearest.manifest), 'utf8');
    writeFileSync(manifest, startManifest(text, nearest, pin));
    lines.push(`Started ${display(ctx, manifest)} from ${nearest.id}'s manifest.`);
  }
  return lines;
}

/** Compares the plan with what is pinned: exit 0 when schemas/ and pins.json already say it, else 1. */
export function checkPin(ctx: Context, plan: PinPlan): { lines: string[]; code: number } {
  const { pin, existing } = plan;
  const lines: string[] = [];
  if (!existing) {
    lines.push(`${pin.id} is not pinned: 'wiregen pin' would add it with ${pin.files.length} file(s).`);
    return { lines, code: EXIT_DIFFERENT };
  }
  for (const f of plan.sources) {
    const dest = join(ctx.options.schemasDir, f.path);
    const name = display(ctx, dest);
    if (!existsSync(dest)) lines.push(`${name}: missing (the source has it)`);
    else if (!readFileSync(dest).equals(readFileSync(f.abs))) lines.push(`${name}: differs from ${f.abs}`);
  }
  const now = new Set(pin.files.map((f) => f.path));
  for (const f of existing.files)
    if (!now.has(f.path)) lines.push(`${display(ctx, join(ctx.options.schemasDir, f.path))}: pinned, but not in the source`);
  for (const key of ['repository', 'commit', 'tag', 'since', 'date'] as const)
    if (existing.source[key] !== pin.source[key])
      lines.push(
        `${plan.pinsName} /pins/${plan.index}/source/${key}: ${existing.source[key] ?? '(none)'}, the source says ${pin.source[key] ?? '(none)'}`,
      );
  const sha = new Map(existing.files.map((f) => [f.path, f.sha256]));
  const stale = pin.files.filter((f) => sha.has(f.path) && sha.get(f.path) !== f.sha256).length;
  if (stale) lines.push(`${plan.pinsName} /pins/${plan.index}/files: ${stale} sha256 differ from the source's files`);
  if (lines.length === 0) {
    lines.push(`${pin.id} is pinned as the source says: ${pin.files.length} file(s), sha256 and provenance agree.`);
    return { lines, code: EXIT_OK };
  }
  lines.unshift(`${pin.id} differs from the source (nothing written):`);
  return { lines: [lines[0]!, ...lines.slice(1).map((l) => `  ${l}`)], code: EXIT_DIFFERENT };
}
