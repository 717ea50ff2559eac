/**
 * @module test/soak/harness/processes — the soak run's server processes (server.ts): each started with tsx
 * and --expose-gc (each sample follows a full GC),
 * known by its pid, its `STATS` lines collected as samples, stopped by closing its stdin (SIGKILL by its pid
 * when it does not exit within 5 s).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ProcessSample } from './server.ts';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

export interface ServerProcess {
  readonly name: 'mcp' | 'a2a';
  readonly pid: number;
  readonly url: string;
  /** Every sample the process reported, in order. */
  readonly samples: ProcessSample[];
  /** Its exit code or signal when it exited before `stop()`, else undefined. */
  died(): string | undefined;
  /** Output on stderr, the last 8 KiB. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `server.ts <name> [...args]` and resolves once it printed its URL (rejects after `timeoutMs`, which
 * covers the agent's prefill).
 */
export function startServer(name: 'mcp' | 'a2a', args: readonly string[] = [], timeoutMs = 120_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SERVER, name, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  let log = '';
  let stopping = false;
  let exit: string | undefined;
  const samples: ProcessSample[] = [];
  child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8192)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!stopping) exit = signal ?? `exit ${code}`;
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server ${name} did not start within ${timeoutMs} ms: ${log}`));
    }, timeoutMs);
    let pending = '';
    let ready = false;
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('STATS ')) samples.push(JSON.parse(line.slice(6)) as ProcessSample);
        else if (line.startsWith('READY ') && !ready) {
          ready = true;
          clearTimeout(timer);
          resolve({
            name,
            pid: child.pid!,
            url: line.slice(6),
            samples,
            died: () => exit,
            log: () => log,
            async stop() {
              if (exit !== undefined) return;
              stopping = true;
              child.stdin.end();
              const force = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), 5000);
              await exited;
              clearTimeout(force);
            },
          });
        }
      }
    });
    child.once('exit', (code) => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`server ${name} exited (${code}) before it was ready: ${log}`));
    });
  });
}
