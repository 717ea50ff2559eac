/**
 * @module bench/cold-runtimes/spawn — one cold start of one server on one runtime: spawn, its ready line
 * `{"url": …}` on stdout (printed once it listens: the same rule for every runtime and peer), a 2026-07-28
 * `tools/call` POSTed to it at once (node:http, no keep-alive), until its answer. The child is spawned in a
 * process group of its own and the group is killed after the answer, so that a runtime's own children
 * (workerd under miniflare) end with it.
 */
import { spawn } from 'node:child_process';
import { probe, urlOf, type HttpRequest } from '../lib/load.ts';

/** A server as spawned: the binary, its arguments, its environment. */
export interface Launch {
  readonly binary: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** How long a start may take before it counts as failed. */
const START_TIMEOUT_MS = 30_000;

/** Spawn to the answer of the first request, in ms; throws with what the server printed when it fails. */
export async function coldStart(label: string, launch: Launch, request: HttpRequest, check: (json: unknown) => boolean): Promise<number> {
  const t0 = performance.now();
  const child = spawn(launch.binary, launch.args, { stdio: ['pipe', 'pipe', 'pipe'], env: launch.env, detached: true });
  let out = '';
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label}: not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"url"'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as Record<string, unknown>);
        }
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${label}: exited ${code} before it was ready: ${(err || out).trim().split('\n').slice(-3).join(' | ')}`));
      });
    });
    const answer = await probe(urlOf(ready, request), request.headers, request.body);
    const ms = performance.now() - t0;
    if (answer.status !== 200 || !check(answer.json)) throw new Error(`${label}: answered ${answer.status} ${answer.text.slice(0, 300)}`);
    return ms;
  } finally {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
}
