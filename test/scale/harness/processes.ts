/**
 * @module test/scale/harness/processes — the scale run's instance processes (instance.ts): each started with
 * tsx, known by its pid, killed by its pid (SIGKILL for the instance that dies mid-run, SIGTERM then SIGKILL
 * at the end); and the webhook receiver that counts every push it gets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The status message of a task the agent completed on another instance than the one it started on (instance.ts). */
export const RESUMED = 'resumed after its instance stopped';

const INSTANCE = fileURLToPath(new URL('./instance.ts', import.meta.url));

export interface InstanceProcess {
  readonly pid: number;
  readonly url: string;
  /** Output on stderr (its log), the last 8 KiB. */
  readonly log: () => string;
  alive: boolean;
  kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
}

/** Starts `instance.ts <args>` and resolves once it printed its URL (rejects after `timeoutMs`). */
export function startInstance(args: readonly string[], timeoutMs = 60_000): Promise<InstanceProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', INSTANCE, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8192)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`instance ${args[0]} did not start within ${timeoutMs} ms: ${log}`));
    }, timeoutMs);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const ready = /^READY (\S+)$/m.exec(out);
      if (!ready) return;
      clearTimeout(timer);
      const instance: InstanceProcess = {
        pid: child.pid!,
        url: ready[1]!,
        log: () => log,
        alive: true,
        async kill(signal) {
          if (!instance.alive) return;
          instance.alive = false;
          process.kill(child.pid!, signal);
          const force = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), 5000);
          await exited;
          clearTimeout(force);
        },
      };
      void exited.then(() => (instance.alive = false));
      resolve(instance);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${args[0]} exited (${code}) before it was ready: ${log}`));
    });
  });
}

export interface PushReceiver {
  readonly url: string;
  /** Every body received, as sent. */
  readonly bodies: string[];
  /** When each body first arrived (ms since the epoch). */
  readonly firstSeen: Map<string, number>;
  /** Copies of bodies received before (each extra copy counts one); with `before`, only those first received before that instant. */
  duplicates(before?: number): number;
  close(): Promise<void>;
}

/** A webhook on 127.0.0.1 answering 200 to every POST and keeping its body. */
export async function pushReceiver(): Promise<PushReceiver> {
  const bodies: string[] = [];
  const firstSeen = new Map<string, number>();
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      if (!firstSeen.has(body)) firstSeen.set(body, Date.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    firstSeen,
    duplicates: (before = Infinity) => {
      const seen = new Set<string>();
      let n = 0;
      for (const body of bodies) {
        if (seen.has(body) && firstSeen.get(body)! < before) n++;
        seen.add(body);
      }
      return n;
    },
    close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))),
  };
}
