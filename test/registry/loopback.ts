/**
 * @module test/registry/loopback — a loopback npm registry (verdaccio, https://verdaccio.org/docs/configuration)
 * in a temp folder: storage there, listening on 127.0.0.1, our package names (`wiregen`, `@wiregen/*`) local
 * only (published here, never asked upstream), every other name proxied to https://registry.npmjs.org. A temp
 * npm userconfig holds a dummy token for it, so `npm publish` and `npm install` talk to it as they would to
 * npmjs.org; installs still prefer the npm cache the repository's `npm ci` filled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/project.ts';
import { freePort } from '../consumer/harness.ts';
import { NPM, run } from '../consumer/packages.ts';

export interface LoopbackRegistry {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** The npm userconfig naming the registry and its token. */
  readonly npmrc: string;
  /** The environment npm runs with: the userconfig above, no update notice. */
  readonly env: NodeJS.ProcessEnv;
  readonly pid: number;
  /** Publishes a packed package (`npm publish <tarball>`); a failure names the package. */
  publish(name: string, tarball: string): void;
  /** Ends verdaccio (by pid) and removes its folder. */
  stop(): Promise<void>;
}

/** verdaccio's config.yaml: ours local only, the rest proxied (packages are matched in order). */
function config(storage: string, port: number): string {
  return `storage: ${storage}
auth:
  htpasswd:
    file: ${join(storage, '..', 'htpasswd')}
    max_users: -1
uplinks:
  npmjs:
    url: https://registry.npmjs.org/
    timeout: 60s
packages:
  'wiregen':
    access: $all
    publish: $all
    unpublish: $all
  '@wiregen/*':
    access: $all
    publish: $all
    unpublish: $all
  '**':
    access: $all
    publish: $authenticated
    proxy: npmjs
server:
  keepAliveTimeout: 60
listen: 127.0.0.1:${port}
log: { type: stdout, format: pretty, level: warn }
publish:
  allow_offline: true
`;
}

/**
 * The environment without the `npm_config_*` variables of the npm that started the tests (npx sets every
 * setting of its own, the user's `omit-lockfile-registry-resolved` among them): npm run from here reads the
 * userconfig given, as it does in a user's shell.
 */
export function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
}

/** Starts verdaccio 6 (the devDependency's bin) as a child process; resolves once it answers /-/ping. */
export async function startRegistry(): Promise<LoopbackRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-registry-'));
  const storage = join(dir, 'storage');
  mkdirSync(storage);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  writeFileSync(join(dir, 'config.yaml'), config(storage, port));
  const npmrc = join(dir, 'npmrc');
  // Any token will do: verdaccio lets everyone publish our names (config above).
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=loopback-dummy-token\n`);
  const env = { ...userEnv(), npm_config_userconfig: npmrc, npm_config_registry: url, npm_config_update_notifier: 'false' };
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'node_modules/verdaccio/bin/verdaccio'), '--config', join(dir, 'config.yaml')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}: ${log}`);
    try {
      if ((await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(2_000) })).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`verdaccio did not answer ${url}-/ping within 60 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    npmrc,
    env,
    pid: child.pid!,
    publish(name, tarball) {
      try {
        run(NPM, ['publish', tarball, '--registry', url, '--provenance=false', '--ignore-scripts'], { cwd: dir, env });
      } catch (err) {
        throw new Error(`npm publish of ${name} (${tarball}) to ${url} failed: ${(err as Error).message}`);
      }
    },
    async stop() {
      const running = () => child.exitCode === null && child.signalCode === null;
      if (running()) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (running()) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
