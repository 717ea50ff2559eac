/**
 * @module test/consumer/targets.suite — `wiregen init --target node|workers|deno|bun` from the packed CLI:
 * each project is made, installed from the tarballs, generated with the packed `wiregen generate` (a Node
 * command in every target), started with its runtime's own command and answers a 2026-07-28 tools/call over
 * HTTP on 127.0.0.1 (the A2A agent of the Workers target its card and SendMessage). One install is shared:
 * the projects' dependencies are the same (each target's dev tools aside), so the first project installs the
 * tarballs and the others get a hard-linked copy of its node_modules. Bun and Deno are the devDependencies'
 * binaries (test/runtimes/launch.ts finds them); a runtime that cannot run here skips visibly with the reason.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { WRANGLER_BUILD } from '../../bench/lib/worker-bundle.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { find } from '../runtimes/launch.ts';
import { children, freePort } from './harness.ts';
import { installTarballs, run, type Packed } from './packages.ts';
import { workerdNode as node22 } from '../../bench/lib/runtimes.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

interface PackageJson {
  readonly scripts: Record<string, string>;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}

/** The process groups started here, ended after the suite. */
const groups: number[] = [];

/** Starts `cmd args` in `cwd` and resolves with the first http://127.0.0.1:<port> URL it prints (stdout or stderr). */
function listening(cmd: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  // Its own process group: `deno task` and `bun --watch` run the server as a child of their own.
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  groups.push(child.pid!);
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} ${args.join(' ')}: no URL within 60 s: ${seen}`)), 60_000);
    const read = (d: Buffer) => {
      seen += d.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(seen)?.[0];
      if (url) (clearTimeout(timer), resolve(url));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${seen}`))));
  });
}

/** A 2026-07-28 tools/call of `add` (the scaffold's tool) at `url`; its JSON-RPC answer (JSON, or the first SSE data). */
async function add(url: string): Promise<Record<string, any>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'add',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: META } }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await res.text();
  return JSON.parse(res.headers.get('content-type')?.startsWith('text/event-stream') ? /^data: (.*)$/m.exec(body)![1]! : body);
}

export function targetsSuite(packed: () => Packed): void {
  describe('wiregen init --target: each project runs where its target runs', () => {
    let dir: string;
    let shared: string | undefined;
    const wiregen = (cwd: string, args: readonly string[]) =>
      run(process.execPath, [join(cwd, 'node_modules/wiregen/dist/bin.js'), ...args], { cwd });
    const pkg = (root: string) => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;

    /** `wiregen init <name> --target <target>` from the packed CLI, installed (shared node_modules) and generated. */
    function project(name: string, target: string, agent = false): string {
      const root = join(dir, name);
      run(process.execPath, [join(dir, 'cli/node_modules/wiregen/dist/bin.js'), 'init', name, '--target', target, ...(agent ? ['--agent'] : [])], {
        cwd: dir,
      });
      if (shared === undefined) {
        installTarballs(root, packed(), []);
        shared = root;
      } else {
        // Every runtime dependency is in the installed project (which has all our tarballs): its node_modules serve this one too.
        const installed = shared;
        expect(Object.keys(pkg(root).dependencies).filter((name) => !existsSync(join(installed, 'node_modules', name)))).toEqual([]);
        cpSync(join(shared, 'node_modules'), join(root, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      }
      wiregen(root, pkg(root).scripts['generate']!.split(' ').slice(1));
      // `npm run typecheck`: the entry files type-check with the project's strict tsconfig.json.
      expect(pkg(root).scripts['typecheck']).toBe('tsc --noEmit');
      run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'], { cwd: root });
      return root;
    }

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'wiregen-targets-'));
      // The packed CLI, installed on its own, makes the projects (as `npx wiregen init` would).
      installTarballs(join(dir, 'cli'), packed(), []);
    }, 300_000);

    afterAll(() => {
      for (const pid of groups.splice(0)) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already ended
        }
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('init --help documents --target; an unknown target is one line on stderr, exit 2', () => {
      const cli = (args: readonly string[]) =>
        spawnSync(process.execPath, [join(dir, 'cli/node_modules/wiregen/dist/bin.js'), 'init', ...args], { cwd: dir, encoding: 'utf8' });
      const help = cli(['--help']);
      expect(help.status).toBe(0);
      for (const target of ['node', 'workers', 'deno', 'bun']) expect(help.stdout).toContain(target);
      expect(help.stdout).toContain('--target');
      const bad = cli(['nowhere', '--target', 'lambda']);
      expect([bad.status, bad.stderr]).toEqual([2, 'wiregen init: unknown target lambda; expected one of: node, workers, deno, bun\n']);
      expect(existsSync(join(dir, 'nowhere'))).toBe(false);
      // The README's "Where it runs" names each target with the commands its project has.
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      expect(readme).toMatch(/npx wiregen init weather --target workers +# .*npm run dev \(wrangler dev\), npm run deploy/);
      expect(readme).toMatch(/npx wiregen init weather --target deno +# .*deno task dev, deno task start/);
      expect(readme).toMatch(/npx wiregen init weather --target bun +# .*npm run dev \(bun --watch\), npm start/);
    });

    it('node: built with tsc and served by wiregen serve (its start script, over HTTP)', async () => {
      const root = project('on-node', 'node');
      run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: root });
      const start = pkg(root).scripts['start']!;
      expect(start).toBe('wiregen serve dist/server.js --stdio');
      const args = start.replace('--stdio', '--http 0').split(' ').slice(1);
      const url = await listening(process.execPath, ['node_modules/wiregen/dist/bin.js', ...args], root);
      expect((await add(`${url}/mcp`))['result']).toMatchObject({ structuredContent: { sum: 5 } });
    }, 300_000);

    const bun = find('bun');
    it.skipIf(!bun.binary)(
      `bun: bun --watch src/main.ts (its dev script) on ${bun.label}${bun.reason ? ` (skipped: ${bun.reason})` : ''}`,
      async () => {
        const root = project('on-bun', 'bun');
        const dev = pkg(root).scripts['dev']!;
        expect(dev).toBe('bun --watch src/main.ts');
        const url = await listening(bun.binary!, dev.split(' ').slice(1), root, { PORT: String(await freePort()) });
        expect((await add(`${url}/mcp`))['result']).toMatchObject({ structuredContent: { sum: 5 } });
      },
      300_000,
    );

    const deno = find('deno');
    it.skipIf(!deno.binary)(
      `deno: deno task start (deno.json) on ${deno.label}${deno.reason ? ` (skipped: ${deno.reason})` : ''}`,
      async () => {
        const root = project('on-deno', 'deno');
        const tasks = (JSON.parse(readFileSync(join(root, 'deno.json'), 'utf8')) as { tasks: Record<string, string> }).tasks;
        expect(tasks['start']).toMatch(/^deno run .*--allow-net=127\.0\.0\.1 .*src\/main\.ts$/);
        // `deno task` runs the task's `deno` as the binary it was started with; DENO_NO_UPDATE_CHECK: no network.
        const url = await listening(deno.binary!, ['task', 'start'], root, { PORT: String(await freePort()), DENO_NO_UPDATE_CHECK: '1' });
        expect((await add(`${url}/mcp`))['result']).toMatchObject({ structuredContent: { sum: 5 } });
      },
      300_000,
    );

    // Workers: wrangler is not run here. `wrangler dev` bundles src/worker.ts with esbuild (wrangler.toml's
    // `main`, its [alias], the conditions workerd/worker/browser) and serves it with miniflare on workerd; the
    // test does those two steps itself with the esbuild and miniflare the repository already has (miniflare
    // on Node 22, as test/bundle/workerd.test.ts), rather than add wrangler 4.164.0 and its download to every
    // install. The project's package.json still names wrangler (checked), which is left out of the install.
    const worker = node22();
    const workerSkip = 'missing' in worker ? ` (skipped: ${worker.missing})` : '';

    /**
     * Bundles the project's Worker as wrangler does and serves it on miniflare; resolves with its URL and the
     * Node modules the bundle imports (none may be: workerd without nodejs_compat refuses to start a bundle
     * that imports one).
     */
    async function serveWorker(root: string): Promise<{ url: string; nodeImports: string[] }> {
      const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
      const value = (key: string) => new RegExp(`^${key} = "(.*)"$`, 'm').exec(toml)?.[1];
      const alias = Object.fromEntries([...toml.matchAll(/^"(@wiregen\/[^"]+)" = "(.+)"$/gm)].map(([, from, to]) => [from!, join(root, to!)]));
      const vars = /^MCP_ALLOWED_HOSTS = "(.*)"$/m.exec(toml);
      const devVars = existsSync(join(root, '.dev.vars'))
        ? Object.fromEntries(
            readFileSync(join(root, '.dev.vars'), 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
          )
        : {};
      // No compatibility flag (so no nodejs_compat): https://developers.cloudflare.com/workers/configuration/compatibility-flags/
      expect(toml).not.toMatch(/^compatibility_flags/m);
      const result = await build({
        entryPoints: [join(root, value('main')!)],
        absWorkingDir: root,
        // Without nodejs_compat, wrangler leaves Node's modules as imports (warning that the Worker may throw
        // when it loads them); workerd then refuses to start a bundle that imports one.
        ...WRANGLER_BUILD,
        alias,
        metafile: true,
        outfile: join(root, '.wrangler/worker.js'),
        logLevel: 'silent',
      });
      const nodeImports = Object.values(result.metafile.outputs).flatMap((o) =>
        o.imports.filter((i) => i.path.startsWith('node:')).map((i) => i.path),
      );
      const bindings = { ...(vars ? { MCP_ALLOWED_HOSTS: vars[1] } : {}), ...devVars };
      const { node } = worker as { node: string };
      const url = await listening(
        node,
        [join(ROOT, 'test/consumer/on-miniflare.mjs'), '.wrangler/worker.js', value('compatibility_date')!, JSON.stringify(bindings)],
        root,
      );
      return { url, nodeImports };
    }

    it.skipIf('missing' in worker)(
      `workers, MCP server: wrangler dev's bundle on workerd (miniflare)${workerSkip}`,
      async () => {
        const root = project('on-workers', 'workers');
        expect(pkg(root).scripts).toMatchObject({ dev: 'wrangler dev', deploy: 'wrangler deploy' });
        expect(pkg(root).devDependencies['wrangler']).toBe('4.164.0');
        const { url, nodeImports } = await serveWorker(root);
        expect(nodeImports).toEqual([]);
        expect((await add(`${url}/mcp`))['result']).toMatchObject({ resultType: 'complete', structuredContent: { sum: 5 } });
        // Only 2026-07-28 is served: a handshake-era initialize is refused (lifecycle: -32602 "Unsupported protocol version").
        const init = await fetch(`${url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'targets', version: '1.0.0' } },
          }),
        });
        expect(await init.text()).toContain('-32602');
      },
      300_000,
    );

    it.skipIf('missing' in worker)(
      `workers, A2A agent: its card and SendMessage on workerd (miniflare)${workerSkip}`,
      async () => {
        const root = project('agent-on-workers', 'workers', true);
        const { url, nodeImports } = await serveWorker(root);
        expect(nodeImports).toEqual([]);
        const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as { name: string; supportedInterfaces: { url: string }[] };
        expect(card.name).toBe('agent-on-workers');
        // The card names where the first request arrived.
        expect(card.supportedInterfaces[0]!.url).toBe(`${url}/a2a`);
        const sent = await fetch(`${url}/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
          }),
        });
        expect(await sent.text()).toContain('You said: hello');
      },
      300_000,
    );
  });
}
