/**
 * @module test/interop/helpers — servers for the interop suites: `wiregen serve <sample>` over stdio or
 * Streamable HTTP (its ready line gives the URL), and the official server-everything over stdio or HTTP,
 * bound to 127.0.0.1 (test/interop/loopback-only.mjs). Every process started here is killed by `stopAll`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { ROOT } from '../helpers/project.ts';

const require = createRequire(import.meta.url);
export const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
export const LOOPBACK_ONLY = join(ROOT, 'test', 'interop', 'loopback-only.mjs');
export const WIREGEN = join(ROOT, 'bin', 'wiregen.mjs');
/** `wiregen serve <sample> --stdio`, as a command and its arguments (for the SDKs' stdio transports). */
export const serveStdio = (sample: string, ...extra: string[]) => ({
  command: process.execPath,
  args: [WIREGEN, 'serve', sample, '--stdio', ...extra],
  cwd: ROOT,
});

const children: ChildProcess[] = [];
export function stopAll(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** A TCP port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `args` (node) and resolves once `ready` matches its output (stdout or stderr), with the match. */
function startUntil(args: readonly string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms: ${args.join(' ')}\n${seen.slice(-2000)}`)), timeoutMs);
    const look = (d: Buffer) => {
      seen += d.toString();
      const m = seen.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before it was ready: ${args.join(' ')}\n${seen.slice(-2000)}`));
    });
  });
}

/** `wiregen serve <sample> --http 0`: its Streamable HTTP URL. */
export async function serveHttp(sample: string, ...extra: string[]): Promise<URL> {
  const m = await startUntil([WIREGEN, 'serve', sample, '--http', '0', '--exit-on-stdin-close', ...extra], /\{"ready":true,"url":"([^"]+)"\}/);
  return new URL(m[1]!);
}

/** server-everything over Streamable HTTP on 127.0.0.1: its /mcp URL. */
export async function everythingHttp(): Promise<URL> {
  const port = await freePort();
  await startUntil(['--import', LOOPBACK_ONLY, EVERYTHING, 'streamableHttp'], /listening on port/, { PORT: String(port) });
  return new URL(`http://127.0.0.1:${port}/mcp`);
}
