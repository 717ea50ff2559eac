/**
 * @module core/sqlite — opening a store's SQLite file with better-sqlite3 v12 (an optional peer, loaded only by
 * the stores that use it: this module is not part of the core barrel). The schema's `PRAGMA user_version` is
 * checked before anything is written: a file of a newer schema is refused, naming the file.
 */
import { createRequire } from 'node:module';

/** The part of better-sqlite3's API the stores use (the package ships no types; @types/better-sqlite3 is not installed). */
export interface SqliteStatement {
  run(...params: unknown[]): { readonly changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  readonly open: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(sql: string, options?: { readonly simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

type DatabaseConstructor = new (filename: string, options?: { readonly timeout?: number }) => SqliteDatabase;

export interface OpenSqliteOptions {
  /** What the file holds, for the refusal of a newer schema, e.g. `task store`. */
  readonly what: string;
  /** The schema's statements (CREATE … IF NOT EXISTS, ending with its `PRAGMA user_version`). */
  readonly schema: string;
  /** The `user_version` that schema sets. */
  readonly version: number;
  /** How long a write waits for another connection's lock before failing (SQLITE_BUSY). Default 5000 ms. */
  readonly busyTimeoutMs?: number | undefined;
}

let Sqlite: DatabaseConstructor | undefined;

/** Opens (or creates) `filename` (`':memory:'` for a database that lives as long as the connection) in WAL mode with the schema applied. */
export function openSqlite(filename: string, options: OpenSqliteOptions): SqliteDatabase {
  Sqlite ??= createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
  const db = new Sqlite(filename, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > options.version)
      throw new Error(
        `${filename} holds ${options.what} schema version ${version}; this runtime knows up to ${options.version}: upgrade wiregen or use another file`,
      );
    db.pragma('journal_mode = WAL');
    db.exec(options.schema);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
