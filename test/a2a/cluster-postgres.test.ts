/**
 * @module test/a2a/cluster-postgres — PostgresCluster's primitives between two instances on a real
 * PostgreSQL (test/helpers/postgres.ts): a commit is saved, announced (inline, or by reference when the event
 * is larger than a NOTIFY payload) and queues one push delivery per config; leases are exclusive while their
 * holder lives and adoptable once it stops renewing; outbox entries likewise; cancel requests reach only the
 * instance they name. The servers built on it are cluster-server.test.ts's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterMessage } from '../../runtime/a2a/cluster.ts';
import { PostgresCluster } from '../../runtime/a2a/postgres/cluster.ts';
import { TaskConflictError } from '../../runtime/a2a/store.ts';
import type { Task } from '../../runtime/a2a/types.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { eventually, sleep } from '../helpers/wait.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

const open: PostgresCluster[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) {
    await c.leave().catch(() => undefined);
    await c.store.close();
  }
});

/** Two instances on one fresh database, joined, each with the messages it received. */
async function pair(leaseMs = 10_000) {
  const url = await postgres.createDatabase();
  const make = async (instanceId: string) => {
    const cluster = await PostgresCluster.open(url, { instanceId, leaseMs, maxConnections: 3 });
    open.push(cluster);
    const received: ClusterMessage[] = [];
    await cluster.join((m) => received.push(m));
    return { cluster, received };
  };
  const a = await make('a');
  const b = await make('b');
  return { url, a, b };
}

const task = (id: string, state: string, extra: Partial<Task> = {}): Task => ({ id, contextId: 'c', status: { state }, ...extra });

describe('PostgresCluster', () => {
  it('commits with compare-and-set, and announces the update to the other instance only', async () => {
    const { a, b } = await pair();
    const created = await a.cluster.commit(task('t1', 'TASK_STATE_SUBMITTED'), 0, undefined, 'take');
    expect(created).toEqual({ version: 1, deliveries: [] });
    const update = { statusUpdate: { taskId: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } };
    expect(await a.cluster.commit(task('t1', 'TASK_STATE_WORKING'), 1, update)).toEqual({ version: 2, deliveries: [] });
    await expect(b.cluster.commit(task('t1', 'TASK_STATE_FAILED'), 1, update)).rejects.toThrow(TaskConflictError);
    await expect(a.cluster.commit(task('t1', 'TASK_STATE_FAILED'), 0, undefined)).rejects.toThrow(TaskConflictError);
    await eventually(() => b.received.length > 0);
    await sleep(100);
    expect(b.received).toEqual([{ kind: 'event', origin: 'a', taskId: 't1', update }]);
    expect(a.received).toEqual([]);
    expect(await b.cluster.store.readTask('t1')).toEqual({ task: task('t1', 'TASK_STATE_WORKING'), version: 2 });
  });

  it('sends an event larger than a NOTIFY payload by reference, read back in order with the small ones', async () => {
    const { a, b } = await pair();
    await a.cluster.commit(task('t1', 'TASK_STATE_WORKING'), 0, undefined, 'take');
    const big = { artifactUpdate: { taskId: 't1', contextId: 'c', artifact: { artifactId: 'x', parts: [{ text: 'x'.repeat(20_000) }] } } };
    const small = { statusUpdate: { taskId: 't1', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } };
    await a.cluster.commit(task('t1', 'TASK_STATE_WORKING', { artifacts: [big.artifactUpdate.artifact] }), 1, big);
    await a.cluster.commit(task('t1', 'TASK_STATE_COMPLETED'), 2, small, 'drop');
    await eventually(() => b.received.length === 2);
    expect(b.received).toEqual([
      { kind: 'event', origin: 'a', taskId: 't1', update: big },
      { kind: 'event', origin: 'a', taskId: 't1', update: small },
    ]);
    expect((await a.cluster.store.pool.query('SELECT count(*)::int AS n FROM a2a_task_events')).rows).toEqual([{ n: 1 }]);
    expect(await a.cluster.holder('t1')).toBeUndefined();
  });

  it('queues one delivery per push config, in config order, claimed by the committer', async () => {
    const { a } = await pair();
    await a.cluster.commit(task('t1', 'TASK_STATE_SUBMITTED'), 0, undefined, 'take');
    for (const id of ['h2', 'h1']) await a.cluster.store.savePushConfig({ taskId: 't1', id, url: `https://hooks.example.com/${id}` });
    const update = { statusUpdate: { taskId: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } };
    const { deliveries } = await a.cluster.commit(task('t1', 'TASK_STATE_WORKING'), 1, update);
    expect(deliveries.map((d) => d.config.id)).toEqual(['h2', 'h1']);
    // The body is the update in the wire order of StreamResponse's members.
    expect(deliveries.map((d) => JSON.parse(d.body))).toEqual([update, update]);
    const first = await a.cluster.queuePushes('t1', { task: task('t1', 'TASK_STATE_WORKING') });
    expect(first.map((d) => d.config.id)).toEqual(['h2', 'h1']);
    const claimed = await a.cluster.store.pool.query('SELECT claimed_by AS c FROM a2a_push_outbox ORDER BY id');
    expect(claimed.rows).toEqual([{ c: 'a' }, { c: 'a' }, { c: 'a' }, { c: 'a' }]);
    for (const d of [...deliveries, ...first]) await a.cluster.settle(d);
    expect((await a.cluster.store.pool.query('SELECT count(*)::int AS n FROM a2a_push_outbox')).rows).toEqual([{ n: 0 }]);
  });

  it('keeps a lease exclusive while its holder lives; once it stops renewing, it is adopted, as are its deliveries', async () => {
    const { a, b } = await pair(600);
    expect(await a.cluster.lease('t1')).toEqual({ taken: true });
    expect(await a.cluster.lease('t1')).toEqual({ taken: true });
    expect(await b.cluster.lease('t1')).toEqual({ taken: false, holder: 'a' });
    expect(await b.cluster.holder('t1')).toBe('a');
    await a.cluster.commit(task('t1', 'TASK_STATE_WORKING'), 0, undefined);
    await a.cluster.store.savePushConfig({ taskId: 't1', id: 'h', url: 'https://hooks.example.com/h' });
    const queued = await a.cluster.queuePushes('t1', { task: task('t1', 'TASK_STATE_WORKING') });
    expect(await b.cluster.adoptOrphans(10)).toEqual([]);
    expect(await b.cluster.adoptDeliveries(10)).toEqual([]);

    // a loses its database connections (as a killed process does): its heartbeats fail, it never leaves.
    await a.cluster.store.close();
    expect(await b.cluster.holder('t1')).toBe('a');
    await sleep(700);
    expect(await b.cluster.holder('t1')).toBeUndefined();
    expect(await b.cluster.adoptOrphans(10)).toEqual(['t1']);
    expect(await b.cluster.adoptOrphans(10)).toEqual([]);
    expect(await b.cluster.holder('t1')).toBe('b');
    expect(await b.cluster.adoptDeliveries(10)).toEqual(queued.map((d) => ({ ...d })));
    expect(await b.cluster.adoptDeliveries(10)).toEqual([]);
  });

  it('a released lease can be taken by another live instance', async () => {
    const { a, b } = await pair();
    await a.cluster.lease('t1');
    await a.cluster.release('t1');
    expect(await b.cluster.lease('t1')).toEqual({ taken: true });
    expect(await a.cluster.lease('t1')).toEqual({ taken: false, holder: 'b' });
  });

  it('delivers a cancel request to the instance it names, and to no other', async () => {
    const { url, a, b } = await pair();
    const c = await PostgresCluster.open(url, { instanceId: 'c', maxConnections: 2 });
    open.push(c);
    const toC: ClusterMessage[] = [];
    await c.join((m) => toC.push(m));
    await a.cluster.send({ kind: 'cancel', origin: 'a', to: 'b', taskId: 't1' });
    await eventually(() => b.received.length === 1);
    await sleep(100);
    expect(b.received).toEqual([{ kind: 'cancel', origin: 'a', to: 'b', taskId: 't1' }]);
    expect(toC).toEqual([]);
    expect(a.received).toEqual([]);
  });
});
