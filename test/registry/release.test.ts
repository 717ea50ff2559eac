/**
 * @module test/registry/release — `npm run release` (scripts/release.mjs) as a maintainer runs it, always with
 * `--dry-run` (nothing of the repository written, nothing published): the lockstep versions and dependency
 * ranges it plans, the pin packages kept at their revision's version, the CHANGELOG entry it requires, and a
 * clean `npm publish --dry-run` of every package. Its bad arguments exit 2.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { underBuildLock, workspacePackages } from '../consumer/packages.ts';
import { userEnv } from './loopback.ts';

const dir = mkdtempSync(join(tmpdir(), 'wiregen-release-test-'));
// No registry listens there: npm's dry run asks it whether the version exists and is refused at once.
writeFileSync(join(dir, 'npmrc'), 'registry=http://127.0.0.1:9/\nfetch-retries=0\nupdate-notifier=false\n');
const env = { ...userEnv(), npm_config_userconfig: join(dir, 'npmrc') };
const current = (JSON.parse(readFileSync(join(ROOT, 'generator/package.json'), 'utf8')) as { version: string }).version;
const [major, minor] = current.split('.').map(Number) as [number, number];
const next = `${major}.${minor + 1}.0`;

function release(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Every workspace package.json and the root one, as text. */
function manifests(): string[] {
  return ['.', ...[...workspacePackages().values()].map((p) => p.dir)].map((d) => readFileSync(join(ROOT, d, 'package.json'), 'utf8'));
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run release', () => {
  it('--help says how it is called', () => {
    const r = release('--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: npm run release -- <version> \[--dry-run\]/);
  });

  it.each([
    ['no version', [], 'release: no version given (--help)'],
    ['not semver', ['1.2'], 'release: "1.2" is not a semver version (X.Y.Z or X.Y.Z-pre)'],
    ['not above the current version', [current, '--dry-run'], `release: ${current} is not above the current version ${current}`],
    ['an unknown flag', [next, '--force'], 'release: unknown argument "--force" (--help)'],
  ])('%s: exit 2, one line', (_name, args, message) => {
    const r = release(...args);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${message}\n`);
  });

  it('stops when the CHANGELOG has no entry for the version', () => {
    writeFileSync(join(dir, 'CHANGELOG.md'), `# Changelog\n\n## ${current}\n\nWhat was.\n`);
    const r = release(next, '--dry-run', '--no-build', '--changelog', join(dir, 'CHANGELOG.md'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`release: ${join(dir, 'CHANGELOG.md')}: no "## ${next}" entry\n`);
  });

  it('the repository CHANGELOG has an entry for the current version', () => {
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## ${current.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('--dry-run: lockstep versions and ranges, pins kept, every package clean, nothing written', () => {
    writeFileSync(join(dir, 'CHANGELOG.md'), `# Changelog\n\n## ${next}\n\nWhat is new.\n\n## ${current}\n`);
    const before = manifests();
    // It packs every package's dist/ as it is: not while another test file rebuilds them.
    const r = underBuildLock(() => release(next, '--dry-run', '--no-build', '--changelog', join(dir, 'CHANGELOG.md')));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(manifests()).toEqual(before);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(`release ${current} → ${next} (dry run: nothing written)`);
    for (const name of ['wiregen', '@wiregen/runtime', '@wiregen/core', '@wiregen/revisions']) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  ${name}: ${current} → ${next}(;|$)`)));
      expect(lines).toContain(`  npm publish --dry-run ${name}@${next}: clean`);
    }
    expect(lines).toContain(`  wiregen: ${current} → ${next}; dependencies @wiregen/core, @wiregen/runtime, @wiregen/revisions → ${next}`);
    for (const [name, { version }] of workspacePackages()) {
      if (name === 'wiregen' || /^@wiregen\/(runtime|core|revisions)$/.test(name)) continue;
      expect(lines).toContain(`  ${name}: ${version} (kept); dependencies @wiregen/core → ${next}`);
      expect(lines).toContain(`  npm publish --dry-run ${name}@${version}: clean`);
    }
    expect(lines).toContain(`ready: ${next} (publish with --publish)`);
  }, 300_000);
});
