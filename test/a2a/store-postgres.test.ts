/**
 * @module test/a2a/store-postgres — PostgresTaskStore's own guarantees, on a real PostgreSQL the test starts
 * (test/helpers/postgres.ts): migrations applied once at open (also by instances opening together), a
 * database of an older version brought forward with its data kept, a newer one refused; JSON stored as
 * written; a failed write storing nothing; a closed store refusing calls; and no lost update when two
 * stores (two instances' pools) update one task in a retry loop. The shared suites are store.test.ts's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS, POSTGRES_SCHEMA_VERSION } from '../../runtime/a2a/postgres/migrations.ts';
import { PostgresTaskStore } from '../../runtime/a2a/postgres/store.ts';
import { TaskConflictError, type VersionedTaskStore } from '../../runtime/a2a/store.ts';
import type { Task } from '../../runtime/a2a/types.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

function task(id: string, state: string, metadata?: Record<string, unknown>): Task {
  return { id, contextId: 'c1', status: { state }, ...(metadata ? { metadata } : {}) };
}

async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('migrations', () => {
  it('an empty database gets every migration, once, even with three instances opening together', async () => {
    const url = await postgres.createDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => PostgresTaskStore.open(url, { maxConnections: 2 })));
    expect(stores.map((s) => s.migrated).filter((m) => m?.from === 0)).toEqual([{ from: 0, to: POSTGRES_SCHEMA_VERSION }]);
    expect(stores.map((s) => s.migrated?.from).sort()).toEqual([0, POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION]);
    const applied = await sql<{ version: number; name: string }>(url, 'SELECT version, name FROM wiregen_migrations ORDER BY version');
    expect(applied).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('a database at version 1 is brought to the newest, its tasks kept', async () => {
    const url = await postgres.createDatabase();
    const pool = new pg.Pool({ connectionString: url });
    expect(await migrate(pool, 1)).toEqual({ from: 0, to: 1 });
    await pool.query(`INSERT INTO a2a_tasks (id, state, version, json) VALUES ('t1', 'TASK_STATE_WORKING', 1, $1)`, [
      JSON.stringify(task('t1', 'TASK_STATE_WORKING')),
    ]);
    await pool.end();
    const tables = async () =>
      (await sql<{ t: string }>(url, `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((r) => r.t);
    expect(await tables()).toEqual(['a2a_push_configs', 'a2a_tasks', 'wiregen_migrations']);

    const store = await PostgresTaskStore.open(url);
    expect(store.migrated).toEqual({ from: 1, to: POSTGRES_SCHEMA_VERSION });
    expect(await store.readTask('t1')).toEqual({ task: task('t1', 'TASK_STATE_WORKING'), version: 1 });
    expect(await tables()).toEqual([
      'a2a_instances',
      'a2a_push_configs',
      'a2a_push_outbox',
      'a2a_task_events',
      'a2a_task_leases',
      'a2a_tasks',
      'wiregen_migrations',
    ]);
    await store.close();
  });

  it('refuses a database of a newer schema, naming it and the versions, without a password', async () => {
    const url = await postgres.createDatabase('newer_schema');
    await (await PostgresTaskStore.open(url)).close();
    await sql(url, `INSERT INTO wiregen_migrations (version, name) VALUES (99, 'from the future')`);
    const withPassword = url.replace('postgres@', 'postgres:secret@');
    await expect(PostgresTaskStore.open(withPassword)).rejects.toThrow(
      `postgres://127.0.0.1:${postgres.port}/newer_schema holds task store schema version 99; this runtime knows up to ${POSTGRES_SCHEMA_VERSION}: upgrade wiregen or use another database`,
    );
  });
});

describe('PostgresTaskStore', () => {
  let url: string;
  beforeAll(async () => {
    url = await postgres.createDatabase();
  });

  it('keeps the JSON text as written, and the columns ListTasks filters on', async () => {
    const store = await PostgresTaskStore.open(url);
    const saved: Task = { ...task('json-1', 'TASK_STATE_WORKING'), status: { state: 'TASK_STATE_WORKING', timestamp: '2026-01-01T10:00:00.000Z' } };
    await store.saveTask(saved);
    const rows = await sql(url, `SELECT id, context_id, state, status_timestamp, version, json::text AS json FROM a2a_tasks WHERE id = 'json-1'`);
    expect(rows).toEqual([
      {
        id: 'json-1',
        context_id: 'c1',
        state: 'TASK_STATE_WORKING',
        status_timestamp: '2026-01-01T10:00:00.000Z',
        version: '1',
        json: JSON.stringify(saved),
      },
    ]);
    await store.close();
  });

  it('stores nothing of a write that fails', async () => {
    const store = await PostgresTaskStore.open(url);
    await store.saveTask(task('bad-1', 'TASK_STATE_WORKING'));
    const bad = { ...task('bad-1', 'TASK_STATE_COMPLETED'), metadata: { size: 1n } } as unknown as Task;
    await expect(store.saveTask(bad)).rejects.toThrow(/BigInt/);
    await expect(store.saveTaskIf(bad, 1)).rejects.toThrow(/BigInt/);
    expect(await store.readTask('bad-1')).toEqual({ task: task('bad-1', 'TASK_STATE_WORKING'), version: 1 });
    await store.close();
  });

  it('refuses calls once closed', async () => {
    const store = await PostgresTaskStore.open(url);
    await store.close();
    await expect(store.getTask('t1')).rejects.toThrow(
      `the PostgreSQL task store postgres://127.0.0.1:${postgres.port}/${url.split('/').pop()} is closed`,
    );
    await expect(store.saveTaskIf(task('t1', 'TASK_STATE_WORKING'), 0)).rejects.toThrow(/is closed/);
  });

  it('loses no update when two instances increment one task in a read-and-retry loop', async () => {
    const [a, b] = await Promise.all([PostgresTaskStore.open(url), PostgresTaskStore.open(url)]);
    await a.saveTaskIf(task('counter', 'TASK_STATE_WORKING', { n: 0 }), 0);
    let conflicts = 0;
    const increment = async (store: VersionedTaskStore) => {
      for (;;) {
        const read = (await store.readTask('counter'))!;
        const n = (read.task.metadata as { n: number }).n;
        try {
          return await store.saveTaskIf({ ...read.task, metadata: { n: n + 1 } }, read.version);
        } catch (err) {
          if (!(err instanceof TaskConflictError)) throw err;
          conflicts++;
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 ? a : b)));
    const final = (await a.readTask('counter'))!;
    expect(final.task.metadata).toEqual({ n: 40 });
    expect(final.version).toBe(41);
    // The loop was exercised: the two pools did race.
    expect(conflicts).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  });
});
