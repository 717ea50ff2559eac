/**
 * @module scripts/api-report/packages — what the report covers: every workspace package (the root
 * package.json's `workspaces`, a trailing `/*` meaning each child folder with a package.json) and every entry
 * point of its `exports`, each mapped back to the source it is built from (as scripts/build.mjs maps them:
 * `./dist/mcp/index.js` ← `mcp/index.ts`, or a hand-written `.d.ts` beside a `.js` source).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One `exports` key of a package. */
export interface EntryPoint {
  /** The import specifier a user writes: `@wiregen/runtime/jsonrpc`. */
  readonly specifier: string;
  /** The `exports` key: `./jsonrpc`. */
  readonly subpath: string;
  /** The TypeScript source (or declaration) the entry is built from, relative to the repository root. */
  readonly source?: string;
  /** A file exported as it is (a JSON schema, package.json), relative to the package folder. */
  readonly file?: string;
}

export interface WorkspacePackage {
  readonly name: string;
  /** The folder, relative to the repository root (posix separators). */
  readonly dir: string;
  /** Generated from a pinned schema (`wiregen.pin` in its package.json). */
  readonly pin: boolean;
  readonly entries: readonly EntryPoint[];
}

interface Manifest {
  name: string;
  exports?: Record<string, string | { types?: string; default?: string }>;
  wiregen?: { pin?: string };
}

/** The workspace folders, in the order the root package.json lists them (children of a `/*` sorted). */
export function workspaceDirs(root: string): string[] {
  const patterns = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  return patterns.flatMap((p) =>
    p.endsWith('/*')
      ? readdirSync(join(root, p.slice(0, -2)))
          .sort()
          .map((d) => `${p.slice(0, -2)}/${d}`)
          .filter((d) => existsSync(join(root, d, 'package.json')))
      : [p],
  );
}

/** The source of a built target: `./dist/core/index.d.ts` → `core/index.ts` (or `core/index.d.ts`). */
function sourceOf(root: string, dir: string, target: string): string | undefined {
  const built = target.replace(/^\.\/dist\//, '').replace(/(\.d\.ts|\.js)$/, '');
  const found = [`${built}.ts`, `${built}.d.ts`].find((f) => existsSync(join(root, dir, f)));
  return found && `${dir}/${found}`;
}

export function workspacePackages(root: string): WorkspacePackage[] {
  return workspaceDirs(root).map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest;
    const entries = Object.entries(manifest.exports ?? {}).map(([subpath, target]): EntryPoint => {
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      if (typeof target === 'string') return { specifier, subpath, file: target.replace(/^\.\//, '') };
      const built = target.types ?? target.default;
      const source = built && sourceOf(root, dir, built);
      if (!source) throw new Error(`${dir}/package.json: exports["${subpath}"] has no TypeScript source in ${dir}/`);
      return { specifier, subpath, source };
    });
    return { name: manifest.name, dir, pin: Boolean(manifest.wiregen?.pin), entries };
  });
}

/** The report file of a package: its name without the scope (`@wiregen/runtime` → `runtime.api.md`). */
export function reportFile(name: string): string {
  return `${name.replace(/^@[^/]+\//, '')}.api.md`;
}
