/**
 * @module test/consumer/packages — what a user installs: every workspace package built (`npm run build`) and
 * packed (`npm pack`) into tarballs, and a throw-away project outside the repository that installs them the way
 * a user's project does (`npm install <tarball>…`), type-checks with tsc and runs on plain Node (no tsx, no
 * loader). Installs prefer the npm cache the repository's own `npm ci` filled (the registry is asked only for
 * what is missing from it).
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/project.ts';

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `cmd args`; returns stdout, throws with stdout and stderr on a non-zero exit. */
export function run(cmd: string, args: readonly string[], options: ExecFileSyncOptions): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }) as string;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** The workspace packages, by name: folder and manifest. */
export function workspacePackages(): Map<string, { dir: string; version: string }> {
  const patterns = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  const dirs = patterns.flatMap((p) =>
    p.endsWith('/*')
      ? readdirSync(join(ROOT, p.slice(0, -2)))
          .map((d) => join(p.slice(0, -2), d))
          .filter((d) => existsSync(join(ROOT, d, 'package.json')))
      : [p],
  );
  return new Map(
    dirs.map((dir) => {
      const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; version: string };
      return [pkg.name, { dir, version: pkg.version }];
    }),
  );
}

export interface Packed {
  /** Where the tarballs are. */
  readonly dir: string;
  /** Package name → tarball path. */
  readonly tarballs: ReadonlyMap<string, string>;
  dispose(): void;
}

/** Held while a test file builds: .build/ and every dist/ are rewritten by one build at a time. */
const BUILD_LOCK = join(ROOT, 'node_modules', '.wiregen-build.lock');

/**
 * Runs `f` holding the build lock, one at a time across the test files that run in parallel (the consumer
 * test and the registry round trip build then pack what they built; the release dry run packs): a lock
 * folder, taken with an atomic mkdir, waited for (a lock older than ten minutes is left from a killed run and
 * taken over).
 */
export function underBuildLock<T>(f: () => T): T {
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      const taken = statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs;
      if (taken === undefined) continue;
      if (Date.now() - taken > 600_000 || Date.now() > deadline) {
        rmSync(BUILD_LOCK, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return f();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** `npm run build` (scripts/build.mjs) then `then()`, under the build lock. */
function buildThen<T>(then: () => T): T {
  return underBuildLock(() => {
    run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
    return then();
  });
}

/** Builds every package and packs each into a tarball. */
export function buildAndPack(): Packed {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-packs-'));
  const out = buildThen(() => run(NPM, ['pack', '--workspaces', '--json', '--pack-destination', dir], { cwd: ROOT }));
  const list = JSON.parse(out) as { name: string; filename: string; files: { path: string }[] }[];
  const tarballs = new Map(list.map((p) => [p.name, join(dir, p.filename)]));
  return { dir, tarballs, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The files a packed package ships, by package name (from `npm pack --dry-run --json`). */
export function packedFiles(): Map<string, string[]> {
  const out = run(NPM, ['pack', '--workspaces', '--dry-run', '--json'], { cwd: ROOT });
  const list = JSON.parse(out) as { name: string; files: { path: string }[] }[];
  return new Map(list.map((p) => [p.name, p.files.map((f) => f.path)]));
}

export interface ConsumerProject {
  readonly root: string;
  path(rel: string): string;
  /** Runs `cmd args` in the project; returns stdout (throws with stdout and stderr on a non-zero exit). */
  exec(cmd: string, args: readonly string[]): string;
  dispose(): void;
}

const ENV = { ...process.env, npm_config_update_notifier: 'false' };

/**
 * Installs our packages into the project at `root` (made with a package.json if it has none) from the tarballs,
 * which stand in for the registry: the packages its package.json names, and those only ours depend on (the
 * registry of pins, the pins the runtime loads). Everything else comes from the npm cache where it can.
 */
export function installTarballs(root: string, packed: Packed, extra: readonly string[]): void {
  mkdirSync(root, { recursive: true });
  const pkgPath = join(root, 'package.json');
  if (!existsSync(pkgPath)) writeFileSync(pkgPath, `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const dependencies = { ...pkg.dependencies };
  const devDependencies = { ...pkg.devDependencies };
  for (const [name, tarball] of packed.tarballs) {
    if (name in devDependencies) devDependencies[name] = `file:${tarball}`;
    else dependencies[name] = `file:${tarball}`;
  }
  writeFileSync(pkgPath, `${JSON.stringify({ ...pkg, dependencies, devDependencies }, null, 2)}\n`);
  run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...extra], { cwd: root, env: ENV });
}

/**
 * A project outside the repository made from `example` (a folder of examples/, copied without node_modules or
 * generated output), with our tarballs installed in place of the registry versions its package.json names.
 */
export function consumerProject(example: string, packed: Packed, extra: readonly string[] = []): ConsumerProject {
  const root = mkdtempSync(join(tmpdir(), `wiregen-consumer-${example}-`));
  cpSync(join(ROOT, 'examples', example), root, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist)([/\\]|$)/.test(src),
  });
  installTarballs(root, packed, extra);
  const exec = (cmd: string, args: readonly string[]) => run(cmd, args, { cwd: root, env: ENV });
  return { root, path: (rel) => join(root, rel), exec, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
