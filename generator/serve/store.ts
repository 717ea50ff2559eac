/**
 * @module serve/store — `wiregen serve <agent> --http <port> --store <scheme>:<where>`: where an A2A agent
 * keeps its tasks and push configurations, one table entry per scheme:
 *
 *   memory                 in this process (the default)
 *   sqlite:<path>          a SQLite file, kept across restarts (one instance; needs better-sqlite3)
 *   postgres:<url>         PostgreSQL, shared by every instance serving the agent there: tasks, streams,
 *                          cancellation, push delivery and recovery of a dead instance's tasks (needs pg);
 *                          a bare postgres:// or postgresql:// URL is taken too
 *
 * The runtime's stores are imported only for the scheme chosen (their peers are optional).
 */
import { resolve } from 'node:path';
import type { A2aServerOptions } from '@wiregen/runtime/a2a';
import { CliError } from '../commands/command.ts';

/** What a scheme adds to the agent's A2aServer options. */
export type StoreOptions = Pick<A2aServerOptions, 'store' | 'cluster'>;

interface Scheme {
  /** What follows `<scheme>:`, for the help and the errors. */
  readonly argument: string | undefined;
  open(where: string, cwd: string): Promise<StoreOptions>;
}

const SCHEMES: Readonly<Record<string, Scheme>> = {
  memory: { argument: undefined, open: async () => ({}) },
  sqlite: {
    argument: '<path>',
    async open(where, cwd) {
      const { SqliteTaskStore } = await import('@wiregen/runtime/a2a/sqlite');
      return { store: new SqliteTaskStore(resolve(cwd, where)) };
    },
  },
  postgres: {
    argument: '<url>',
    async open(where) {
      const { PostgresCluster } = await import('@wiregen/runtime/a2a/postgres');
      return { cluster: await PostgresCluster.open(where) };
    },
  },
};

/** The schemes as the help lists them: `memory | sqlite:<path> | postgres:<url>`. */
export const STORE_SCHEMES = Object.entries(SCHEMES)
  .map(([name, s]) => (s.argument ? `${name}:${s.argument}` : name))
  .join(' | ');

/** `spec` split into its scheme and what follows; a bare PostgreSQL URL is the postgres scheme. */
function parse(spec: string): { readonly name: string; readonly where: string } {
  if (/^postgres(ql)?:\/\//.test(spec)) return { name: 'postgres', where: spec };
  const colon = spec.indexOf(':');
  return colon < 0 ? { name: spec, where: '' } : { name: spec.slice(0, colon), where: spec.slice(colon + 1) };
}

/** Checks `spec` without opening anything: a CliError (exit 2) for a scheme not in the table or a missing argument. */
export function checkStore(spec: string): Scheme & { readonly name: string; readonly where: string } {
  const { name, where } = parse(spec);
  const scheme = SCHEMES[name];
  if (!scheme) throw new CliError([`wiregen serve: --store ${JSON.stringify(spec)}: the scheme is one of ${STORE_SCHEMES}`]);
  if (scheme.argument && !where) throw new CliError([`wiregen serve: --store ${name}:${scheme.argument}: give the ${scheme.argument.slice(1, -1)}`]);
  if (!scheme.argument && where) throw new CliError([`wiregen serve: --store ${name} takes nothing after it, not ${JSON.stringify(where)}`]);
  return { ...scheme, name, where };
}

/** The store options `spec` names; a CliError otherwise (one line: exit 2 for a bad spec, 1 when the store cannot be opened). */
export async function openStore(spec: string, cwd: string): Promise<StoreOptions> {
  const { name, where, open } = checkStore(spec);
  try {
    return await open(where, cwd);
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    if (e.code === 'ERR_MODULE_NOT_FOUND')
      throw new CliError([`wiregen serve: --store ${name} needs ${name === 'postgres' ? 'pg' : 'better-sqlite3'}: npm install it`]);
    // The URL is not repeated: it may hold a password. Exit 1: the store could not be opened (not bad input).
    throw new CliError([`wiregen serve: --store ${name}: ${String(e.message).split('\n')[0]}`], 1);
  }
}
