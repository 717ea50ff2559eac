/**
 * @module evolve/git — the project's pinned inputs as a git commit has them, for `wiregen diff --against`
 * and the drift summary of `generate --check`.
 *
 * Only what a comparison reads is taken out of git (with `git show <commit>:<path>`, nothing checked out,
 * the index untouched): schemas/pins.json, the two input schemas, and each pin's schema, proto and manifest.
 * They are written to a throw-away folder laid out like the project, so the ordinary loaders read them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fail } from '../errors.ts';
import type { Pin } from '../load/pins.ts';

function git(cwd: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch {
    return undefined;
  }
}

/** The work tree `dir` is in (its top folder), or undefined outside git. */
export function workTreeOf(dir: string): string | undefined {
  return git(dir, ['rev-parse', '--show-toplevel'])?.trim() || undefined;
}

/** The commit `ref` names in the repository of `root`; fails (exit 2) naming the ref when it names none. */
export function resolveCommit(root: string, ref: string): string {
  if (!workTreeOf(root)) fail({ file: root, message: 'is not in a git work tree, so --against has nothing to compare with' });
  const sha = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])?.trim();
  if (!sha) fail({ file: root, message: `git ref ${JSON.stringify(ref)} names no commit` });
  return sha;
}

/**
 * The text of `path` (relative to `root`) at `commit`, or undefined when the commit has no such file (git show
 * of the blob: nothing checked out).
 */
export function fileAt(root: string, commit: string, path: string): string | undefined {
  const top = workTreeOf(root)!;
  // git names the top folder with symbolic links resolved.
  const rel = relative(top, join(realpathSync(root), path))
    .split('\\')
    .join('/');
  return git(top, ['show', `${commit}:${rel}`]);
}

/** The last commit that changed `path` (relative to `root`), or undefined. */
export function lastCommitOf(root: string, path: string): string | undefined {
  return git(root, ['log', '-1', '--format=%H', '--', path])?.trim() || undefined;
}

/** A folder holding the project's pinned inputs at `commit`: `root` is laid out like the project. */
export interface InputsAtCommit {
  readonly commit: string;
  readonly root: string;
  /** The pins.json at that commit, or undefined when the commit has none. */
  readonly pins?: readonly Pin[];
  dispose(): void;
}

/** Writes the inputs `root`'s project had at `commit` to a throw-away folder (see the module doc). */
export function inputsAt(root: string, commit: string): InputsAtCommit {
  const top = workTreeOf(root)!;
  const prefix = relative(top, root).split('\\').join('/');
  const show = (rel: string) => git(top, ['show', `${commit}:${prefix ? `${prefix}/` : ''}${rel}`]);
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-at-'));
  const put = (rel: string, text: string | undefined) => {
    if (text === undefined) return;
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  const pinsText = show('schemas/pins.json');
  if (pinsText === undefined) return { commit, root: dir, dispose };
  let pins: Pin[];
  try {
    pins = (JSON.parse(pinsText) as { pins: Pin[] }).pins;
  } catch {
    dispose();
    return fail({ file: `schemas/pins.json@${commit.slice(0, 12)}`, message: 'not valid JSON' });
  }
  put('schemas/pins.json', pinsText);
  for (const rel of ['schemas/pins.schema.json', 'schemas/manifest/manifest.schema.json']) put(rel, show(rel));
  for (const pin of pins)
    for (const rel of [pin.schema, pin.proto, pin.manifest]) if (rel !== undefined) put(`schemas/${rel}`, show(`schemas/${rel}`));
  return { commit, root: dir, pins, dispose };
}
