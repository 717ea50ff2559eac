/**
 * @module a2a/store-sqlite — a durable TaskStore in one SQLite file (better-sqlite3 v12), so an agent's tasks
 * and push-notification configs survive a restart. better-sqlite3 is synchronous; the asynchronous TaskStore
 * interface stands in front of it (a thrown error becomes a rejection). Values are stored as JSON text; the
 * columns beside it exist for ListTasks, which filters in SQL and orders as InMemoryTaskStore does: status
 * timestamp descending (a task without one last), ties in insertion order. Every write is one transaction,
 * and its JSON is serialised before the transaction starts, so nothing is ever stored half-way.
 */
import { openSqlite, type SqliteDatabase as Database, type SqliteStatement as Statement } from '../core/sqlite.ts';
import type { TaskPage, TaskQuery, TaskStore } from './store.ts';
import type { Task, TaskPushNotificationConfig } from './types.ts';

/** `PRAGMA user_version` of the schema below; a file with a newer version is refused. */
export const SQLITE_SCHEMA_VERSION = 1;

/**
 * `seq` keeps insertion order (ListTasks' tie-break, the order of a task's push configs): a replace keeps it,
 * as Map.set does in InMemoryTaskStore. It is a column rather than the rowid, which VACUUM may renumber.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY NOT NULL,
  seq INTEGER NOT NULL UNIQUE,
  context_id TEXT,
  state TEXT NOT NULL,
  status_timestamp TEXT,
  json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tasks_by_context ON tasks (context_id, status_timestamp DESC, seq);
CREATE INDEX IF NOT EXISTS tasks_by_state ON tasks (state, status_timestamp DESC, seq);
CREATE INDEX IF NOT EXISTS tasks_by_time ON tasks (status_timestamp DESC, seq);
CREATE TABLE IF NOT EXISTS push_configs (
  task_id TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (task_id, id)
);
PRAGMA user_version = ${SQLITE_SCHEMA_VERSION};
`;

/** The ListTasks filters, each a column condition; one statement is prepared per combination. */
const FILTERS = [
  ['contextId', 'context_id = @contextId'],
  ['status', 'state = @status'],
  ['statusTimestampAfter', 'status_timestamp >= @statusTimestampAfter'],
] as const;

/** The prepared statement (by the mask of filters present) and the named parameters of a query. */
function filterOf(query: TaskQuery): { mask: number; params: Record<string, string> } {
  let mask = 0;
  const params: Record<string, string> = {};
  FILTERS.forEach(([field], i) => {
    const value = query[field];
    if (value === undefined) return;
    mask |= 1 << i;
    params[field] = String(value);
  });
  return { mask, params };
}

export interface SqliteTaskStoreOptions {
  /** How long a write waits for another connection's lock before failing (SQLITE_BUSY). Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

export class SqliteTaskStore implements TaskStore {
  readonly filename: string;
  readonly #db: Database;
  readonly #getTask: Statement;
  readonly #list: Statement[];
  readonly #count: Statement[];
  readonly #getConfigs: Statement;
  readonly #saveTask: (row: Record<string, unknown>) => void;
  readonly #saveConfig: (row: Record<string, unknown>) => void;
  readonly #deleteConfig: (taskId: string, id: string) => number;

  /** Opens (or creates) the store in `filename`; `':memory:'` for a store that lives as long as this object. */
  constructor(filename: string, options: SqliteTaskStoreOptions = {}) {
    this.filename = filename;
    const db = openSqlite(filename, { what: 'task store', schema: SCHEMA, version: SQLITE_SCHEMA_VERSION, busyTimeoutMs: options.busyTimeoutMs });
    this.#db = db;
    this.#getTask = db.prepare('SELECT json FROM tasks WHERE id = ?');
    const whereOf = (mask: number) => {
      const where = FILTERS.filter((_f, i) => mask & (1 << i)).map(([, condition]) => condition);
      return where.length ? ` WHERE ${where.join(' AND ')}` : '';
    };
    this.#count = Array.from({ length: 1 << FILTERS.length }, (_, mask) => db.prepare(`SELECT count(*) AS n FROM tasks${whereOf(mask)}`));
    this.#list = Array.from({ length: 1 << FILTERS.length }, (_, mask) => {
      return db.prepare(`SELECT json FROM tasks${whereOf(mask)} ORDER BY status_timestamp DESC, seq LIMIT @limit OFFSET @offset`);
    });
    this.#getConfigs = db.prepare('SELECT json FROM push_configs WHERE task_id = ? ORDER BY seq');
    const saveTask = db.prepare(`
      INSERT INTO tasks (id, seq, context_id, state, status_timestamp, json)
      VALUES (@id, (SELECT IFNULL(MAX(seq), 0) + 1 FROM tasks), @contextId, @state, @timestamp, @json)
      ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
        status_timestamp = excluded.status_timestamp, json = excluded.json`);
    const saveConfig = db.prepare(`
      INSERT INTO push_configs (task_id, id, seq, json)
      VALUES (@taskId, @id, (SELECT IFNULL(MAX(seq), 0) + 1 FROM push_configs WHERE task_id = @taskId), @json)
      ON CONFLICT (task_id, id) DO UPDATE SET json = excluded.json`);
    const deleteConfig = db.prepare('DELETE FROM push_configs WHERE task_id = ? AND id = ?');
    this.#saveTask = db.transaction((row: Record<string, unknown>) => void saveTask.run(row));
    this.#saveConfig = db.transaction((row: Record<string, unknown>) => void saveConfig.run(row));
    this.#deleteConfig = db.transaction((taskId: string, id: string) => deleteConfig.run(taskId, id).changes);
  }

  /** The connection, checked open: after close() every call rejects with this message. */
  #live(): Database {
    if (!this.#db.open) throw new Error(`the SQLite task store ${this.filename} is closed`);
    return this.#db;
  }

  async getTask(id: string): Promise<Task | undefined> {
    this.#live();
    const row = this.#getTask.get(id) as { json: string } | undefined;
    return row && (JSON.parse(row.json) as Task);
  }

  async saveTask(task: Task): Promise<void> {
    this.#live();
    const row = {
      id: task.id,
      contextId: task.contextId ?? null,
      state: String(task.status.state),
      timestamp: task.status.timestamp ?? null,
      json: JSON.stringify(task),
    };
    this.#saveTask(row);
  }

  async listTasks(query: TaskQuery, page?: TaskPage): Promise<Task[]> {
    this.#live();
    const { mask, params } = filterOf(query);
    // LIMIT -1: no limit.
    const rows = this.#list[mask]!.all({ ...params, limit: page?.limit ?? -1, offset: page?.offset ?? 0 }) as { json: string }[];
    return rows.map((r) => JSON.parse(r.json) as Task);
  }

  async countTasks(query: TaskQuery): Promise<number> {
    this.#live();
    const { mask, params } = filterOf(query);
    return (this.#count[mask]!.get(params) as { n: number }).n;
  }

  async getPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    this.#live();
    return (this.#getConfigs.all(taskId) as { json: string }[]).map((r) => JSON.parse(r.json) as TaskPushNotificationConfig);
  }

  async savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    this.#live();
    this.#saveConfig({ taskId: config.taskId ?? '', id: config.id ?? '', json: JSON.stringify(config) });
  }

  async deletePushConfig(taskId: string, id: string): Promise<boolean> {
    this.#live();
    return this.#deleteConfig(taskId, id) > 0;
  }

  /** Closes the file (WAL checkpointed); closing twice is harmless. */
  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
