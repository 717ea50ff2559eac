/**
 * @module test/helpers/stdio-server — one child process speaking newline-delimited JSON-RPC on stdio, as the
 * tests see it: write lines to stdin, read stdout one line at a time (with a timeout), keep stderr for
 * failure messages, close stdin and collect the exit status and any lines nobody read.
 *
 * Contract of the server under test (the default command): `node bin/wiregen.mjs serve recorded-server
 * --stdio`, run from the project root; one message per line on stdout and nothing else; logs on stderr;
 * exits 0 once stdin is closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { ROOT } from './project.ts';

/**
 * The MCP stdio server the replay and bad-input tests run. The environment variable WIREGEN_TEST_SERVER (a
 * JSON array of argv) replaces it, e.g. to try the tests on another implementation of the recorded server.
 */
export const SERVER_COMMAND: readonly string[] = process.env['WIREGEN_TEST_SERVER']
  ? (JSON.parse(process.env['WIREGEN_TEST_SERVER']) as string[])
  : [process.execPath, 'bin/wiregen.mjs', 'serve', 'recorded-server', '--stdio'];

/** How long to wait for one expected stdout line. */
export const LINE_TIMEOUT_MS = 10_000;
/** How long the process may take to exit once stdin is closed. */
export const EXIT_TIMEOUT_MS = 10_000;
/** How much of stderr is kept (the tail) for failure messages. */
const STDERR_KEEP = 64 * 1024;

export interface StartOptions {
  /** argv, program first. Default: SERVER_COMMAND. */
  readonly command?: readonly string[];
  /** Working directory. Default: the project root. */
  readonly cwd?: string;
}

export type LineResult = { readonly kind: 'line'; readonly line: string } | { readonly kind: 'timeout' } | { readonly kind: 'eof' };

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the process did not exit in time and was killed. */
  readonly timedOut: boolean;
  /** stdout lines that arrived and were never read with nextLine. */
  readonly rest: readonly string[];
}

export interface StdioServer {
  readonly command: readonly string[];
  /** Writes `text` and a newline to stdin, exactly as given. */
  send(text: string): void;
  /** Writes JSON.stringify(message) and a newline. */
  sendJson(message: unknown): void;
  /** The next stdout line; `timeout` if none came in time, `eof` if stdout ended with nothing left to read. */
  nextLine(timeoutMs?: number): Promise<LineResult>;
  /** True while the process has neither exited nor been killed. */
  alive(): boolean;
  /** The last 64 kB of stderr, plus any spawn or stdin error. */
  stderr(): string;
  /** Ends stdin and waits for the process (and its stdout) to close; kills it after `timeoutMs`. */
  close(timeoutMs?: number): Promise<Exit>;
  /** Kills the process if it is still running (for `finally` blocks). */
  kill(): void;
}

export function startServer(options: StartOptions = {}): StdioServer {
  const command = options.command ?? SERVER_COMMAND;
  const [program, ...args] = command;
  if (!program) throw new Error('startServer: empty command');
  const child: ChildProcess = spawn(program, args, { cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });

  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let partial = '';
  let eof = false;
  let errText = '';
  const wake = () => waiters.splice(0).forEach((w) => w());
  const noteErr = (text: string) => (errText = (errText + text).slice(-STDERR_KEEP));

  const decoder = new StringDecoder('utf8');
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + decoder.write(chunk)).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    if (parts.length > 0) wake();
  });
  child.stdout!.on('end', () => {
    const last = partial + decoder.end();
    if (last !== '') lines.push(last); // a last line without its newline still counts as output
    eof = true;
    wake();
  });
  const errDecoder = new StringDecoder('utf8');
  child.stderr!.on('data', (chunk: Buffer) => noteErr(errDecoder.write(chunk)));
  child.on('error', (e) => {
    noteErr(`\n[harness] process error: ${e.message}\n`);
    eof = true; // a process that failed to spawn never writes
    wake();
  });
  // Writing to a process that has exited raises EPIPE on stdin; the test reports the exit instead.
  child.stdin!.on('error', (e) => noteErr(`\n[harness] stdin: ${e.message}\n`));

  const closed = new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.on('error', () => resolve());
  });
  const alive = () => child.exitCode === null && child.signalCode === null && !child.killed;

  return {
    command,
    send(text) {
      if (child.stdin!.writable) child.stdin!.write(`${text}\n`);
      else noteErr('\n[harness] stdin no longer writable\n');
    },
    sendJson(message) {
      this.send(JSON.stringify(message));
    },
    nextLine(timeoutMs = LINE_TIMEOUT_MS) {
      return new Promise<LineResult>((resolve) => {
        const attempt = (): boolean => {
          const ready: LineResult | undefined = lines.length > 0 ? { kind: 'line', line: lines.shift()! } : eof ? { kind: 'eof' } : undefined;
          if (ready) resolve(ready);
          return ready !== undefined;
        };
        if (attempt()) return;
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          resolve({ kind: 'timeout' });
        }, timeoutMs);
        const waiter = () => {
          if (attempt()) clearTimeout(timer);
          else waiters.push(waiter);
        };
        waiters.push(waiter);
      });
    },
    alive,
    stderr: () => errText,
    async close(timeoutMs = EXIT_TIMEOUT_MS) {
      child.stdin!.end();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      await closed;
      clearTimeout(timer);
      return { code: child.exitCode, signal: child.signalCode, timedOut, rest: lines.splice(0) };
    },
    kill() {
      if (alive()) child.kill('SIGKILL');
    },
  };
}
