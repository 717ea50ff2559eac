/**
 * @module test/registry/publication — every workspace package is ready for the registry: the metadata npm shows
 * (https://docs.npmjs.com/cli/v11/configuring-npm/package-json: repository with its folder, homepage, bugs,
 * keywords, license, engines, publishConfig), all derived from the root package.json's `repository`, a
 * LICENSE and a README.md shipped, and `npm publish --dry-run` without a warning (npm's "auto-corrected some
 * errors" fix-ups among them).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { NPM, packedFiles, run, underBuildLock, workspacePackages } from '../consumer/packages.ts';
import { userEnv } from './loopback.ts';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  keywords?: string[];
  license?: string;
  repository?: { type: string; url: string; directory?: string };
  homepage?: string;
  bugs?: { url: string };
  engines?: { node?: string };
  publishConfig?: { access?: string; tag?: string; provenance?: boolean };
  files?: string[];
}

const read = (rel: string) => JSON.parse(readFileSync(join(ROOT, rel, 'package.json'), 'utf8')) as Manifest;
const root = read('.');
const packages = [...workspacePackages()].map(([name, { dir }]) => ({ name, dir, pkg: read(dir) }));
/** The repository's web address, from the one `repository` the root package.json defines. */
let shipped: Map<string, string[]> | undefined;
const web = root.repository!.url.replace(/^git\+/, '').replace(/\.git$/, '');

describe('package metadata for publication', () => {
  it('the root package.json defines the repository once', () => {
    expect(root.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/.+\.git$/) });
    expect(packages.length).toBeGreaterThanOrEqual(10);
  });

  it.each(packages)('$name: repository (its folder), homepage, bugs, keywords, license, engines, publishConfig', ({ dir, pkg }) => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.repository).toEqual({ type: 'git', url: root.repository!.url, directory: dir });
    expect(pkg.homepage).toBe(`${web}/tree/main/${dir}#readme`);
    expect(pkg.bugs).toEqual({ url: `${web}/issues` });
    expect(pkg.keywords?.length).toBeGreaterThanOrEqual(3);
    expect(pkg.keywords).toContain('wiregen');
    expect(pkg.license).toMatch(/^(MIT|Apache-2\.0|MIT OR Apache-2\.0)$/);
    expect(pkg.engines).toEqual(root.engines);
    // Scoped packages are private on npm unless published public; a prerelease needs a dist-tag of its own.
    expect(pkg.publishConfig).toEqual({ access: 'public', ...(pkg.version.includes('-') ? { tag: 'draft' } : {}) });
  });

  it.each(packages)('$name: ships a LICENSE and a README.md', ({ name, dir }) => {
    expect(existsSync(join(ROOT, dir, 'LICENSE'))).toBe(true);
    expect(existsSync(join(ROOT, dir, 'README.md'))).toBe(true);
    expect(readFileSync(join(ROOT, dir, 'README.md'), 'utf8').startsWith(`# ${name}\n`)).toBe(true);
    shipped ??= underBuildLock(packedFiles);
    const files = shipped.get(name);
    expect(files).toContain('LICENSE');
    expect(files).toContain('README.md');
  });

  it('the hand-written packages and the registry package carry the root LICENSE as it is', () => {
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    for (const dir of ['core', 'runtime', 'generator', 'generated/revisions'])
      expect(readFileSync(join(ROOT, dir, 'LICENSE'), 'utf8'), dir).toBe(text);
  });

  describe('npm publish --dry-run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiregen-publish-dry-'));
    // A registry nobody listens on and no token: the dry run says it is not logged in, the one warning expected.
    // npm still asks it whether the version exists; refused at once, and not retried (npm's default retries
    // back off for about 70 s).
    const registry = 'http://127.0.0.1:9/';
    writeFileSync(join(dir, 'npmrc'), `registry=${registry}\nfetch-retries=0\n`);
    const env = { ...userEnv(), npm_config_userconfig: join(dir, 'npmrc'), npm_config_update_notifier: 'false' };
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each(packages)('$name: no warning, nothing auto-corrected', ({ dir: rel }) => {
      // npm writes its notices and warnings to stderr, the published name to stdout: both read here.
      // Packing reads dist/: not while another test file rebuilds it.
      const both = underBuildLock(() =>
        run('sh', ['-c', `${NPM} publish --dry-run --registry ${registry} --ignore-scripts 2>&1`], { cwd: join(ROOT, rel), env }),
      );
      expect(both).toMatch(/^\+ /m);
      expect(both).not.toMatch(/auto-corrected/);
      const loggedOut = /^npm warn publish This command requires you to be logged in to .* \(dry-run\)$/;
      expect(both.split('\n').filter((l) => /^npm warn/.test(l) && !loggedOut.test(l))).toEqual([]);
    });
  });
});
