/**
 * @module serve/target — what `wiregen serve <target>` serves. The target is a spec file (.yaml, .yml,
 * .json: its `main` names the module, relative to the spec), a module (.js, .mjs; .ts, .mts with tsx
 * installed), or a bare name: `samples/<name>.ts` (or .js, .mjs) of the working directory, as in the wiregen
 * repository. The module's default export is what a generated createServer or createAgent returns (an
 * McpServer, or the options of an A2aServer), an McpServer or A2aServer built by hand, mcpServer()'s builder
 * (built here), or a catalog (defineServer's CatalogDefinition); its `handlerSets` export holds other sets
 * for `--handlers <set>`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { A2aServer, isAgentDefinition, type AgentDefinition } from '@wiregen/runtime/a2a';
import { catalogServerOptions, McpServer, type CatalogDefinition } from '@wiregen/runtime/mcp';
import { CliError, debugging } from '../commands/command.ts';
import { EXIT_BAD_INPUT, InputError } from '../errors.ts';
import { readYaml } from '../load/yaml.ts';
import { withNotifications } from './notifications.ts';

/** A server ready to listen: MCP (stdio or HTTP) or A2A (HTTP, with what its agent serves beside A2A). */
export type Served =
  | { readonly protocol: 'mcp'; readonly server: McpServer }
  | { readonly protocol: 'a2a'; readonly server: A2aServer; readonly http?: AgentDefinition['http'] };

export interface ServeChoice {
  /** A set of the module's `handlerSets` export (default: `base`, its default export). */
  readonly handlers?: string;
  /** Advertise the change notifications (serve/notifications.ts); MCP only. */
  readonly notifications?: boolean;
}

const SPEC = new Set(['.yaml', '.yml', '.json']);
const MODULE = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);
const BARE = /^[a-z][a-z0-9-]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The module a spec file names in `main`, relative to the spec. */
function mainOf(spec: string, shown: string): string {
  const { data, locate } = readYaml(spec, shown);
  const main = isObject(data) ? data['main'] : undefined;
  if (typeof main !== 'string' || main === '')
    throw new CliError([
      `${shown}: names no module to serve: add \`main: ./src/server.ts\` (the module whose default export createServer or createAgent made)`,
    ]);
  const path = resolve(dirname(spec), main);
  if (!existsSync(path)) throw new InputError([{ file: shown, pointer: '/main', ...locate('/main'), message: `${main} does not exist` }]);
  return path;
}

/** The module file a target names. */
function moduleOf(target: string, cwd: string): string {
  const abs = resolve(cwd, target);
  const ext = extname(target);
  if (existsSync(abs) && statSync(abs).isFile()) {
    if (SPEC.has(ext)) return mainOf(abs, target);
    if (MODULE.has(ext)) return abs;
    throw new CliError([`wiregen serve: ${target}: not a spec (.yaml, .yml, .json) or a module (.js, .mjs, .ts)`]);
  }
  if (BARE.test(target)) {
    const dir = join(cwd, 'samples');
    const found = ['.ts', '.js', '.mjs'].map((e) => join(dir, `${target}${e}`)).find((p) => existsSync(p));
    if (found) return found;
    const known = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => /\.(ts|js|mjs)$/.test(f))
          .map((f) => f.replace(/\.\w+$/, ''))
      : [];
    throw new CliError([
      `wiregen serve: unknown target "${target}": not a file, and no samples/${target}.ts here${known.length ? ` (samples: ${known.join(', ')})` : ''}`,
    ]);
  }
  throw new CliError([`wiregen serve: unknown target "${target}": no such file`]);
}

/** Registers tsx's loader, if it is installed; false when it is not. */
async function registerTsx(): Promise<boolean> {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    return true;
  } catch {
    return false;
  }
}

/** `file:line:column` (or `file:line`) of the first frame of `err`'s stack in the project at `cwd` (not in node_modules). */
function frameIn(err: unknown, cwd: string): string | undefined {
  const stack = (err as { stack?: unknown }).stack;
  if (typeof stack !== 'string') return undefined;
  // `at f (/p/x.ts:3:9)`, `at file:///p/x.ts?tsx:5:1`, and a SyntaxError's first line `file:///p/x.mjs:2`.
  for (const m of stack.matchAll(/\(?((?:file:\/\/)?\/[^\s()?:]+)(?:\?[^\s():]*)?:(\d+)(?::(\d+))?\)?$/gm)) {
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    const rel = relative(cwd, file);
    if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('node_modules')) continue;
    return `${rel}:${m[2]}${m[3] ? `:${m[3]}` : ''}`;
  }
  return undefined;
}

/**
 * The first error of a TypeScript module tsx could not compile: esbuild's message lists each as
 * `<file>:<line>:<column>: ERROR: <text>`, the column counted from 0.
 */
function compileError(err: unknown, cwd: string): { text: string; at: string } | undefined {
  const message = (err as { message?: unknown }).message;
  if (typeof message !== 'string') return undefined;
  const m = /^(\S+?):(\d+):(\d+): ERROR: (.*)$/m.exec(message);
  if (!m) return undefined;
  return { text: m[4]!, at: `${relative(cwd, m[1]!) || m[1]}:${m[2]}:${Number(m[3]) + 1}` };
}

/**
 * What a module threw while it was imported or while its server was built, as one line: where (the first
 * frame of the stack in the user's project, unless the message names a place itself), the error's name when
 * it is not a plain Error, its message's first line, and the module. The stack is kept as the cause (printed
 * with WIREGEN_DEBUG=1).
 */
export function moduleError(err: unknown, shown: string, cwd: string, doing: 'loading' | 'building the server of' = 'loading'): CliError {
  const e = err as { name?: unknown; message?: unknown; problems?: unknown };
  // A generated createServer's or createAgent's check: one line per problem, already naming the place.
  if (e?.name === 'BehavioursError' && Array.isArray(e.problems)) return new CliError(e.problems.map(String), EXIT_BAD_INPUT, err);
  const compile = compileError(err, cwd);
  const message = compile?.text ?? (err instanceof Error || typeof e?.message === 'string' ? String(e.message) : String(err)).split('\n')[0]!.trim();
  const name = typeof e?.name === 'string' && e.name !== 'Error' ? `${e.name}: ` : '';
  const placed = /^[^\s:]+:\d+(:\d+)?[: ]/.test(message);
  const at = compile?.at ?? (placed ? undefined : frameIn(err, cwd));
  const hint = debugging() ? '' : '; WIREGEN_DEBUG=1 prints the stack';
  const where = at ? `${at}: ` : placed ? '' : `${shown}: `;
  return new CliError([`${where}${name}${message} (thrown while ${doing} ${shown}${hint})`], EXIT_BAD_INPUT, err);
}

/**
 * Imports `path` (with `importer`; tests give another). A `.ts` module Node cannot load on its own is loaded
 * again through tsx (an optional peer of wiregen) when it is installed. Whatever the module throws while it
 * loads (a missing import, a definition error, a generated createServer's BehavioursError) is bad input: one
 * line, naming the module (moduleError).
 */
export async function importModule(
  path: string,
  shown: string,
  tsx: () => Promise<boolean> = registerTsx,
  importer: (href: string) => Promise<unknown> = (href) => import(href),
  cwd: string = process.cwd(),
): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  const load = async (href: string, retry: boolean) => {
    try {
      return (await importer(href)) as Record<string, unknown>;
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      // A TypeScript module Node cannot load: tried again through tsx (below).
      if (retry && TYPESCRIPT.has(extname(path)) && e.code === 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
      if (e.code === 'ERR_MODULE_NOT_FOUND')
        throw new CliError([`${shown}: cannot load it: ${String(e.message).split('\n')[0]}`], EXIT_BAD_INPUT, err);
      // What Node says of a TypeScript module with ES imports in a package that is not "type": "module".
      if (e.code === 'ERR_REQUIRE_CYCLE_MODULE')
        throw new CliError([`${shown}: cannot load it as an ES module: its package.json needs "type": "module" (or name the file .mts)`]);
      throw moduleError(err, shown, cwd);
    }
  };
  try {
    return await load(url, true);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  }
  if (!(await tsx()))
    throw new CliError([`${shown}: a TypeScript module: install tsx to serve it (npm install --save-dev tsx), or build it and serve the .js`]);
  // A new URL: the failed import of the plain one stays in Node's module map.
  return load(`${url}?tsx`, false);
}

const isMcpServer = (v: unknown): v is McpServer =>
  v instanceof McpServer || (isObject(v) && typeof v['connect'] === 'function' && isObject(v['options']) && isObject(v['options']['handlers']));
const isBuilder = (v: unknown): v is { build(): Promise<unknown> } =>
  isObject(v) && typeof v['build'] === 'function' && typeof v['definition'] === 'function' && typeof v['spec'] === 'function';
const isCatalog = (v: unknown): v is CatalogDefinition =>
  isObject(v) && isObject(v['spec']) && isObject(v['behaviours']) && isObject(v['validators']);
const isA2aServer = (v: unknown): v is A2aServer =>
  v instanceof A2aServer || (isObject(v) && isObject(v['store']) && isObject(v['options']) && isAgentDefinition(v['options']));

/** What a module's export serves, as chosen. */
async function served(value: unknown, shown: string, choice: ServeChoice, cwd: string): Promise<Served> {
  try {
    return await build(value, shown, choice);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw moduleError(err, shown, cwd, 'building the server of');
  }
}

async function build(value: unknown, shown: string, choice: ServeChoice): Promise<Served> {
  // mcpServer()'s builder, not built yet: built here (its definition is checked and compiled then).
  if (isBuilder(value)) value = await value.build();
  if (isMcpServer(value) || isCatalog(value)) {
    const server = isMcpServer(value) ? value : new McpServer(catalogServerOptions(value));
    if (!choice.notifications) return { protocol: 'mcp', server };
    const { handshake, stateless } = server.options.capabilities;
    return {
      protocol: 'mcp',
      server: new McpServer({
        ...server.options,
        capabilities: { handshake: await withNotifications(handshake, 'handshake'), stateless: await withNotifications(stateless, 'stateless') },
      }),
    };
  }
  const agent = isA2aServer(value) || isAgentDefinition(value);
  if (agent && choice.notifications) throw new CliError([`wiregen serve: --notifications is for MCP servers; ${shown} is an A2A agent`]);
  if (isA2aServer(value)) return { protocol: 'a2a', server: value };
  if (isAgentDefinition(value)) {
    const { name: _name, http, ...options } = value;
    return { protocol: 'a2a', server: new A2aServer(options), ...(http ? { http } : {}) };
  }
  throw new CliError([
    `${shown}: its default export is not a server: export what a generated createServer or createAgent returns (or an McpServer or A2aServer)`,
  ]);
}

/** Resolves `target` (relative to `cwd`), imports its module and returns the server it serves. */
export async function resolveTarget(target: string, cwd: string, choice: ServeChoice = {}): Promise<Served> {
  const path = moduleOf(target, cwd);
  const shown = relative(cwd, path) || path;
  const mod = await importModule(path, shown, registerTsx, (href) => import(href), cwd);
  if (choice.handlers === undefined || choice.handlers === 'base') return served(mod['default'], shown, choice, cwd);
  const sets = isObject(mod['handlerSets']) ? mod['handlerSets'] : {};
  if (!Object.hasOwn(sets, choice.handlers))
    throw new CliError([`wiregen serve: ${shown} has no handler set "${choice.handlers}" (sets: ${['base', ...Object.keys(sets)].join(', ')})`]);
  return served(sets[choice.handlers], `${shown} (handlerSets.${choice.handlers})`, choice, cwd);
}
