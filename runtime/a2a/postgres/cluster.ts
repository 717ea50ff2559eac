/**
 * @module a2a/postgres/cluster — A2aCluster (runtime/a2a/cluster.ts) on PostgreSQL, sharing the store's pool.
 *
 * - Liveness: each instance has a row in a2a_instances whose expires_at its heartbeat pushes `leaseMs` ahead
 *   every third of it, in the database's clock (no clock of an instance is compared with another's). A lease
 *   (a2a_task_leases) or an outbox entry (a2a_push_outbox) belongs to an instance; once that instance is not
 *   alive, any instance may adopt it (FOR UPDATE SKIP LOCKED: two adopters never take the same row).
 * - A commit is one statement: the compare-and-set save of the task, the lease change, the push deliveries
 *   (one outbox row per config of the task, claimed by the committing instance) and a NOTIFY on the channel,
 *   which PostgreSQL sends when the statement commits. The NOTIFY carries the update itself when it fits in a
 *   payload (bus.ts), else the id of a row of a2a_task_events that receivers read back.
 */
import { randomUUID } from 'node:crypto';
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { A2aCluster, ClusterMessage, CommitResult, LeaseChange, PushDelivery } from '../cluster.ts';
import { TaskConflictError } from '../store.ts';
import type { Task, TaskPushNotificationConfig } from '../types.ts';
import { inWireOrder } from '../wire-order.ts';
import { MAX_PAYLOAD_BYTES, PostgresBus } from './bus.ts';
import { unavailableOr } from './errors.ts';
import { PostgresTaskStore, type PostgresStoreOptions } from './store.ts';

export interface PostgresClusterOptions extends PostgresStoreOptions {
  /** This instance's id, unique among the instances. Default: a random UUID. */
  readonly instanceId?: string;
  /** How long an instance that stopped renewing is still taken for alive. Default 10 000 ms (renewed every third). */
  readonly leaseMs?: number;
  /** The NOTIFY channel the instances share. Default `wiregen_a2a`. */
  readonly channel?: string;
  /** How long a large event is kept for the instances to read back. Default 10 min. */
  readonly eventRetentionMs?: number;
  readonly log?: (line: string) => void;
}

/** A notification on the channel: an event (inline `u`, or by reference `e`), or a cancel request. */
type Wire =
  | { readonly o: string; readonly t: string; readonly u: StreamResponse }
  | { readonly o: string; readonly t: string; readonly e: string }
  | { readonly k: 'cancel'; readonly o: string; readonly to: string; readonly t: string };

const ALIVE = 'EXISTS (SELECT 1 FROM a2a_instances i WHERE i.id = %s AND i.expires_at > now())';
const alive = (column: string) => ALIVE.replace('%s', column);

/** The commit statement for one combination of creating, updating with an event, and a lease change. */
function commitSql(create: boolean, event: boolean, lease: LeaseChange): string {
  // $1 id, $2 context_id, $3 state, $4 status_timestamp, $5 json, $6 instance, $7 expected version,
  // then with an event: $8 body, $9 inline payload (null: too large), $10 channel.
  const saved = create
    ? `INSERT INTO a2a_tasks (id, context_id, state, status_timestamp, json, version) VALUES ($1, $2, $3, $4, $5, 1)
       ON CONFLICT (id) DO NOTHING RETURNING version`
    : `UPDATE a2a_tasks SET context_id = $2, state = $3, status_timestamp = $4, json = $5, version = version + 1
       WHERE id = $1 AND version = $7::bigint RETURNING version`;
  const parts = [`saved AS (${saved})`];
  if (lease === 'take')
    parts.push(`leased AS (INSERT INTO a2a_task_leases (task_id, owner) SELECT $1, $6 FROM saved
      ON CONFLICT (task_id) DO UPDATE SET owner = excluded.owner, taken_at = now())`);
  if (lease === 'drop') parts.push(`dropped AS (DELETE FROM a2a_task_leases WHERE task_id = $1 AND owner = $6 AND EXISTS (SELECT 1 FROM saved))`);
  if (event) {
    parts.push(
      `big AS (INSERT INTO a2a_task_events (task_id, json) SELECT $1, $8::json FROM saved WHERE $9::text IS NULL RETURNING id)`,
      `queued AS (INSERT INTO a2a_push_outbox (task_id, config, body, claimed_by)
        SELECT c.task_id, c.json, $8, $6 FROM a2a_push_configs c WHERE c.task_id = $1 AND EXISTS (SELECT 1 FROM saved)
        ORDER BY c.seq RETURNING id, config)`,
      `told AS (SELECT pg_notify($10, coalesce($9::text, json_build_object('o', $6::text, 't', $1::text, 'e', big.id::text)::text))
        FROM saved LEFT JOIN big ON true)`,
    );
  }
  const queued = event ? `(SELECT json_agg(json_build_object('id', id::text, 'config', config) ORDER BY id) FROM queued)` : 'NULL::json';
  const told = event ? '(SELECT count(*) FROM told)' : '0';
  // Every variant is sent $1 … $7; those its text may not use ($6, $7) are typed here, as PostgreSQL must know each one's type.
  return `WITH ${parts.join(',\n')} SELECT (SELECT version FROM saved) AS version, ${queued} AS queued, ${told} AS told, $6::text AS by, $7::bigint AS expected`;
}

export class PostgresCluster implements A2aCluster {
  readonly instanceId: string;
  readonly store: PostgresTaskStore;
  readonly leaseMs: number;
  readonly #channel: string;
  readonly #bus: PostgresBus;
  readonly #options: PostgresClusterOptions;
  #heartbeat: NodeJS.Timeout | undefined;
  #beats = 0;
  /** Notifications are handled one after another: one read back from a2a_task_events holds the later ones. */
  #inbox: Promise<void> = Promise.resolve();
  #left = false;
  /** Until when (this process's clock) this instance is surely alive in the database's; #renewing: a renewal under way. */
  #aliveUntil = 0;
  #renewing: Promise<void> | undefined;

  constructor(store: PostgresTaskStore, options: PostgresClusterOptions = {}) {
    this.store = store;
    this.instanceId = options.instanceId ?? randomUUID();
    this.leaseMs = options.leaseMs ?? 10_000;
    this.#channel = options.channel ?? 'wiregen_a2a';
    this.#options = options;
    this.#bus = new PostgresBus(store.pool, options.log ? { log: options.log } : {});
  }

  /** Opens the store at `config` (migrating it) and a cluster on it; `store.close()` (or the server's close) closes both. */
  static async open(config: string | Parameters<typeof PostgresTaskStore.open>[0], options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
    return new PostgresCluster(await PostgresTaskStore.open(config, options), options);
  }

  /** The bus the cluster talks on (MCP servers on the same database may share it: runtime/mcp's notification bus). */
  get bus(): PostgresBus {
    return this.#bus;
  }

  async join(listener: (message: ClusterMessage) => void): Promise<void> {
    await this.#beat();
    const beat = () => {
      this.#heartbeat = setTimeout(() => {
        this.#beat().then(beat, (err: unknown) => {
          this.#options.log?.(`cluster heartbeat failed: ${(err as Error).message}`);
          beat();
        });
      }, this.leaseMs / 3);
      this.#heartbeat.unref();
    };
    beat();
    this.#bus.onReconnect(() => listener({ kind: 'resync' }));
    await this.#bus.listen(this.#channel, (payload) => {
      this.#inbox = this.#inbox
        .then(() => this.#receive(payload, listener))
        .catch((err: unknown) => {
          this.#options.log?.(`cluster message dropped: ${(err as Error).message}`);
        });
    });
  }

  /** Renews this instance's row: alive for `leaseMs` more, in the database's clock (and, conservatively, in ours). */
  async #renew(): Promise<void> {
    const started = Date.now();
    await this.store.query({
      name: 'a2a-heartbeat',
      text: `INSERT INTO a2a_instances (id, expires_at) VALUES ($1, now() + make_interval(secs => $2::double precision / 1000))
             ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`,
      values: [this.instanceId, this.leaseMs],
    });
    this.#aliveUntil = Math.max(this.#aliveUntil, started + this.leaseMs);
  }

  /**
   * Before a write that claims something for this instance (a lease, outbox entries): renews its row first when
   * the heartbeat fell behind (the database was away, so its lease may have lapsed). Otherwise another instance
   * could take this one for dead and adopt what the write claims while this one still works on it.
   */
  #alive(): Promise<void> {
    if (this.#left || Date.now() + this.leaseMs / 3 < this.#aliveUntil) return Promise.resolve();
    this.#renewing ??= this.#renew().finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  async #beat(): Promise<void> {
    if (this.#left) return;
    await this.#renew();
    // Housekeeping, now and then: large events nobody can still want, instances long gone that hold nothing.
    if (this.#beats++ % 30 === 0) {
      await this.store.query(`DELETE FROM a2a_task_events WHERE created_at < now() - make_interval(secs => $1::double precision / 1000)`, [
        this.#options.eventRetentionMs ?? 600_000,
      ]);
      await this.store.query(
        `DELETE FROM a2a_instances i WHERE i.expires_at < now() - interval '1 hour'
           AND NOT EXISTS (SELECT 1 FROM a2a_task_leases l WHERE l.owner = i.id)
           AND NOT EXISTS (SELECT 1 FROM a2a_push_outbox o WHERE o.claimed_by = i.id)`,
      );
    }
  }

  async #receive(payload: string, listener: (message: ClusterMessage) => void): Promise<void> {
    const wire = JSON.parse(payload) as Wire;
    if (wire.o === this.instanceId) return;
    if ('k' in wire) {
      if (wire.to === this.instanceId) listener({ kind: 'cancel', origin: wire.o, to: wire.to, taskId: wire.t });
      return;
    }
    let update: StreamResponse | undefined;
    if ('u' in wire) update = wire.u;
    else {
      const { rows } = await this.store.query<{ json: StreamResponse }>('SELECT json FROM a2a_task_events WHERE id = $1', [wire.e]);
      update = rows[0]?.json;
      if (!update) this.#options.log?.(`cluster event ${wire.e} of task ${wire.t} is gone (older than the retention)`);
    }
    if (update) listener({ kind: 'event', origin: wire.o, taskId: wire.t, update });
  }

  async commit(task: Task, expected: number, update: StreamResponse | undefined, lease?: LeaseChange): Promise<CommitResult> {
    await this.#alive();
    const json = JSON.stringify(task);
    const values: unknown[] = [
      task.id,
      task.contextId ?? null,
      String(task.status.state),
      task.status.timestamp ?? null,
      json,
      this.instanceId,
      expected,
    ];
    let body: string | undefined;
    if (update) {
      body = JSON.stringify(inWireOrder(update, 'StreamResponse'));
      const inline = `{"o":${JSON.stringify(this.instanceId)},"t":${JSON.stringify(task.id)},"u":${body}}`;
      values.push(body, Buffer.byteLength(inline) <= MAX_PAYLOAD_BYTES ? inline : null, this.#channel);
    }
    const create = expected === 0;
    const { rows } = await this.store.query<{ version: string | null; queued: { id: string; config: TaskPushNotificationConfig }[] | null }>({
      name: `a2a-commit-${create ? 'c' : 'u'}${update ? 'e' : ''}${lease ?? ''}`,
      text: commitSql(create, update !== undefined, lease),
      values,
    });
    const row = rows[0]!;
    if (row.version === null) throw new TaskConflictError(task.id, expected);
    return { version: Number(row.version), deliveries: (row.queued ?? []).map((q) => ({ id: q.id, config: q.config, body: body! })) };
  }

  async queuePushes(taskId: string, update: StreamResponse): Promise<readonly PushDelivery[]> {
    await this.#alive();
    const body = JSON.stringify(inWireOrder(update, 'StreamResponse'));
    const { rows } = await this.store.query<{ id: string; config: TaskPushNotificationConfig }>(
      `INSERT INTO a2a_push_outbox (task_id, config, body, claimed_by)
       SELECT task_id, json, $2, $3 FROM a2a_push_configs WHERE task_id = $1 ORDER BY seq RETURNING id::text, config`,
      [taskId, body, this.instanceId],
    );
    return rows.map((r) => ({ id: r.id, config: r.config, body })).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  }

  async lease(taskId: string): Promise<{ readonly taken: true } | { readonly taken: false; readonly holder: string }> {
    await this.#alive();
    const { rows } = await this.store.query<{ taken: string | null; holder: string | null }>({
      name: 'a2a-lease',
      text: `WITH taken AS (
          INSERT INTO a2a_task_leases AS l (task_id, owner) VALUES ($1, $2)
          ON CONFLICT (task_id) DO UPDATE SET owner = excluded.owner, taken_at = now()
          WHERE l.owner = excluded.owner OR NOT ${alive('l.owner')} RETURNING owner)
        SELECT (SELECT owner FROM taken) AS taken, (SELECT owner FROM a2a_task_leases WHERE task_id = $1) AS holder`,
      values: [taskId, this.instanceId],
    });
    const row = rows[0]!;
    return row.taken !== null ? { taken: true } : { taken: false, holder: row.holder ?? '' };
  }

  async holder(taskId: string): Promise<string | undefined> {
    const { rows } = await this.store.query<{ owner: string }>({
      name: 'a2a-holder',
      text: `SELECT l.owner FROM a2a_task_leases l WHERE l.task_id = $1 AND ${alive('l.owner')}`,
      values: [taskId],
    });
    return rows[0]?.owner;
  }

  async release(taskId: string): Promise<void> {
    await this.store.query({
      name: 'a2a-release',
      text: 'DELETE FROM a2a_task_leases WHERE task_id = $1 AND owner = $2',
      values: [taskId, this.instanceId],
    });
  }

  async send(message: ClusterMessage): Promise<void> {
    if (message.kind !== 'cancel') throw new Error(`only cancel requests are sent between instances, not ${message.kind}`);
    const wire: Wire = { k: 'cancel', o: this.instanceId, to: message.to, t: message.taskId };
    await this.#bus.publish(this.#channel, JSON.stringify(wire)).catch((err: unknown) => {
      throw unavailableOr(err, this.store.database);
    });
  }

  async settle(delivery: PushDelivery): Promise<void> {
    await this.store.query({ name: 'a2a-settle', text: 'DELETE FROM a2a_push_outbox WHERE id = $1', values: [delivery.id] });
  }

  async adoptOrphans(limit: number): Promise<string[]> {
    await this.#alive();
    const { rows } = await this.store.query<{ task_id: string }>({
      name: 'a2a-adopt-leases',
      text: `UPDATE a2a_task_leases SET owner = $1, taken_at = now() WHERE task_id IN (
          SELECT l.task_id FROM a2a_task_leases l WHERE l.owner <> $1 AND NOT ${alive('l.owner')}
          ORDER BY l.taken_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING task_id`,
      values: [this.instanceId, limit],
    });
    return rows.map((r) => r.task_id);
  }

  async adoptDeliveries(limit: number): Promise<PushDelivery[]> {
    await this.#alive();
    const { rows } = await this.store.query<{ id: string; config: TaskPushNotificationConfig; body: string }>({
      name: 'a2a-adopt-outbox',
      text: `UPDATE a2a_push_outbox SET claimed_by = $1 WHERE id IN (
          SELECT o.id FROM a2a_push_outbox o WHERE o.claimed_by <> $1 AND NOT ${alive('o.claimed_by')}
          ORDER BY o.id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id::text, config, body`,
      values: [this.instanceId, limit],
    });
    return rows.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  }

  async leave(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    clearTimeout(this.#heartbeat);
    await this.#bus.close();
    await this.#inbox;
    await this.store.query('DELETE FROM a2a_instances WHERE id = $1', [this.instanceId]);
  }
}
