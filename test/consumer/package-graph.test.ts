/**
 * @module test/consumer/package-graph — the graph of the workspace packages, as npm installs them: every package
 * of ours that a package's sources import (static imports and re-exports, `import()`, `require()`, read by
 * TypeScript's import scanner, so a specifier inside a string or template is not one) must be in its
 * `dependencies` or `peerDependencies` (a `devDependencies` entry is not installed for a user), and the
 * declared edges between our packages must form no cycle. The graph is printed, one edge a line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as core from '@wiregen/core';
import * as runtimeCore from '@wiregen/runtime/core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { workspacePackages } from './packages.ts';

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

/** The modules a package ships or builds from: TypeScript and JavaScript, without dist/ and node_modules/. */
const MODULE = /\.(?:[cm]?ts|[cm]?js)$/;

function* modules(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) {
      if (name !== 'dist' && name !== 'node_modules') yield* modules(abs);
    } else if (MODULE.test(name)) yield abs;
  }
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for a relative or node: one. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const packages = [...workspacePackages()].map(([name, { dir }]) => ({
  name,
  dir,
  manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest,
}));
const ours = new Set(packages.map((p) => p.name));

/** A relative import that leaves its package's folder (`file: specifier`): the package would not work installed. */
const escapes: string[] = [];

/** Per package: each package of ours its sources import, with the first file that does. */
const imports = new Map(
  packages.map(({ name, dir }) => {
    const found = new Map<string, string>();
    const root = join(ROOT, dir);
    for (const file of modules(root)) {
      for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        const target = packageOf(fileName);
        if (target && target !== name && ours.has(target) && !found.has(target)) found.set(target, relative(ROOT, file));
        if (fileName.startsWith('.') && relative(root, resolve(dirname(file), fileName)).startsWith('..'))
          escapes.push(`${relative(ROOT, file)}: ${fileName}`);
      }
    }
    return [name, found];
  }),
);

/** Per package: the packages of ours it declares, and how. */
const declared = new Map(
  packages.map(({ name, manifest }) => {
    const edges = new Map<string, string>();
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const)
      for (const dep of Object.keys(manifest[field] ?? {})) if (ours.has(dep)) edges.set(dep, field);
    return [name, edges];
  }),
);

/** Per package: the packages of ours it declares or imports (an undeclared import is an edge too). */
const edges = new Map(packages.map(({ name }) => [name, [...new Set([...declared.get(name)!.keys(), ...imports.get(name)!.keys()])].sort()]));

/** A cycle of the graph as the path that closes it (`a → b → a`), or undefined when there is none. */
function findCycle(): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const name of [...ours].sort()) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('the package graph', () => {
  it('is printed: one edge a line, how it is declared and whether the sources import it', () => {
    const lines = packages.flatMap(({ name }) =>
      edges.get(name)!.map((dep) => {
        const how = [declared.get(name)!.get(dep) ?? 'NOT DECLARED', ...(imports.get(name)!.has(dep) ? ['imported'] : [])];
        return `${name} -> ${dep} (${how.join(', ')})`;
      }),
    );
    process.stdout.write(`package graph (${packages.length} packages, ${lines.length} edges):\n${lines.map((l) => `  ${l}\n`).join('')}`);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('declares every package of ours a package imports (dependencies or peerDependencies)', () => {
    const undeclared = packages.flatMap(({ name }) =>
      [...imports.get(name)!]
        .filter(([dep]) => !declared.get(name)!.has(dep))
        .map(([dep, file]) => `${name} imports ${dep} (${file}) without declaring it`),
    );
    expect(undeclared).toEqual([]);
  });

  it('declares each package of ours at the version its workspace folder holds', () => {
    const versions = new Map(packages.map((p) => [p.name, (p.manifest as Manifest & { version: string }).version]));
    const stale = packages.flatMap(({ name, manifest }) =>
      [...declared.get(name)!]
        .map(([dep, field]) => ({ dep, range: manifest[field as 'dependencies']![dep] }))
        .filter(({ dep, range }) => range !== versions.get(dep))
        .map(({ dep, range }) => `${name} declares ${dep} ${range}, the workspace has ${versions.get(dep)}`),
    );
    expect(stale).toEqual([]);
  });

  it('imports no file of another package by a relative path', () => {
    expect(escapes).toEqual([]);
  });

  it('has no cycle', () => {
    const cycle = findCycle();
    expect(cycle?.join(' -> ')).toBeUndefined();
  });

  it('has @wiregen/core as its leaf: it depends on no package of ours, and every pin package depends on it', () => {
    expect([...declared.get('@wiregen/core')!.keys()]).toEqual([]);
    expect([...imports.get('@wiregen/core')!.keys()]).toEqual([]);
    const pins = packages.filter((p) => p.dir.startsWith('generated/') && p.name !== '@wiregen/revisions');
    expect(pins.length).toBeGreaterThan(0);
    for (const pin of pins) expect(declared.get(pin.name)!.get('@wiregen/core'), pin.name).toBe('dependencies');
  });

  it('re-exports every value of @wiregen/core from @wiregen/runtime/core, as it is (runtime/core/index.ts names them)', () => {
    expect(Object.keys(runtimeCore).sort()).toEqual(Object.keys(core).sort());
    const reexported = new Map(Object.entries(runtimeCore));
    for (const [name, value] of Object.entries(core)) expect(reexported.get(name), name).toBe(value);
  });
});
