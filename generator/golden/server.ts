/**
 * @module golden/server — the server a case runs against: the user's command plus the arguments its handler
 * set and notifications map to (`--handlers extended='--handlers extended'`, `--notifications
 * '--notifications'`), and the child process itself (stdout lines one at a time with a timeout, stderr kept
 * for failure messages, stdin closed and the exit awaited).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { CorpusCase } from './corpus.ts';

/** What a case's handler set and notifications add to the server command. */
export interface ServerArguments {
  /** Arguments per handler set; `base` adds none unless given. */
  readonly handlers: Readonly<Record<string, readonly string[]>>;
  /** Arguments of a server that delivers change notifications; undefined: cases that need one cannot run. */
  readonly notifications?: readonly string[];
}

/** The arguments a case adds, or why the case cannot run. */
export function argumentsFor(c: CorpusCase, mapping: ServerArguments): { args: string[] } | { missing: string } {
  const set = Object.hasOwn(mapping.handlers, c.handlers) ? mapping.handlers[c.handlers]! : c.handlers === 'base' ? [] : undefined;
  if (set === undefined) return { missing: `handler set ${JSON.stringify(c.handlers)}: give --handlers ${c.handlers}=<server arguments>` };
  if (!c.notifications) return { args: [...set] };
  if (mapping.notifications === undefined) return { missing: 'a server with notifications: give --notifications <server arguments>' };
  return { args: [...set, ...mapping.notifications] };
}

/** Splits an argument string on white space; single or double quotes keep a part whole. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

export type Line = { readonly kind: 'line'; readonly line: string } | { readonly kind: 'timeout' } | { readonly kind: 'eof' };

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** stdout lines nobody read. */
  readonly rest: readonly string[];
}

/** A server reached over one connection of lines: a process's stdio, or an in-process connection (inprocess.ts). */
export interface LineServer {
  send(line: string): void;
  nextLine(timeoutMs: number): Promise<Line>;
  /** What the server logged (a process's stderr), for failure messages. */
  stderr(): string;
  /** Ends the input and waits for the end; forced after `timeoutMs`. */
  close(timeoutMs: number): Promise<Exit>;
  kill(): void;
}

/** A server process: lines in, lines out. */
export class ServerProcess implements LineServer {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  readonly #waiters: Array<() => void> = [];
  #partial = '';
  #eof = false;
  #stderr = '';
  #exited = false;
  readonly #closed: Promise<void>;

  constructor(command: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    const [program, ...args] = command;
    if (!program) throw new Error('golden: empty server command');
    this.#child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const decoder = new StringDecoder('utf8');
    const wake = () => this.#waiters.splice(0).forEach((w) => w());
    this.#child.stdout!.on('data', (chunk: Buffer) => {
      const parts = (this.#partial + decoder.write(chunk)).split('\n');
      this.#partial = parts.pop()!;
      for (const p of parts) this.#lines.push(p.endsWith('\r') ? p.slice(0, -1) : p);
      wake();
    });
    this.#child.stdout!.on('end', () => {
      if (this.#partial) this.#lines.push(this.#partial);
      this.#partial = '';
      this.#eof = true;
      wake();
    });
    this.#child.stderr!.on('data', (chunk: Buffer) => (this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-16_384)));
    this.#child.stdin!.on('error', (err) => (this.#stderr += `\n[stdin: ${err.message}]`));
    this.#child.on('error', (err) => {
      this.#stderr += `\n[spawn: ${err.message}]`;
      this.#eof = true;
      wake();
    });
    this.#closed = new Promise<void>((resolve) => this.#child.on('close', () => ((this.#exited = true), resolve())));
  }

  send(line: string): void {
    if (this.#child.stdin!.writable) this.#child.stdin!.write(`${line}\n`);
  }

  async nextLine(timeoutMs: number): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.#lines.shift();
      if (line !== undefined) return { kind: 'line', line };
      if (this.#eof) return { kind: 'eof' };
      const left = deadline - Date.now();
      if (left <= 0) return { kind: 'timeout' };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  alive(): boolean {
    return !this.#exited;
  }

  stderr(): string {
    return this.#stderr;
  }

  /** Ends stdin and waits for the exit; kills the process after `timeoutMs`. */
  async close(timeoutMs: number): Promise<Exit> {
    this.#child.stdin!.end();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), this.kill()), timeoutMs);
    await this.#closed;
    clearTimeout(timer);
    return { code: this.#child.exitCode, signal: this.#child.signalCode, timedOut, rest: this.#lines.splice(0).filter((l) => l !== '') };
  }

  kill(): void {
    if (!this.#exited) this.#child.kill('SIGKILL');
  }

  /** Waits until the process exits (after kill). */
  finished(): Promise<void> {
    return this.#closed;
  }
}

/** Resolves once `url`'s host accepts TCP connections, or rejects after `timeoutMs` (or when `alive` turns false). */
export async function waitForPort(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  const target = { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || (protocol === 'https:' ? 443 : 80)) };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(target, () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (!alive()) throw new Error(`the server exited before ${url} accepted connections`);
    if (Date.now() > deadline) throw new Error(`${url} accepted no connection within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A TCP port free on 127.0.0.1 now (the system picks it; another process could take it before the server does). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
