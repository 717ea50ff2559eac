/**
 * @module bench/lib/proc — child processes: every server under test and the load generator run in a process
 * of their own, started with this Node (process.execPath, never a `node` found on PATH) and stopped by pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH = join(ROOT, 'bench');
export const NODE = process.execPath;
/** Node flags that load tsx, for the TypeScript children (peers are TypeScript like ours, so both pay the same loader). */
export const TSX = ['--import', 'tsx'];

/** Options shared by every bench child: extra node flags (e.g. --cpu-prof) for the servers that are ours. */
export interface ChildFlags {
  readonly nodeFlags?: readonly string[];
}

export interface RunningChild {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** The first stdout line, parsed (servers announce `{"url": …}` there). */
  readonly ready: Record<string, unknown>;
  readonly stderr: () => string;
  /** Closes stdin (a clean exit: profiles get written), then SIGTERM and SIGKILL by pid if it lingers. */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` in `cwd` = the project root and waits for its first stdout line (a JSON object).
 * Servers here signal readiness that way: ours prints `{"conformanceReady":true,"url":…}`, the peers `{"url":…}`.
 */
export async function startServer(name: string, args: readonly string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<RunningChild> {
  const child = spawn(NODE, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.length > 20_000) err = err.slice(-20_000);
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const ready = await new Promise<Record<string, unknown>>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`${name}: not ready after ${opts.timeoutMs ?? 30_000} ms\n${err}`)), opts.timeoutMs ?? 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      try {
        res(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
      } catch {
        rej(new Error(`${name}: first stdout line is not JSON: ${out.slice(0, nl)}`));
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${name}: exited (${code}) before ready\n${err}`));
    });
  });
  child.stdout!.resume();
  return {
    name,
    pid: child.pid!,
    child,
    ready,
    stderr: () => err,
    stop: () => stopChild(child, exited),
  };
}

export async function stopChild(child: ChildProcess, exited: Promise<void>, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  const timeout = (ms: number) => new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), ms).unref());
  if ((await Promise.race([exited, timeout(graceMs)])) !== 'timeout') return;
  if (child.pid) process.kill(child.pid, 'SIGTERM');
  if ((await Promise.race([exited, timeout(2_000)])) !== 'timeout') return;
  if (child.pid) process.kill(child.pid, 'SIGKILL');
  await exited;
}

/** Runs `node <args>` to completion and returns its stdout (throws with stderr on a non-zero exit unless allowed). */
export function runNode(args: readonly string[], opts: { cwd?: string; allowFail?: boolean; timeoutMs?: number } = {}): Promise<{ stdout: string; stderr: string; code: number | null; ms: number }> {
  const t0 = performance.now();
  const child = spawn(NODE, args, { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), opts.timeoutMs ?? 300_000);
  return new Promise((res, rej) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (code !== 0 && !opts.allowFail) rej(new Error(`node ${args.join(' ')} exited ${code}\n${stderr}`));
      else res({ stdout, stderr, code, ms });
    });
  });
}

/** Resident set size in MiB of the process `pid` alone. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

/**
 * Resident set size in MiB of `pid` and all its descendants. tsx starts an esbuild service process when its
 * transform cache is cold (after a source change), which this counts and `rssMiB` does not.
 */
export function treeRssMiB(pid: number): number {
  let kib = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const c of children ? children.split(/\s+/) : []) visit(Number(c));
      }
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return kib / 1024;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A child that answers each command line on stdin with one JSON line on stdout (the validation workers in
 * `--serve` mode). Its first line (`{"ready": true, …}`) is `ready`.
 */
export class LineChild {
  readonly #child: ChildProcess;
  readonly #waiting: ((line: string) => void)[] = [];
  readonly #exited: Promise<void>;
  #buf = '';
  #err = '';
  readonly ready: Promise<Record<string, unknown>>;

  constructor(args: readonly string[]) {
    this.#child = spawn(NODE, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#exited = new Promise((r) => this.#child.once('exit', () => r()));
    this.#child.stderr!.on('data', (d: Buffer) => (this.#err += d.toString()));
    this.#child.stdout!.setEncoding('utf8');
    this.#child.stdout!.on('data', (chunk: string) => {
      this.#buf += chunk;
      let nl;
      while ((nl = this.#buf.indexOf('\n')) >= 0) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        this.#waiting.shift()?.(line);
      }
    });
    this.ready = this.#next();
    this.#child.once('exit', (code) => {
      if (code) for (const w of this.#waiting.splice(0)) w(JSON.stringify({ error: `exited ${code}: ${this.#err.slice(-2000)}` }));
    });
  }

  #next(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) =>
      this.#waiting.push((line) => {
        const v = JSON.parse(line) as Record<string, unknown>;
        if (v['error']) reject(new Error(String(v['error'])));
        else resolve(v);
      }),
    );
  }

  command(line: string): Promise<Record<string, unknown>> {
    const answer = this.#next();
    this.#child.stdin!.write(line + '\n');
    return answer;
  }

  stop(): Promise<void> {
    return stopChild(this.#child, this.#exited);
  }
}
