/**
 * @module test/helpers/postgres — a real PostgreSQL server for tests and `npm run scale`: `initdb` into a
 * temporary data directory, the postmaster started on a free loopback port (its Unix socket in the same
 * directory), stopped by its pid; paused and resumed on the same data directory and port (the scale run's
 * database faults). Run as root (CI, this machine), both run as `nobody` through setpriv, since
 * initdb refuses root. The binaries are found under /usr/lib/postgresql/<version>/bin (Debian's layout,
 * newest version first), or on PATH; WIREGEN_PG_BIN names another directory. `.ci/run` installs the Debian
 * package when initdb is missing.
 *
 * The server is tuned for throwaway data (fsync and synchronous_commit off): what is measured against it is
 * the runtime's work and round trips, not the disk.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The uid/gid the server runs as when this process is root (Debian's `nobody`/`nogroup`). */
const NOBODY = 65534;

export interface TestPostgres {
  /** A URL of the server's `postgres` database (user postgres, trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /** The postmaster's pid (a new one after {@link TestPostgres.resume}). */
  readonly pid: number;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server as stop() does, keeping its data directory and port for {@link TestPostgres.resume}. */
  pause(): Promise<void>;
  /** Starts the paused server again on the same data directory and port; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** Stops the server (fast shutdown, SIGKILL after 10 s) and removes its data directory. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** How long to wait for the server to accept connections. Default 60 s. */
  readonly timeoutMs?: number;
  /** Extra `-c name=value` settings. */
  readonly settings?: Readonly<Record<string, string | number>>;
}

/** The directory holding initdb and postgres. */
export function postgresBinDir(): string {
  const given = process.env['WIREGEN_PG_BIN'];
  if (given) return given;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  for (const dir of (process.env['PATH'] ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb'))) return dir;
  throw new Error('PostgreSQL not found: install it (apt-get install -y postgresql) or set WIREGEN_PG_BIN to the directory of initdb');
}

/** A free loopback TCP port (released just before the server binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Spawns `program` (a PostgreSQL binary), as nobody when this process is root; setpriv execs, so the pid is the program's. */
function spawnPg(bin: string, program: string, args: readonly string[]): ChildProcess {
  const path = join(bin, program);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
  return isRoot()
    ? spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', path, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(path, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs `program` to completion; rejects with its output when it fails. */
function run(bin: string, program: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnPg(bin, program, args);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} exited ${code}: ${output.trim().slice(-2000)}`))));
  });
}

async function connectable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Starts a PostgreSQL server of its own (see the module comment). */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-pg-'));
  const data = join(dir, 'data');
  if (isRoot()) chownSync(dir, NOBODY, NOBODY);
  try {
    await run(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: 200,
    ...options.settings,
  };
  const timeoutMs = options.timeoutMs ?? 60_000;
  let server: Postmaster;
  try {
    server = await launch(bin, dir, data, settings, undefined, Date.now() + timeoutMs);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // Should this process die without stop(), the server goes with it.
  const onExit = () => server.kill();
  process.once('exit', onExit);
  let databases = 0;
  const url = `postgres://postgres@127.0.0.1:${server.port}/postgres`;
  return {
    url,
    port: server.port,
    get pid() {
      return server.pid;
    },
    async createDatabase(name = `test_${process.pid}_${++databases}_${Date.now().toString(36)}`) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await admin.end();
      }
      return `postgres://postgres@127.0.0.1:${server.port}/${name}`;
    },
    pause: () => server.stop(),
    async resume() {
      if (!server.stopped) return;
      server = await launch(bin, dir, data, settings, server.port, Date.now() + timeoutMs);
    },
    async stop() {
      process.removeListener('exit', onExit);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One running postmaster on `data`. */
interface Postmaster {
  readonly pid: number;
  readonly port: number;
  readonly stopped: boolean;
  /** Fast shutdown (SIGINT), SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL, synchronously (at this process's exit). */
  kill(): void;
}

/**
 * Starts the postmaster on `data`, on `port` (a restart) or a free port (retried when another process takes
 * the probed port first), and waits until it accepts connections.
 */
async function launch(
  bin: string,
  dir: string,
  data: string,
  settings: Readonly<Record<string, string | number>>,
  fixedPort: number | undefined,
  deadline: number,
): Promise<Postmaster> {
  for (;;) {
    const port = fixedPort ?? (await freePort());
    const args = ['-D', data, '-p', String(port), '-k', dir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const child = spawnPg(bin, 'postgres', args);
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8000)));
    child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8000)));
    let exited = false;
    const exit = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    while (!exited && !(await connectable(url))) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        await exit;
        throw new Error(`PostgreSQL did not start in time: ${log.trim()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (exited) {
      // Another process took the port between the probe and the bind: try another one (a restart keeps its port, waiting).
      if (/could not bind|Address already in use/.test(log) && Date.now() < deadline) {
        if (fixedPort !== undefined) await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      throw new Error(`PostgreSQL exited at start: ${log.trim()}`);
    }
    const pid = child.pid!;
    return {
      pid,
      port,
      get stopped() {
        return exited;
      },
      async stop() {
        if (exited) return;
        process.kill(pid, 'SIGINT');
        const timer = setTimeout(() => !exited && process.kill(pid, 'SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      },
      kill() {
        if (!exited) process.kill(pid, 'SIGKILL');
      },
    };
  }
}
