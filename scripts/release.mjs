#!/usr/bin/env node
// npm run release -- <version> [--dry-run] [--publish] [--no-build] [--changelog <file>]
//
// One release of wiregen (docs/versioning.md):
// 1. The lockstep packages — the CLI (`wiregen`), @wiregen/runtime, @wiregen/core and @wiregen/revisions (the
//    generator writes its version from the CLI's) — move to <version>, a semver above the current one, and
//    every dependency on one of them follows. The repository metadata (repository, homepage, bugs, engines,
//    license) of the hand-written packages is written again from the root package.json, its one definition.
// 2. The pin packages keep their revision's version. One whose generated content or dependencies differ
//    from the previous release's tag (`v<current>`) must be republished under the next republication
//    version; that number is not written by the generator yet, so the release stops and names them.
// 3. CHANGELOG.md must have a `## <version>` entry.
// 4. `npm run generate`, `npm run build`, then `npm publish --dry-run` of every package; `--publish` publishes
//    for real (never in tests).
//
// --dry-run writes no file of the repository: the edits are printed, and each package is packed into a temp
// folder, its package.json there given the new versions, and `npm publish --dry-run` run on that copy.
// Exit codes: 0 done, 1 a check failed, 2 bad arguments.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const LOCKSTEP = ['wiregen', '@wiregen/runtime', '@wiregen/core', '@wiregen/revisions'];
/** The packages written by hand, whose metadata is copied from the root package.json. */
const HAND_WRITTEN = ['core', 'runtime', 'generator'];
const HELP = `Usage: npm run release -- <version> [--dry-run] [--publish] [--no-build] [--changelog <file>]

Moves wiregen, @wiregen/runtime, @wiregen/core and @wiregen/revisions to <version> (semver, above the current
one), checks the CHANGELOG entry, regenerates, builds and runs npm publish --dry-run for every package.
  --dry-run           write no file of the repository; print the edits, dry-run publish copies
  --publish           publish to the registry for real after the dry runs
  --no-build          use the dist/ folders as they are
  --changelog <file>  the changelog to check (default CHANGELOG.md)
See docs/versioning.md.`;

/** Ends with `message` on stderr and `code`. */
function fail(message, code = 1) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(code);
}

/** Parses argv; exits 2 on anything it does not know. */
function parseArgs(argv) {
  const args = { version: undefined, dryRun: false, publish: false, build: true, changelog: join(root, 'CHANGELOG.md') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(`${HELP}\n`);
      process.exit(0);
    } else if (a === '--dry-run') args.dryRun = true;
    else if (a === '--publish') args.publish = true;
    else if (a === '--no-build') args.build = false;
    else if (a === '--changelog' && argv[i + 1]) args.changelog = argv[++i];
    else if (!a.startsWith('-') && args.version === undefined) args.version = a;
    else fail(`unknown argument ${JSON.stringify(a)} (--help)`, 2);
  }
  if (args.version === undefined) fail('no version given (--help)', 2);
  if (args.dryRun && args.publish) fail('--dry-run and --publish exclude each other', 2);
  return args;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** Semver precedence (https://semver.org §11): negative, 0 or positive. */
export function compareSemver(a, b) {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  if (!x[4] || !y[4]) return (x[4] ? -1 : 0) - (y[4] ? -1 : 0);
  const [p, q] = [x[4].split('.'), y[4].split('.')];
  for (let i = 0; i < Math.min(p.length, q.length); i++) {
    if (p[i] === q[i]) continue;
    const [m, n] = [/^\d+$/.test(p[i]), /^\d+$/.test(q[i])];
    if (m && n) return Number(p[i]) - Number(q[i]);
    return m ? -1 : n ? 1 : p[i] < q[i] ? -1 : 1;
  }
  return p.length - q.length;
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The workspace folders (package.json `workspaces`, a trailing `/*` meaning every child with a package.json). */
function workspaces() {
  return readJson(join(root, 'package.json')).workspaces.flatMap((p) =>
    p.endsWith('/*')
      ? readdirSync(join(root, p.slice(0, -2)))
          .map((d) => join(p.slice(0, -2), d))
          .filter((d) => existsSync(join(root, d, 'package.json')))
      : [p],
  );
}

/** The metadata every hand-written package derives from the root package.json (as the generator does). */
function rootMetadata(rootPkg, dir) {
  const web = rootPkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  return {
    license: rootPkg.license,
    repository: { ...rootPkg.repository, directory: dir },
    homepage: `${web}/tree/main/${dir}#readme`,
    bugs: { url: `${web}/issues` },
    engines: rootPkg.engines,
  };
}

/** `pkg` with the lockstep packages at `version` (its own version too, if it is one). */
function bumped(pkg, version) {
  const out = { ...pkg };
  if (LOCKSTEP.includes(pkg.name)) out.version = version;
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    if (!pkg[field]) continue;
    out[field] = Object.fromEntries(Object.entries(pkg[field]).map(([n, r]) => [n, LOCKSTEP.includes(n) ? version : r]));
  }
  return out;
}

/** Runs a command in the repository; its output passes through. Exits 1 naming it on failure. */
function sh(cmd, args, options = {}) {
  try {
    return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
  } catch (err) {
    fail(`${cmd} ${args.join(' ')} failed (${err.status ?? err.message})`);
  }
}

/**
 * The pin packages whose published content would differ from the previous release's: any file of its folder
 * other than package.json, or package.json's dependencies. Undefined when there is no tag to compare with.
 */
function changedPins(tag, pins, planned) {
  if (execFileSync('git', ['tag', '--list', tag], { cwd: root, encoding: 'utf8' }).trim() !== tag) return undefined;
  return pins.filter(({ dir }) => {
    const files = execFileSync('git', ['diff', '--name-only', tag, '--', dir, `:!${dir}/package.json`], { cwd: root, encoding: 'utf8' });
    if (files.trim() !== '') return true;
    const before = JSON.parse(execFileSync('git', ['show', `${tag}:${dir}/package.json`], { cwd: root, encoding: 'utf8' }));
    return JSON.stringify(before.dependencies ?? {}) !== JSON.stringify(planned.get(dir).dependencies ?? {});
  });
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const { version } = args;
  if (!SEMVER.test(version)) fail(`${JSON.stringify(version)} is not a semver version (X.Y.Z or X.Y.Z-pre)`, 2);
  const rootPkg = readJson(join(root, 'package.json'));
  const current = readJson(join(root, 'generator', 'package.json')).version;
  if (compareSemver(version, current) <= 0) fail(`${version} is not above the current version ${current}`, 2);

  // The CHANGELOG entry: a `## <version>` heading (docs/versioning.md).
  if (!existsSync(args.changelog)) fail(`${args.changelog}: not found`);
  const heading = new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`, 'm');
  if (!heading.test(readFileSync(args.changelog, 'utf8'))) fail(`${args.changelog}: no "## ${version}" entry`);

  // Every package.json as it will be.
  const dirs = workspaces();
  const planned = new Map();
  for (const dir of dirs) {
    let pkg = bumped(readJson(join(root, dir, 'package.json')), version);
    if (HAND_WRITTEN.includes(dir)) pkg = { ...pkg, ...rootMetadata(rootPkg, dir) };
    planned.set(dir, pkg);
  }
  const pins = dirs.filter((d) => !LOCKSTEP.includes(planned.get(d).name)).map((dir) => ({ dir, name: planned.get(dir).name }));
  const tag = `v${current}`;
  const changed = changedPins(tag, pins, planned);
  process.stdout.write(`release ${current} → ${version}${args.dryRun ? ' (dry run: nothing written)' : ''}\n`);
  for (const dir of dirs) {
    const [before, after] = [readJson(join(root, dir, 'package.json')), planned.get(dir)];
    const deps = Object.keys(after.dependencies ?? {}).filter((n) => before.dependencies?.[n] !== after.dependencies[n]);
    process.stdout.write(
      `  ${after.name}: ${before.version === after.version ? `${after.version} (kept)` : `${before.version} → ${after.version}`}${deps.length ? `; dependencies ${deps.join(', ')} → ${version}` : ''}\n`,
    );
  }
  if (changed === undefined) process.stdout.write(`  no tag ${tag} to compare the pin packages with: each is published at its revision's version\n`);
  else if (changed.length) {
    const list = changed.map((p) => p.name).join(', ');
    const message = `pin packages changed since ${tag} need a republication version (docs/versioning.md), which the generator does not write yet: ${list}`;
    if (!args.dryRun) fail(message);
    process.stdout.write(`  ${message}\n`);
  } else process.stdout.write(`  pin packages unchanged since ${tag}: not republished\n`);

  const write = (dir, pkg) => writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  if (!args.dryRun) {
    write(root, { ...rootPkg, version });
    for (const dir of HAND_WRITTEN) write(join(root, dir), planned.get(dir));
    sh(NPM, ['run', '-s', 'generate'], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (const dir of dirs) {
      const got = readJson(join(root, dir, 'package.json'));
      if (got.version !== planned.get(dir).version)
        fail(`${dir}/package.json: generated version ${got.version}, expected ${planned.get(dir).version}`);
    }
  }
  if (args.build) sh(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });

  // npm publish --dry-run of each package; in a dry run, of a packed copy given the planned package.json.
  const temp = mkdtempSync(join(tmpdir(), 'wiregen-release-'));
  try {
    for (const dir of dirs) {
      const name = planned.get(dir).name;
      let target = join(root, dir);
      if (args.dryRun) {
        const file = JSON.parse(sh(NPM, ['pack', '--json', '--pack-destination', temp], { cwd: target }))[0].filename;
        target = join(temp, name.replace('/', '+'));
        sh('tar', ['-xzf', join(temp, file), '-C', temp]);
        renameSync(join(temp, 'package'), target);
        write(target, planned.get(dir));
      }
      const out = sh('sh', ['-c', `${NPM} publish --dry-run --ignore-scripts --fetch-retries=0 2>&1`], { cwd: target });
      if (/auto-corrected|npm (warn|error)(?! publish This command requires you to be logged in)/.test(out))
        fail(`npm publish --dry-run of ${name} warned:\n${out}`);
      process.stdout.write(`  npm publish --dry-run ${name}@${planned.get(dir).version}: clean\n`);
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  if (args.publish) {
    // A pin package unchanged since the previous release's tag is on the registry already.
    const unchanged = new Set(changed === undefined ? [] : pins.map((p) => p.dir));
    for (const dir of dirs.filter((d) => !unchanged.has(d))) {
      sh(NPM, ['publish', '--ignore-scripts'], { cwd: join(root, dir), stdio: 'inherit' });
      process.stdout.write(`  published ${planned.get(dir).name}@${planned.get(dir).version}\n`);
    }
  }
  process.stdout.write(args.publish ? `released ${version}\n` : `ready: ${version} (publish with --publish)\n`);
}

main();
