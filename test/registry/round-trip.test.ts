/**
 * @module test/registry/round-trip — the path a user takes after publication: every workspace package built,
 * packed and `npm publish`ed to a loopback registry (./loopback.ts); then in a folder outside the repository
 * with no tarball, whose `.npmrc` names that registry, the README's commands: `npx
 * wiregen@<version> init weather`, `npm install`, `npm run generate`, tsc (the project's build), the project's
 * start command, and a tools/call answered over stdio. The round trip's time is printed (about 35 s here, the
 * build and the publishing another 45 s: it runs with `npm test`). Installs prefer the npm cache the
 * repository's `npm ci` filled; verdaccio asks npmjs.org only for what is missing from it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { INFO } from '../consumer/harness.ts';
import { buildAndPack, NPM, run, type Packed } from '../consumer/packages.ts';
import { startRegistry, type LoopbackRegistry } from './loopback.ts';

const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/**
 * npx keeps what it installed under `<cache>/_npx/<hash of the spec>` and runs it again without asking the
 * registry: a `wiregen@<version>` installed by an earlier round trip (from an earlier loopback registry) is
 * removed first, so that this one installs what was just published.
 */
function forgetLoopbackNpx(): void {
  const npx = join(process.env['npm_config_cache'] ?? join(homedir(), '.npm'), '_npx');
  if (!existsSync(npx)) return;
  for (const hash of readdirSync(npx)) {
    const lock = join(npx, hash, 'node_modules', '.package-lock.json');
    if (existsSync(lock) && /"resolved": "http:\/\/127\.0\.0\.1:\d+\/wiregen\//.test(readFileSync(lock, 'utf8')))
      rmSync(join(npx, hash), { recursive: true, force: true });
  }
}

describe('published to a loopback registry, installed as the README tells a user', () => {
  let registry: LoopbackRegistry | undefined;
  let packed: Packed | undefined;
  let dir: string;
  const version = (JSON.parse(readFileSync(join(ROOT, 'generator/package.json'), 'utf8')) as { version: string }).version;

  beforeAll(async () => {
    packed = buildAndPack();
    registry = await startRegistry();
    dir = mkdtempSync(join(tmpdir(), 'wiregen-user-'));
  }, 300_000);

  afterAll(async () => {
    await registry?.stop();
    packed?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    forgetLoopbackNpx();
  });

  it('every workspace package publishes', () => {
    const published: string[] = [];
    for (const [name, tarball] of packed!.tarballs) {
      registry!.publish(name, tarball);
      published.push(name);
    }
    expect(published).toContain('wiregen');
    expect(published).toContain('@wiregen/runtime');
  }, 300_000);

  it('npx wiregen init, npm install, generate, tsc, start: a tools/call is answered', async () => {
    const r = registry!;
    // The user's npm config: the registry and its token, nothing else (no tarball, no workspace).
    writeFileSync(join(dir, '.npmrc'), readFileSync(r.npmrc, 'utf8'));
    const env = {
      ...r.env,
      npm_config_userconfig: join(dir, '.npmrc'),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    const sh = (cwd: string, cmd: string, args: readonly string[]) => run(cmd, args, { cwd, env, timeout: 300_000 });
    forgetLoopbackNpx();
    const t0 = performance.now();
    const lap: Record<string, number> = {};
    const step = <T>(name: string, f: () => T): T => {
      const t = performance.now();
      const out = f();
      lap[name] = Math.round(performance.now() - t);
      return out;
    };

    step('npx init', () => sh(dir, NPX, ['--yes', `wiregen@${version}`, 'init', 'weather']));
    const root = join(dir, 'weather');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    step('npm install', () => sh(root, NPM, ['install']));
    // Every @wiregen package came from the loopback registry.
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    const ours = Object.entries(lock.packages).filter(([p]) => /node_modules\/(wiregen|@wiregen\/[^/]+)$/.test(p));
    expect(ours.length).toBeGreaterThanOrEqual(4);
    for (const [p, { resolved }] of ours) expect(resolved, p).toMatch(new RegExp(`^${r.url.replace(/[.]/g, '\\.')}`));
    step('npm run generate', () => sh(root, NPM, ['run', 'generate']));
    expect(existsSync(join(root, 'src/generated'))).toBe(true);
    // The project's build is `npm run generate && tsc`: the generate step just ran, tsc is the rest.
    expect(pkg.scripts['build']).toBe('npm run generate && tsc');
    step('tsc', () => sh(root, process.execPath, [join(root, 'node_modules/typescript/bin/tsc')]));

    // `npm start` is `wiregen serve dist/server.js --stdio`: its command, without npm's banner on stdout.
    const [bin, ...args] = pkg.scripts['start']!.split(' ');
    expect(bin).toBe('wiregen');
    const client = new Client(INFO);
    const t = performance.now();
    await client.connect(new StdioClientTransport({ command: join(root, 'node_modules/.bin/wiregen'), args, cwd: root, stderr: 'pipe' }));
    try {
      const answer = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(answer.structuredContent).toEqual({ sum: 5 });
    } finally {
      await client.close();
    }
    lap['start and tools/call'] = Math.round(performance.now() - t);
    const total = (performance.now() - t0) / 1000;
    const laps = Object.entries(lap)
      .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
      .join(', ');
    process.stdout.write(`registry round trip: ${total.toFixed(1)} s (${laps})\n`);
  }, 900_000);
});
