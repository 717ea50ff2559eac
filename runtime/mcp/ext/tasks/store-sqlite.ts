/**
 * @module mcp/ext/tasks/store-sqlite — the tasks extension's store in one SQLite file (better-sqlite3 v12, the
 * optional peer the A2A store uses too), so tasks survive a restart: a client polling `tasks/get` after the
 * server came back still finds its task and its result (SEP-2663 "Task Polling": "Clients SHOULD persist task
 * IDs … so that polling can resume after a crash or restart"). One row per task, its record as JSON; the
 * status and expiry columns serve `unfinished` and `expired`. Every write is one statement (atomic).
 */
import { openSqlite, type SqliteDatabase as Database, type SqliteStatement as Statement } from '../../../core/sqlite.ts';
import { expiresAt, TERMINAL, type McpTaskStore, type StoredTask } from './store.ts';

/** `PRAGMA user_version` of the schema below; a file with a newer version is refused. */
export const MCP_TASKS_SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS mcp_tasks (
  id TEXT PRIMARY KEY NOT NULL,
  status TEXT NOT NULL,
  expires_at INTEGER,
  json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS mcp_tasks_by_expiry ON mcp_tasks (expires_at) WHERE expires_at IS NOT NULL;
PRAGMA user_version = ${MCP_TASKS_SCHEMA_VERSION};
`;

export interface SqliteMcpTaskStoreOptions {
  /** How long a write waits for another connection's lock before failing (SQLITE_BUSY). Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

export class SqliteMcpTaskStore implements McpTaskStore {
  readonly filename: string;
  readonly #db: Database;
  readonly #insert: Statement;
  readonly #update: Statement;
  readonly #get: Statement;
  readonly #delete: Statement;
  readonly #unfinished: Statement;
  readonly #expired: Statement;

  /** Opens (or creates) the store in `filename`; `':memory:'` for one that lives as long as this object. */
  constructor(filename: string, options: SqliteMcpTaskStoreOptions = {}) {
    this.filename = filename;
    const db = openSqlite(filename, {
      what: 'MCP task store',
      schema: SCHEMA,
      version: MCP_TASKS_SCHEMA_VERSION,
      busyTimeoutMs: options.busyTimeoutMs,
    });
    this.#db = db;
    this.#insert = db.prepare('INSERT INTO mcp_tasks (id, status, expires_at, json) VALUES (@id, @status, @expiresAt, @json)');
    this.#update = db.prepare('UPDATE mcp_tasks SET status = @status, expires_at = @expiresAt, json = @json WHERE id = @id');
    this.#get = db.prepare('SELECT json FROM mcp_tasks WHERE id = ?');
    this.#delete = db.prepare('DELETE FROM mcp_tasks WHERE id = ?');
    const terminal = [...TERMINAL].map((s) => `'${s}'`).join(', ');
    this.#unfinished = db.prepare(`SELECT id FROM mcp_tasks WHERE status NOT IN (${terminal})`);
    this.#expired = db.prepare('SELECT id FROM mcp_tasks WHERE expires_at IS NOT NULL AND expires_at < ?');
  }

  /** The connection, checked open: after close() every call rejects with this message. */
  #live(): void {
    if (!this.#db.open) throw new Error(`the SQLite MCP task store ${this.filename} is closed`);
  }

  #row(record: StoredTask) {
    const { task } = record;
    return { id: task.taskId, status: task.status, expiresAt: expiresAt(task) ?? null, json: JSON.stringify(record) };
  }

  async create(record: StoredTask): Promise<void> {
    this.#live();
    this.#insert.run(this.#row(record));
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    this.#live();
    const row = this.#get.get(taskId) as { json: string } | undefined;
    return row && (JSON.parse(row.json) as StoredTask);
  }

  async put(record: StoredTask): Promise<void> {
    this.#live();
    this.#update.run(this.#row(record));
  }

  async delete(taskId: string): Promise<boolean> {
    this.#live();
    return this.#delete.run(taskId).changes > 0;
  }

  async unfinished(): Promise<string[]> {
    this.#live();
    return (this.#unfinished.all() as { id: string }[]).map((r) => r.id);
  }

  async expired(now: number): Promise<string[]> {
    this.#live();
    return (this.#expired.all(now) as { id: string }[]).map((r) => r.id);
  }

  /** Closes the file; closing twice is harmless. */
  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
