/**
 * @module a2a/postgres/store — a TaskStore in PostgreSQL (node-postgres, `pg` v8), which many instances of
 * an agent share: the schema is migrated at open (migrations.ts), tasks are saved with optimistic
 * concurrency (VersionedTaskStore: a version column, compare-and-set), and ListTasks filters and orders in
 * SQL as InMemoryTaskStore does (status timestamp descending, a task without one last, ties in insertion
 * order). Each write is one statement, so nothing is ever stored half-way. The hot statements are named, so
 * each pooled connection prepares them once.
 */
import pg from 'pg';
import { TaskConflictError, type TaskPage, type TaskQuery, type VersionedTask, type VersionedTaskStore } from '../store.ts';
import type { Task, TaskPushNotificationConfig } from '../types.ts';
import { unavailableOr } from './errors.ts';
import { migrate, type MigrationResult } from './migrations.ts';

export interface PostgresStoreOptions {
  /** Most connections the store's pool opens. Default 10. */
  readonly maxConnections?: number;
  /** Apply the schema migrations at open (migrations.ts). Default true; false expects them applied already. */
  readonly migrate?: boolean;
  /**
   * How long getting a connection may take before the call fails as StoreUnavailableError (pg's
   * `connectionTimeoutMillis`, unless the config gives one): what bounds an answer while the database is
   * unreachable. Default 5000 ms.
   */
  readonly connectTimeoutMs?: number;
}

/** The ListTasks filters, each a column condition with its parameter. */
const FILTERS = [
  ['contextId', 'context_id'],
  ['status', 'state'],
  ['statusTimestampAfter', 'status_timestamp'],
] as const;

function where(query: TaskQuery, params: unknown[]): string {
  const conditions: string[] = [];
  for (const [field, column] of FILTERS) {
    const value = query[field];
    if (value === undefined) continue;
    params.push(String(value));
    conditions.push(`${column} ${field === 'statusTimestampAfter' ? '>=' : '='} $${params.length}`);
  }
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
}

/** The columns beside a task's JSON, in the order the write statements take them ($1 … $5). */
function taskRow(task: Task): unknown[] {
  // Serialised first: a value JSON cannot hold fails here, before anything is sent.
  const json = JSON.stringify(task);
  return [task.id, task.contextId ?? null, String(task.status.state), task.status.timestamp ?? null, json];
}

const UPSERT_TASK = `
  INSERT INTO a2a_tasks (id, context_id, state, status_timestamp, json, version) VALUES ($1, $2, $3, $4, $5, 1)
  ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
    status_timestamp = excluded.status_timestamp, json = excluded.json, version = a2a_tasks.version + 1`;
const INSERT_TASK = `
  INSERT INTO a2a_tasks (id, context_id, state, status_timestamp, json, version) VALUES ($1, $2, $3, $4, $5, 1)
  ON CONFLICT (id) DO NOTHING RETURNING version`;
const UPDATE_TASK = `
  UPDATE a2a_tasks SET context_id = $2, state = $3, status_timestamp = $4, json = $5, version = version + 1
  WHERE id = $1 AND version = $6 RETURNING version`;

/** A URL as shown in messages: host, port and database, never a password. */
export function describeDatabase(config: string | pg.PoolConfig): string {
  if (typeof config !== 'string') return `postgres://${config.host ?? 'localhost'}:${config.port ?? 5432}/${config.database ?? ''}`;
  try {
    const url = new URL(config);
    return `postgres://${url.host}${url.pathname}`;
  } catch {
    return 'the PostgreSQL database';
  }
}

export class PostgresTaskStore implements VersionedTaskStore {
  /** The connections, shared with the cluster coordination built on this store (cluster.ts). */
  readonly pool: pg.Pool;
  /** Where the store is, for messages (no password). */
  readonly database: string;
  /** What the migrations found and left (undefined when they were not run). */
  readonly migrated: MigrationResult | undefined;
  #closed = false;

  private constructor(pool: pg.Pool, database: string, migrated: MigrationResult | undefined) {
    this.pool = pool;
    this.database = database;
    this.migrated = migrated;
  }

  /** Connects to `config` (a postgres:// URL or pg's PoolConfig) and applies the missing migrations. */
  static async open(config: string | pg.PoolConfig, options: PostgresStoreOptions = {}): Promise<PostgresTaskStore> {
    const database = describeDatabase(config);
    const pool = new pg.Pool({
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      ...(typeof config === 'string' ? { connectionString: config } : config),
      max: options.maxConnections ?? 10,
    });
    // An idle connection's error (the server restarting) is the pool's to replace, not the process's to crash on.
    pool.on('error', () => undefined);
    try {
      const migrated = options.migrate === false ? undefined : await migrate(pool, undefined, database);
      return new PostgresTaskStore(pool, database, migrated);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
  }

  /** The pool, checked open: after close() every call rejects with this message. */
  live(): pg.Pool {
    if (this.#closed) throw new Error(`the PostgreSQL task store ${this.database} is closed`);
    return this.pool;
  }

  /**
   * One statement on the pool (checked open). A connection error (the server down, restarting, or ending the
   * session) rejects as StoreUnavailableError (errors.ts); any other error as it is.
   */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.live()
      .query<R>(text, values)
      .catch((err: unknown) => {
        throw unavailableOr(err, this.database);
      });
  }

  async getTask(id: string): Promise<Task | undefined> {
    const { rows } = await this.query<{ json: Task }>({
      name: 'a2a-get-task',
      text: 'SELECT json FROM a2a_tasks WHERE id = $1',
      values: [id],
    });
    return rows[0]?.json;
  }

  async readTask(id: string): Promise<VersionedTask | undefined> {
    const { rows } = await this.query<{ json: Task; version: string }>({
      name: 'a2a-read-task',
      text: 'SELECT json, version FROM a2a_tasks WHERE id = $1',
      values: [id],
    });
    return rows[0] && { task: rows[0].json, version: Number(rows[0].version) };
  }

  async saveTask(task: Task): Promise<void> {
    const values = taskRow(task);
    await this.query({ name: 'a2a-upsert-task', text: UPSERT_TASK, values });
  }

  async saveTaskIf(task: Task, expected: number): Promise<number> {
    const values = taskRow(task);
    const { rows } =
      expected === 0
        ? await this.query<{ version: string }>({ name: 'a2a-insert-task', text: INSERT_TASK, values })
        : await this.query<{ version: string }>({ name: 'a2a-update-task', text: UPDATE_TASK, values: [...values, expected] });
    if (!rows[0]) throw new TaskConflictError(task.id, expected);
    return Number(rows[0].version);
  }

  async listTasks(query: TaskQuery, page?: TaskPage): Promise<Task[]> {
    const params: unknown[] = [];
    const filter = where(query, params);
    params.push(page?.limit ?? null, page?.offset ?? 0);
    const { rows } = await this.query<{ json: Task }>(
      `SELECT json FROM a2a_tasks${filter} ORDER BY status_timestamp DESC NULLS LAST, seq LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map((r) => r.json);
  }

  async countTasks(query: TaskQuery): Promise<number> {
    const params: unknown[] = [];
    const { rows } = await this.query<{ n: string }>(`SELECT count(*) AS n FROM a2a_tasks${where(query, params)}`, params);
    return Number(rows[0]!.n);
  }

  async getPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    const { rows } = await this.query<{ json: TaskPushNotificationConfig }>({
      name: 'a2a-get-configs',
      text: 'SELECT json FROM a2a_push_configs WHERE task_id = $1 ORDER BY seq',
      values: [taskId],
    });
    return rows.map((r) => r.json);
  }

  async savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    const json = JSON.stringify(config);
    await this.query(
      `INSERT INTO a2a_push_configs (task_id, id, json) VALUES ($1, $2, $3)
       ON CONFLICT (task_id, id) DO UPDATE SET json = excluded.json`,
      [config.taskId ?? '', config.id ?? '', json],
    );
  }

  async deletePushConfig(taskId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.query('DELETE FROM a2a_push_configs WHERE task_id = $1 AND id = $2', [taskId, id]);
    return (rowCount ?? 0) > 0;
  }

  /** Closes the pool (waits for the queries under way); closing twice is harmless. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }
}
