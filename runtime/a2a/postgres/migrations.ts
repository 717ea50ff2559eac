/**
 * @module a2a/postgres/migrations — the PostgreSQL schema, as numbered migrations applied at start. The table
 * `wiregen_migrations` records each one applied; `migrate` applies the missing ones in order inside one
 * transaction, under a transaction-level advisory lock, so instances starting together apply each migration
 * exactly once (the others wait, then find nothing to do). A database recorded at a version newer than this
 * runtime knows is refused: an older instance must not run against a schema it does not know.
 *
 * Text columns that are compared or ordered are `COLLATE "C"` (byte order, whatever the database's locale),
 * so ListTasks orders timestamps and ties as the other stores do; values are `json` (the text as written,
 * member order kept), not `jsonb`.
 */
import type pg from 'pg';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks and push configs',
    // `seq` is insertion order (ListTasks' tie-break, a task's configs' order); a replace keeps it.
    // `version` is the optimistic-concurrency counter (VersionedTaskStore).
    sql: `
      CREATE TABLE a2a_tasks (
        id text COLLATE "C" PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        context_id text COLLATE "C",
        state text COLLATE "C" NOT NULL,
        status_timestamp text COLLATE "C",
        version bigint NOT NULL,
        json json NOT NULL
      );
      CREATE INDEX a2a_tasks_by_context ON a2a_tasks (context_id, status_timestamp DESC NULLS LAST, seq);
      CREATE INDEX a2a_tasks_by_state ON a2a_tasks (state, status_timestamp DESC NULLS LAST, seq);
      CREATE INDEX a2a_tasks_by_time ON a2a_tasks (status_timestamp DESC NULLS LAST, seq);
      CREATE TABLE a2a_push_configs (
        task_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        json json NOT NULL,
        PRIMARY KEY (task_id, id)
      );`,
  },
  {
    version: 2,
    name: 'instances, task leases, large events and the push outbox',
    // An instance is alive while its row's expires_at (renewed by its heartbeat, in the database's clock) is
    // ahead; a lease or an outbox row belongs to an instance, and is orphaned when that instance is not alive.
    sql: `
      CREATE TABLE a2a_instances (
        id text COLLATE "C" PRIMARY KEY,
        started_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE TABLE a2a_task_leases (
        task_id text COLLATE "C" PRIMARY KEY,
        owner text COLLATE "C" NOT NULL,
        taken_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX a2a_task_leases_by_owner ON a2a_task_leases (owner);
      CREATE TABLE a2a_task_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        task_id text COLLATE "C" NOT NULL,
        json json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX a2a_task_events_by_time ON a2a_task_events (created_at);
      CREATE TABLE a2a_push_outbox (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        task_id text COLLATE "C" NOT NULL,
        config json NOT NULL,
        body text NOT NULL,
        claimed_by text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX a2a_push_outbox_by_claim ON a2a_push_outbox (claimed_by, id);`,
  },
];

/** The newest schema version this runtime knows. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The advisory lock key migrations hold (any constant shared by every wiregen instance). */
const MIGRATION_LOCK = 0x77_69_72_65;

export interface MigrationResult {
  /** The version found (0: an empty database). */
  readonly from: number;
  readonly to: number;
}

/** Applies the migrations `database` lacks, up to `target` (default: all of them). */
export async function migrate(pool: pg.Pool, target = POSTGRES_SCHEMA_VERSION, database = 'the database'): Promise<MigrationResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS wiregen_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const found = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM wiregen_migrations');
    const from = found.rows[0]?.v ?? 0;
    if (from > POSTGRES_SCHEMA_VERSION)
      throw new Error(
        `${database} holds task store schema version ${from}; this runtime knows up to ${POSTGRES_SCHEMA_VERSION}: upgrade wiregen or use another database`,
      );
    for (const m of MIGRATIONS) {
      if (m.version <= from || m.version > target) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO wiregen_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, Math.min(target, POSTGRES_SCHEMA_VERSION)) };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
