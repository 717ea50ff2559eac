/**
 * @module init/scaffold — `wiregen init [dir] [--agent]`: a new project around one spec. An MCP server
 * (server.yaml, src/server.ts) or an A2A agent (agent.yaml, src/agent.ts), with package.json (scripts
 * generate, build, start, dev, typecheck; dependencies on @wiregen/runtime and the pin's package, wiregen as
 * a dev dependency), a strict tsconfig.json and .gitignore; `--target` adds where it runs (init/targets.ts:
 * Node, Workers, Deno, Bun). The files are templates/ with `{{key}}` filled in.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../commands/command.ts';
import { defaultPin, type SpecKind } from '../spec/pins.ts';
import { targetFiles, type Target } from './targets.ts';

const TEMPLATES = fileURLToPath(new URL('./templates/', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Versions of the dev tools a scaffold lists that wiregen does not depend on itself: the TypeScript the
 * generated code is checked with, and the Node types of the oldest Node it supports (20).
 */
const TOOLING = { typescript: '^5.9.3', '@types/node': '^20.19.0' } as const;

interface PackageJson {
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

const packageJson = (name: string) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as PackageJson;

/** What each kind of project is made of: its spec, its behaviours module, and how it is served. */
const KINDS = {
  server: { spec: 'server.yaml', module: 'server', serve: '--stdio', fallback: 'my-server' },
  agent: { spec: 'agent.yaml', module: 'agent', serve: '--http 41241', fallback: 'my-agent' },
} as const satisfies Record<SpecKind, object>;

/** A spec name from a folder name: lower case, digits, `.`, `_`, `-` (the spec format's pattern). */
export function projectName(dir: string, fallback: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '');
  return name || fallback;
}

/** Fills every `{{key}}` of a template; a key without a value is a bug in the template, not bad input. */
function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`init template: no value for {{${key}}}`);
    return value;
  });
}

/** The spec's `main` line and its comment, dropped when the project's entry is not the behaviours module. */
const MAIN_LINES = /^# What `wiregen serve .*\nmain: .*\n/m;

/** The files of a new project, by path relative to it, and the notes of its target. */
export function scaffold(kind: SpecKind, name: string, target: Target = 'node'): Map<string, string> {
  const k = KINDS[kind];
  const pin = defaultPin(kind);
  const wiregen = packageJson('wiregen');
  const values = { name, revision: pin.revision };
  const read = (rel: string) => fill(readFileSync(join(TEMPLATES, rel), 'utf8'), values);
  const t = targetFiles(target, kind, name, k.spec);
  const node = target === 'node';
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    ...(t.engines ? { engines: t.engines } : {}),
    scripts: {
      generate: `wiregen generate --spec ${k.spec} --out src/generated`,
      ...(node ? { build: 'npm run generate && tsc' } : {}),
      typecheck: 'tsc --noEmit',
      ...(node ? { start: `wiregen serve dist/${k.module}.js ${k.serve}`, dev: `wiregen serve ${k.spec} ${k.serve}` } : {}),
      ...t.scripts,
    },
    dependencies: {
      '@wiregen/runtime': packageJson('@wiregen/runtime').version,
      [pin.packageName]: packageJson(pin.packageName).version,
      // The generated validators import ajv's runtime helpers and ajv-formats' formats.
      ajv: wiregen.dependencies?.['ajv'] ?? 'latest',
      'ajv-formats': wiregen.dependencies?.['ajv-formats'] ?? 'latest',
    },
    devDependencies: {
      wiregen: wiregen.version,
      // tsx runs the TypeScript sources for `wiregen serve <spec>` (npm run dev on Node).
      ...(node ? { tsx: wiregen.peerDependencies?.['tsx'] ?? 'latest' } : {}),
      ...t.devDependencies,
      ...TOOLING,
    },
  };
  const specText = read(`${kind}/${k.spec}`);
  const files = new Map<string, string>([[k.spec, t.main ? specText : specText.replace(MAIN_LINES, '')]]);
  for (const [path, from] of t.files) files.set(path, 'text' in from ? from.text : read(from.template));
  files.set('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  files.set('tsconfig.json', read('common/tsconfig.json'));
  files.set('.gitignore', read('common/gitignore') + t.ignore.map((l) => `${l}\n`).join(''));
  return files;
}

/**
 * Writes a new project into `dir` (created if missing); refuses a folder that is not empty. Returns the
 * files written, relative to it, the commands to run next and the target's notes.
 */
export function initProject(
  dir: string,
  kind: SpecKind,
  shown: string,
  target: Target = 'node',
): { files: string[]; next: string; notes: readonly string[] } {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new CliError([`wiregen init: ${shown} is a file; give a new or empty folder`]);
    if (readdirSync(dir).length) throw new CliError([`wiregen init: ${shown} is not empty; give a new or empty folder`]);
  }
  const name = projectName(resolve(dir), KINDS[kind].fallback);
  const files = scaffold(kind, name, target);
  for (const [rel, text] of files) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  const { next, notes } = targetFiles(target, kind, name, KINDS[kind].spec);
  return { files: [...files.keys()], next, notes };
}
