/**
 * @module bench/lib/proc — child processes: every server under test, every validation worker and the load
 * generator run in a process of their own, started with this Node (process.execPath, never a `node` found on
 * PATH) in the project root and stopped by pid. One class reads a child's stdout line by line (`NodeChild`);
 * the servers' ready line (`startServer`), the validation workers' command/answer lines (`CommandChild`) and
 * the MCP stdio client (stdio-client.ts) are built on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export { sleep };

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH = join(ROOT, 'bench');
export const NODE = process.execPath;
/**
 * The environment every child runs in: this one without NODE_EXTRA_CA_CERTS. A machine that sets it (this
 * one does: a CA bundle for its network proxy) makes Node read and parse that bundle when it starts, before
 * any code of the script runs: here an empty script starts in about 29 ms without it and 72 ms with it, for
 * ours and every peer alike. No server or worker of the bench opens a TLS connection. The startup part also
 * times one cold start with the environment as it is (bench/startup/index.ts).
 */
export const CHILD_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
/** Node flags that load tsx, for the bench's own TypeScript children (the validation workers); no server runs under it. */
export const TSX = ['--import', 'tsx'];
/** How long a server may take to print its ready line. */
const READY_TIMEOUT_MS = 30_000;
/** How much of a child's stderr is kept (the tail), for error messages. */
const STDERR_KEEP = 20_000;

/**
 * `node <args>` in the project root, its stdout read line by line: each complete line goes to `onLine` as it
 * arrives; `onExit` hears of the exit with the tail of stderr. `stop()` closes stdin (a clean exit: profiles
 * get written), then sends SIGTERM and SIGKILL by pid if the child lingers.
 */
export class NodeChild {
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #buf = '';
  #err = '';

  constructor(
    args: readonly string[],
    onLine: (line: string) => void,
    onExit: (code: number | null, stderr: string) => void = () => {},
    env: NodeJS.ProcessEnv = CHILD_ENV,
  ) {
    this.#child = spawn(NODE, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env });
    this.#exited = new Promise((r) => this.#child.once('exit', () => r()));
    this.#child.once('exit', (code) => onExit(code, this.#err));
    // Writing to a child that has exited: onExit reports the exit.
    this.#child.stdin!.on('error', () => {});
    this.#child.stderr!.on('data', (d: Buffer) => (this.#err = (this.#err + d.toString()).slice(-STDERR_KEEP)));
    this.#child.stdout!.setEncoding('utf8');
    this.#child.stdout!.on('data', (chunk: string) => {
      this.#buf += chunk;
      let nl: number;
      while ((nl = this.#buf.indexOf('\n')) >= 0) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        onLine(line);
      }
    });
  }

  get pid(): number {
    return this.#child.pid!;
  }

  /** Writes `line` and a newline to stdin. */
  write(line: string): void {
    this.#child.stdin!.write(`${line}\n`);
  }

  async stop(graceMs = 5_000): Promise<void> {
    const child = this.#child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin!.end();
    const timeout = (ms: number) => sleep(ms, 'timeout' as const, { ref: false });
    if ((await Promise.race([this.#exited, timeout(graceMs)])) !== 'timeout') return;
    if (child.pid) process.kill(child.pid, 'SIGTERM');
    if ((await Promise.race([this.#exited, timeout(2_000)])) !== 'timeout') return;
    if (child.pid) process.kill(child.pid, 'SIGKILL');
    await this.#exited;
  }
}

export interface RunningChild {
  readonly name: string;
  readonly pid: number;
  /** The first stdout line, parsed (servers announce `{"url": …}` there). */
  readonly ready: Record<string, unknown>;
  /** Closes stdin, then SIGTERM and SIGKILL by pid if it lingers. */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` and waits for its first stdout line (a JSON object); later lines are ignored.
 * Servers here signal readiness that way: ours prints `{"conformanceReady":true,"url":…}` or
 * `{"ready":true,"url":…}`, the peers `{"url":…}`.
 */
export async function startServer(name: string, args: readonly string[]): Promise<RunningChild> {
  let settle: { ok(line: string): void; fail(why: string): void } | undefined;
  const first = new Promise<string>((ok, fail) => (settle = { ok, fail: (why) => fail(new Error(`${name}: ${why}`)) }));
  const child = new NodeChild(
    args,
    (line) => {
      settle?.ok(line);
      settle = undefined;
    },
    (code, stderr) => settle?.fail(`exited (${code}) before ready\n${stderr}`),
  );
  const timer = setTimeout(() => settle?.fail(`not ready after ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
  try {
    const line = await first;
    try {
      return { name, pid: child.pid, ready: JSON.parse(line) as Record<string, unknown>, stop: () => child.stop() };
    } catch {
      throw new Error(`${name}: first stdout line is not JSON: ${line}`);
    }
  } catch (err) {
    await child.stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A child that answers each command line on stdin with one JSON line on stdout (the validation workers).
 * Its first line (`{"ready": true, …}`) is `ready`; an answer `{"error": …}`, or the child exiting while an
 * answer is awaited, rejects.
 */
export class CommandChild {
  readonly #child: NodeChild;
  readonly #waiting: { ok(v: Record<string, unknown>): void; fail(e: Error): void }[] = [];
  readonly ready: Promise<Record<string, unknown>>;

  /** `env`: the child's environment (default this process's). */
  constructor(args: readonly string[], env: NodeJS.ProcessEnv = CHILD_ENV) {
    this.#child = new NodeChild(
      args,
      (line) => {
        const w = this.#waiting.shift();
        if (!w) return;
        const v = JSON.parse(line) as Record<string, unknown>;
        if (v['error']) w.fail(new Error(String(v['error'])));
        else w.ok(v);
      },
      (code, stderr) => {
        for (const w of this.#waiting.splice(0)) w.fail(new Error(`exited (${code}): ${stderr.slice(-2000)}`));
      },
      env,
    );
    this.ready = this.#next();
  }

  #next(): Promise<Record<string, unknown>> {
    return new Promise((ok, fail) => this.#waiting.push({ ok, fail }));
  }

  command(line: string): Promise<Record<string, unknown>> {
    const answer = this.#next();
    this.#child.write(line);
    return answer;
  }

  stop(): Promise<void> {
    return this.#child.stop();
  }
}

/** Runs `node <args>` to completion and returns its stdout (throws with stderr on a non-zero exit). */
export function runNode(
  args: readonly string[],
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string; code: number | null; ms: number }> {
  const t0 = performance.now();
  const child = spawn(NODE, args, { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: CHILD_ENV });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), opts.timeoutMs ?? 300_000);
  return new Promise((res, rej) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (code !== 0) rej(new Error(`node ${args.join(' ')} exited ${code}\n${stderr}`));
      else res({ stdout, stderr, code, ms });
    });
  });
}
