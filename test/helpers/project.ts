/**
 * A throw-away copy of the project's inputs (schemas/, optionally generated/) for tests that break them.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/helpers/project.ts). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Project {
  readonly root: string;
  path(rel: string): string;
  read(rel: string): string;
  write(rel: string, text: string): void;
  /** Edits a file by replacing `from` (which must occur) with `to`. */
  edit(rel: string, from: string | RegExp, to: string): void;
  /** Rewrites the sha256 pins.json records for `rel` (under schemas/), as a pin bump would. */
  repin(rel: string): void;
  dispose(): void;
}

export function copyProject(options: { generated?: boolean } = {}): Project {
  const root = mkdtempSync(join(tmpdir(), 'wiregen-test-'));
  cpSync(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true });
  if (options.generated) cpSync(join(ROOT, 'generated'), join(root, 'generated'), { recursive: true });
  const path = (rel: string) => join(root, rel);
  const project: Project = {
    root,
    path,
    read: (rel) => readFileSync(path(rel), 'utf8'),
    write: (rel, text) => writeFileSync(path(rel), text),
    edit(rel, from, to) {
      const text = project.read(rel);
      const next = text.replace(from, to);
      if (next === text) throw new Error(`edit of ${rel}: ${String(from)} not found`);
      project.write(rel, next);
    },
    repin(rel) {
      const sha = createHash('sha256')
        .update(readFileSync(path(join('schemas', rel))))
        .digest('hex');
      const pins = JSON.parse(project.read('schemas/pins.json')) as { pins: { files: { path: string; sha256: string }[] }[] };
      for (const pin of pins.pins) for (const f of pin.files) if (f.path === rel) f.sha256 = sha;
      project.write('schemas/pins.json', `${JSON.stringify(pins, null, 2)}\n`);
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
  return project;
}

/** The pin ids schemas/pins.json lists (of the repository, or of `root`), in its order: tests derive pin lists from it. */
export function pinIds(root: string = ROOT): string[] {
  return (JSON.parse(readFileSync(join(root, 'schemas', 'pins.json'), 'utf8')) as { pins: { id: string }[] }).pins.map((p) => p.id);
}

/** Runs the CLI in-process against `root`, capturing its output. */
export async function runCli(argv: string[], root?: string): Promise<{ code: number; out: string[]; err: string[] }> {
  const { main } = await import('../../generator/cli.ts');
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    (l) => out.push(l),
    (l) => err.push(l),
    root ? { root } : {},
  );
  return { code, out, err };
}
