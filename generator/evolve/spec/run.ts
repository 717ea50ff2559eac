/**
 * @module evolve/spec/run — `wiregen diff` in a user's project: their contract is their spec (server.yaml,
 * agent.yaml), so `--against <git-ref>` compares the spec in the working tree with the committed one, and two
 * spec files are compared with each other (evolve/spec/diff.ts says what is compared and how it is classed).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fail } from '../../errors.ts';
import { isObject, type JsonObject } from '../../load/schema.ts';
import { readYaml } from '../../load/yaml.ts';
import { fileAt, resolveCommit } from '../git.ts';
import type { Comparison } from '../report.ts';
import { diffSpecs, isAgentSpec, type SpecVersion } from './diff.ts';

/** What `wiregen init` names a project's spec. */
const DEFAULT_SPECS = ['server.yaml', 'server.yml', 'server.json', 'agent.yaml', 'agent.yml', 'agent.json'];

/** Whether an argument names a spec file rather than a pin. */
export const isSpecPath = (arg: string): boolean => /\.(ya?ml|json)$/i.test(arg);

/**
 * The project's specs: those its package.json scripts generate (`--spec <file>`, as `wiregen init` writes the
 * generate script), else the spec files `wiregen init` names that are there.
 */
export function projectSpecs(root: string): string[] {
  const found = new Set<string>();
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    for (const script of Object.values(pkg.scripts ?? {}))
      if (typeof script === 'string')
        for (const m of script.matchAll(/--spec(?:=|\s+)("[^"]+"|'[^']+'|\S+)/g)) found.add(m[1]!.replace(/^["']|["']$/g, ''));
  } catch {
    // no package.json, or not JSON: the default names
  }
  return found.size ? [...found] : DEFAULT_SPECS.filter((f) => existsSync(join(root, f)));
}

/** A spec file read for comparing: any YAML or JSON object (the spec format's checks are generate's). */
function readVersion(path: string, file: string): SpecVersion {
  const { data, locate } = readYaml(path, file);
  if (!isObject(data)) fail({ file, message: 'is not a spec: its top level is not a mapping' });
  return { file, data, locate };
}

/** The spec `rel` (relative to `root`) at `commit`, named `<rel>@<ref>`; undefined when the commit has none. */
function committedVersion(root: string, commit: string, rel: string, ref: string): SpecVersion | undefined {
  const text = fileAt(root, commit, rel);
  if (text === undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-spec-'));
  try {
    const path = join(dir, basename(rel));
    writeFileSync(path, text);
    return readVersion(path, `${rel}@${ref}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A spec of the other's kind with nothing in it: what a spec added or removed is compared with. */
function nothing(file: string, like: JsonObject): SpecVersion {
  return { file, data: isAgentSpec(like) ? { card: {} } : {}, locate: () => undefined };
}

/** Each spec (or the project's) in the working tree against `ref`. */
export function specsAgainst(root: string, ref: string, given: readonly string[]): Comparison[] {
  const specs = given.length ? given.map((g) => relative(root, resolve(root, g)) || g) : projectSpecs(root);
  if (!specs.length)
    fail({
      file: 'wiregen diff',
      message: `no schemas/pins.json (the wiregen repository's pins) and no spec here (${DEFAULT_SPECS.slice(0, 4).join(', ')}, …): name yours, e.g. wiregen diff --against ${ref} server.yaml`,
    });
  const commit = resolveCommit(root, ref);
  return specs.map((rel): Comparison => {
    const abs = join(root, rel);
    const now = existsSync(abs) ? readVersion(abs, rel) : undefined;
    const was = committedVersion(root, commit, rel, ref);
    if (!now && !was) fail({ file: rel, message: `no such spec here or at ${ref}` });
    const a = was ?? nothing(`${rel}@${ref}`, now!.data);
    const b = now ?? nothing(rel, was!.data);
    return { from: `${rel}@${ref}`, to: rel, findings: diffSpecs(a, b) };
  });
}

/** Two spec files (relative to `root`) compared. */
export function twoSpecs(root: string, fileA: string, fileB: string): Comparison[] {
  const read = (f: string) => {
    const abs = resolve(root, f);
    if (!existsSync(abs)) fail({ file: f, message: 'no such file' });
    return readVersion(abs, f);
  };
  const [a, b] = [read(fileA), read(fileB)];
  return [{ from: fileA, to: fileB, findings: diffSpecs(a, b) }];
}
