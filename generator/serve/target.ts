/**
 * @module serve/target — what `wiregen serve <target>` serves. The target is a spec file (.yaml, .yml,
 * .json: its `main` names the module, relative to the spec), a module (.js, .mjs; .ts, .mts with tsx
 * installed), or a bare name: `fixtures/<name>.ts` (or .js, .mjs) of the working directory, as in the wiregen
 * repository. The module's default export is what a generated createServer or createAgent returns (an
 * McpServer, or the options of an A2aServer), an McpServer or A2aServer built by hand, or a catalogue
 * (defineServer's FixtureDefinition); its `handlerSets` export holds other sets for `--handlers <set>`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { A2aServer, isAgentDefinition, type AgentDefinition } from '@wiregen/runtime/a2a';
import { catalogServerOptions, McpServer, type FixtureDefinition } from '@wiregen/runtime/mcp';
import { CliError } from '../commands/command.ts';
import { InputError } from '../errors.ts';
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
    const dir = join(cwd, 'fixtures');
    const found = ['.ts', '.js', '.mjs'].map((e) => join(dir, `${target}${e}`)).find((p) => existsSync(p));
    if (found) return found;
    const known = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => /\.(ts|js|mjs)$/.test(f))
          .map((f) => f.replace(/\.\w+$/, ''))
      : [];
    throw new CliError([
      `wiregen serve: unknown target "${target}": not a file, and no fixtures/${target}.ts here${known.length ? ` (fixtures: ${known.join(', ')})` : ''}`,
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

/**
 * Imports `path` (with `importer`; tests give another). A `.ts` module Node cannot load on its own is loaded
 * again through tsx (an optional peer of wiregen) when it is installed. Missing imports and BehavioursError
 * (a generated createServer's check) are bad input, one line each.
 */
export async function importModule(
  path: string,
  shown: string,
  tsx: () => Promise<boolean> = registerTsx,
  importer: (href: string) => Promise<unknown> = (href) => import(href),
): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  const load = async (href: string) => {
    try {
      return (await importer(href)) as Record<string, unknown>;
    } catch (err) {
      const e = err as { name?: unknown; code?: unknown; problems?: unknown; message?: unknown };
      if (e.name === 'BehavioursError' && Array.isArray(e.problems)) throw new CliError(e.problems.map(String));
      if (e.code === 'ERR_MODULE_NOT_FOUND') throw new CliError([`${shown}: cannot load it: ${String(e.message).split('\n')[0]}`]);
      // What Node says of a TypeScript module with ES imports in a package that is not "type": "module".
      if (e.code === 'ERR_REQUIRE_CYCLE_MODULE')
        throw new CliError([`${shown}: cannot load it as an ES module: its package.json needs "type": "module" (or name the file .mts)`]);
      throw err;
    }
  };
  try {
    return await load(url);
  } catch (err) {
    if (!TYPESCRIPT.has(extname(path)) || (err as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  }
  if (!(await tsx()))
    throw new CliError([`${shown}: a TypeScript module: install tsx to serve it (npm install --save-dev tsx), or build it and serve the .js`]);
  // A new URL: the failed import of the plain one stays in Node's module map.
  return load(`${url}?tsx`);
}

const isMcpServer = (v: unknown): v is McpServer =>
  v instanceof McpServer || (isObject(v) && typeof v['connect'] === 'function' && isObject(v['options']) && isObject(v['options']['handlers']));
const isCatalogue = (v: unknown): v is FixtureDefinition =>
  isObject(v) && isObject(v['spec']) && isObject(v['behaviours']) && isObject(v['validators']);
const isA2aServer = (v: unknown): v is A2aServer =>
  v instanceof A2aServer || (isObject(v) && isObject(v['store']) && isObject(v['options']) && isAgentDefinition(v['options']));

/** What a module's export serves, as chosen. */
async function served(value: unknown, shown: string, choice: ServeChoice): Promise<Served> {
  if (isMcpServer(value) || isCatalogue(value)) {
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
  const mod = await importModule(path, shown);
  if (choice.handlers === undefined || choice.handlers === 'base') return served(mod['default'], shown, choice);
  const sets = isObject(mod['handlerSets']) ? mod['handlerSets'] : {};
  if (!Object.hasOwn(sets, choice.handlers))
    throw new CliError([`wiregen serve: ${shown} has no handler set "${choice.handlers}" (sets: ${['base', ...Object.keys(sets)].join(', ')})`]);
  return served(sets[choice.handlers], `${shown} (handlerSets.${choice.handlers})`, choice);
}
