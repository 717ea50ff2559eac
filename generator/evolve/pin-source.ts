/**
 * @module evolve/pin-source — what `wiregen pin --from <dir-or-file>` takes in: the files of one protocol
 * revision in an upstream checkout (or a copy of one), and what git says about where they come from.
 *
 * From a folder: MCP takes `schema.json` and every `examples/<Def>/*.json` (the layout of
 * schema/<revision>/ in https://github.com/modelcontextprotocol/modelcontextprotocol); A2A takes the one
 * `.proto` and the bundled JSON Schema beside it or in `json/` (specification/ in
 * https://github.com/a2aproject/A2A; upstream builds the bundle rather than committing it). From a file: that
 * one file, replacing the pin's schema, proto or bundle.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fail } from '../errors.ts';
import type { Pin } from '../load/pins.ts';
import { workTreeOf } from './git.ts';

/** One file to pin: its name in the pin's folder, where it is now, and its path upstream (below `--path`). */
export interface SourceFile {
  /** Name inside the pin's folder, e.g. `schema.json`, `examples/Tool/basic.json`, `a2a.proto`. */
  readonly rel: string;
  readonly abs: string;
  /** Path relative to the source (`--from`): appended to `--path` for the file's `original`. */
  readonly upstream: string;
  readonly role: 'schema' | 'proto' | 'example';
}

/** What git knows about the source, when `--from` is in an upstream checkout. */
export interface GitFacts {
  readonly commit?: string;
  readonly date?: string;
  readonly tag?: string;
  readonly repository?: string;
  /** `--from` relative to the checkout's top folder. */
  readonly path?: string;
}

function jsonFiles(dir: string, prefix: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...jsonFiles(join(dir, entry.name), rel));
    else if (entry.name.endsWith('.json')) out.push(rel);
  }
  return out;
}

/** `git -C dir …`, trimmed; undefined when git fails. */
function git(dir: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What git says about `from`: its checkout's HEAD commit, date, exact tag, origin and path. Nothing when
 * `from` is not in a git checkout, or is in the project's own (copied files are no upstream checkout).
 */
export function gitFacts(from: string, projectRoot: string): GitFacts {
  const dir = statSync(from).isDirectory() ? from : dirname(from);
  const top = workTreeOf(dir);
  if (!top || top === workTreeOf(projectRoot)) return {};
  if (git(dir, ['status', '--porcelain', '--', from]))
    fail({ file: from, message: 'has uncommitted changes in its git checkout: commit them, or pin a clean checkout' });
  const origin = git(dir, ['remote', 'get-url', 'origin'])?.replace(/\.git$/, '');
  const facts: Record<string, string | undefined> = {
    commit: git(dir, ['rev-parse', 'HEAD']),
    date: git(dir, ['log', '-1', '--format=%cI', 'HEAD']),
    tag: git(dir, ['describe', '--tags', '--exact-match', 'HEAD']),
    repository: origin?.replace(/^git@github\.com:/, 'https://github.com/'),
    path: relative(top, from).split('\\').join('/') || undefined,
  };
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined)) as GitFacts;
}

/** The files `from` offers for a pin of `protocol`; `existing` names the files of the pin being updated. */
export function sourceFiles(from: string, protocol: Pin['protocol'], existing: Pin | undefined): SourceFile[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(from);
  } catch (e) {
    return fail({ file: from, message: `cannot read the source (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
  }
  const named = (path: string | undefined, fallback: string) => (path === undefined ? fallback : basename(path));
  if (!stat.isDirectory()) {
    const ext = extname(from);
    if (protocol === 'mcp') return [{ rel: 'schema.json', abs: from, upstream: '', role: 'schema' }];
    if (!existing) fail({ file: from, message: 'a new A2A pin needs its proto and its bundled JSON Schema: give --from the folder that holds both' });
    if (ext === '.proto') return [{ rel: named(existing.proto, 'a2a.proto'), abs: from, upstream: '', role: 'proto' }];
    if (ext === '.json') return [{ rel: named(existing.schema, 'a2a.json'), abs: from, upstream: '', role: 'schema' }];
    fail({ file: from, message: 'an A2A source file is a .proto or a .json bundle' });
  }
  if (protocol === 'mcp') {
    if (!existsSync(join(from, 'schema.json'))) fail({ file: from, message: 'holds no schema.json (the layout of schema/<revision>/ upstream)' });
    return [
      { rel: 'schema.json', abs: join(from, 'schema.json'), upstream: 'schema.json', role: 'schema' },
      ...jsonFiles(join(from, 'examples'), 'examples').map((rel): SourceFile => ({ rel, abs: join(from, rel), upstream: rel, role: 'example' })),
    ];
  }
  const protos = readdirSync(from).filter((f) => f.endsWith('.proto'));
  if (protos.length !== 1) fail({ file: from, message: `holds ${protos.length} .proto files; an A2A source holds exactly one` });
  const out: SourceFile[] = [{ rel: named(existing?.proto, protos[0]!), abs: join(from, protos[0]!), upstream: protos[0]!, role: 'proto' }];
  const bundle = ['a2a.json', 'json/a2a.json'].find((rel) => existsSync(join(from, rel)));
  if (bundle) out.unshift({ rel: named(existing?.schema, 'a2a.json'), abs: join(from, bundle), upstream: bundle, role: 'schema' });
  else if (!existing?.schema)
    fail({
      file: from,
      message:
        'holds no a2a.json (nor json/a2a.json): A2A builds its bundle from the proto (specification/json/README.md); build it and put it beside the proto',
    });
  return out;
}
