/**
 * @module test/fuzz/harness/process — a server under fuzz: `wiregen serve <sample>` started from sources
 * (bin/wiregen.mjs), its stderr kept (the tail), its death noticed, its resident memory sampled from
 * /proc/<pid>/status (Linux; elsewhere the samples are absent and the bound is not checked).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ROOT } from '../../helpers/project.ts';

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Set when the process exited before `stop`. */
  readonly died: () => string | undefined;
  stderr(): string;
  /** The resident set in MB, or undefined when it cannot be read. */
  rssMb(): number | undefined;
  stop(): Promise<void>;
}

/** Starts `node bin/wiregen.mjs serve ...args` (or `command` when given: argv, program first). */
export function startServe(args: readonly string[], command?: readonly string[]): ServerProcess {
  const [program, ...rest] = command ?? [process.execPath, 'bin/wiregen.mjs', 'serve', ...args];
  const child = spawn(program!, rest, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let death: string | undefined;
  let stopping = false;
  child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString('utf8')).slice(-8192)));
  child.on('exit', (code, signal) => {
    if (!stopping) death = `exited with ${code ?? signal}; stderr: ${err.slice(-1500)}`;
  });
  child.stdin.on('error', () => {});
  return {
    child,
    died: () => death,
    stderr: () => err,
    rssMb() {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return m ? Number(m[1]) / 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => (clearTimeout(timer), resolve()));
        child.stdin.end();
      });
    },
  };
}

/** The first stdout line of an HTTP `serve` (its ready line), parsed; rejects after `timeoutMs`. */
export function readyLine(server: ServerProcess, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.child.stdout });
    const timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs} ms: ${server.stderr()}`)), timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      resolve(JSON.parse(line) as Record<string, unknown>);
    });
  });
}
