/**
 * @module test/a2a/cluster-writes — the database statements one blocking SendMessage costs an A2aServer in a
 * cluster (PostgresCluster on a real PostgreSQL): one per agent event, nothing else. An agent that starts a
 * task, sets it working, adds an artifact and completes it is three statements (each its own transaction):
 * the task inserted by the commit of its first event (nobody else can know its id before the answer), no
 * read-back of what this instance just wrote, no separate lease release, no first-snapshot push query. With a
 * webhook in the request the task is stored at once and the first snapshot pushed (SDK behaviour's pushFirstTask).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCluster } from '../../runtime/a2a/postgres/cluster.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { listenA2aHttp } from '../../runtime/a2a/http.ts';
import { a2aRpc, testCard, userMessage, webhookServer, type Json } from '../helpers/a2a-server.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { eventually } from '../helpers/wait.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

/** The first parameter of a statement (a task's statements all lead with its id). */
function firstValue(text: unknown, values: unknown): unknown {
  const list = (typeof text === 'object' && text !== null ? (text as { values?: unknown[] }).values : undefined) ?? (values as unknown[] | undefined);
  return list?.[0];
}

describe('statements per blocking SendMessage in a cluster', () => {
  it('is one per agent event: working (inserting the task), artifact, complete', async () => {
    const url = await postgres.createDatabase();
    // A long lease: no renewal falls inside the request.
    const cluster = await PostgresCluster.open(url, { instanceId: 'w0', leaseMs: 60_000, maxConnections: 2 });
    const statements: unknown[] = [];
    const query = cluster.store.query.bind(cluster.store);
    cluster.store.query = ((text: never, values?: unknown[]) => {
      statements.push(firstValue(text, values));
      return query(text, values);
    }) as typeof cluster.store.query;
    const server = new A2aServer({
      card: testCard({ streaming: true, pushNotifications: true }),
      executor: {
        async execute(ctx) {
          const task = await ctx.startTask();
          await task.working();
          await task.artifact({ name: 'out', parts: [{ text: 'done' }] });
          await task.complete();
        },
      },
      cluster,
      push: { allowedHosts: ['127.0.0.1'], backoffMs: 20 },
      log: () => {},
    });
    await server.ready();
    const http = await listenA2aHttp(server);
    const hook = await webhookServer();
    try {
      statements.length = 0;
      const task = (await a2aRpc(http.url, 'SendMessage', userMessage('go'))).result.task as Json;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(statements.filter((v) => v === task.id)).toHaveLength(3);

      // A webhook named in the request: its config is saved, and it gets the first snapshot and the updates.
      const config = { url: hook.url, token: 'tok' };
      const pushed = (await a2aRpc(http.url, 'SendMessage', userMessage('go', {}, { taskPushNotificationConfig: config }))).result.task as Json;
      expect(pushed.status.state).toBe('TASK_STATE_COMPLETED');
      await eventually(() => hook.received.some((d) => (d.body.statusUpdate as Json | undefined)?.status?.state === 'TASK_STATE_COMPLETED'));
      expect(hook.received[0]!.body.task?.id).toBe(pushed.id);
    } finally {
      await http.close();
      await server.close().catch(() => undefined);
      await hook.close();
    }
  });
});
