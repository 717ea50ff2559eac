/**
 * @module test/a2a/store — the task stores: one conformance suite (`runStoreSuite`) run against
 * InMemoryTaskStore, SqliteTaskStore (in memory and on a file) and PostgresTaskStore (a real PostgreSQL the
 * test starts, test/helpers/postgres.ts), the optimistic-concurrency suite (`runVersionedSuite`) against the
 * stores that offer it, the SQLite store's own guarantees (JSON text on disk, WAL, reopening, a failed write
 * storing nothing, a closed store), and the restart test: an A2aServer on a SQLite file, closed and
 * reopened, still has its task and push config. PostgreSQL's own guarantees are store-postgres.test.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import researchAgent from '../../samples/research-agent.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { SqliteTaskStore } from '../../runtime/a2a/store-sqlite.ts';
import { PostgresTaskStore } from '../../runtime/a2a/postgres/store.ts';
import { InMemoryTaskStore, isVersioned, TaskConflictError, type TaskStore, type VersionedTaskStore } from '../../runtime/a2a/store.ts';
import type { Task, TaskPushNotificationConfig } from '../../runtime/a2a/types.ts';
import { a2aRpc, webhookServer, type Webhook } from '../helpers/a2a-server.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempFile(name = 'tasks.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-store-'));
  dirs.push(dir);
  return join(dir, name);
}

function task(id: string, contextId: string, state: string, timestamp?: string): Task {
  return {
    id,
    contextId,
    status: { state, ...(timestamp ? { timestamp } : {}) },
    history: [{ messageId: `m-${id}`, contextId, taskId: id, role: 'ROLE_USER', parts: [{ text: `about ${id}` }] }],
  };
}

function config(taskId: string, id: string, url = 'https://hooks.example.com/a2a'): TaskPushNotificationConfig {
  return { taskId, id, url, token: `token-${id}` };
}

/** The shared conformance suite: every TaskStore must pass it. */
function runStoreSuite(name: string, makeStore: () => TaskStore | Promise<TaskStore>): void {
  describe(`TaskStore conformance: ${name}`, () => {
    let store: TaskStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close?.();
    });

    // The contract (TaskStore.saveTask): a saved task may be kept as is, so the caller leaves it alone; every
    // read is a copy the caller owns.
    it('round-trips a task, each read a copy, and knows no other', async () => {
      const saved = task('t1', 'c1', 'TASK_STATE_WORKING', '2026-01-01T10:00:00.000Z');
      await store.saveTask(saved);
      const got = await store.getTask('t1');
      expect(got).toEqual(task('t1', 'c1', 'TASK_STATE_WORKING', '2026-01-01T10:00:00.000Z'));
      got!.history!.push(got!.history![0]!);
      expect((await store.getTask('t1'))?.history).toHaveLength(1);
      expect(await store.getTask('t1')).not.toBe(await store.getTask('t1'));
      expect(await store.getTask('t2')).toBeUndefined();
    });

    it('replaces a task by id', async () => {
      await store.saveTask(task('t1', 'c1', 'TASK_STATE_WORKING', '2026-01-01T10:00:00.000Z'));
      const done = {
        ...task('t1', 'c1', 'TASK_STATE_COMPLETED', '2026-01-01T10:05:00.000Z'),
        artifacts: [{ artifactId: 'a', parts: [{ text: 'x' }] }],
      };
      await store.saveTask(done);
      expect(await store.getTask('t1')).toEqual(done);
      expect(await store.listTasks({})).toEqual([done]);
      expect(await store.listTasks({ status: 'TASK_STATE_WORKING' })).toEqual([]);
    });

    describe('lists', () => {
      // Saved in this order; t3 and t4 share a timestamp, t6 has none.
      const tasks = [
        task('t1', 'c1', 'TASK_STATE_COMPLETED', '2026-01-01T10:00:00.000Z'),
        task('t2', 'c2', 'TASK_STATE_WORKING', '2026-01-01T12:00:00.000Z'),
        task('t3', 'c1', 'TASK_STATE_WORKING', '2026-01-01T11:00:00.000Z'),
        task('t4', 'c2', 'TASK_STATE_COMPLETED', '2026-01-01T11:00:00.000Z'),
        task('t5', 'c1', 'TASK_STATE_INPUT_REQUIRED', '2026-01-02T09:00:00.000Z'),
        task('t6', 'c1', 'TASK_STATE_SUBMITTED'),
      ];
      beforeEach(async () => {
        for (const t of tasks) await store.saveTask(t);
      });
      const ids = async (query: Parameters<TaskStore['listTasks']>[0]) => (await store.listTasks(query)).map((t) => t.id);

      it.each([
        ['everything, newest status first, ties in insertion order, no timestamp last', {}, ['t5', 't2', 't3', 't4', 't1', 't6']],
        ['by context', { contextId: 'c1' }, ['t5', 't3', 't1', 't6']],
        ['by state', { status: 'TASK_STATE_COMPLETED' }, ['t4', 't1']],
        ['by status timestamp (at or after)', { statusTimestampAfter: '2026-01-01T11:00:00.000Z' }, ['t5', 't2', 't3', 't4']],
        ['by all three', { contextId: 'c2', status: 'TASK_STATE_WORKING', statusTimestampAfter: '2026-01-01T11:00:00.000Z' }, ['t2']],
        ['matching nothing', { contextId: 'c9' }, []],
      ] as const)('%s', async (_name, query, want) => {
        expect(await ids(query)).toEqual(want);
      });

      it('a page is the same slice of that order; countTasks counts every match', async () => {
        expect((await store.listTasks({}, { offset: 1, limit: 3 })).map((t) => t.id)).toEqual(['t2', 't3', 't4']);
        expect((await store.listTasks({ contextId: 'c1' }, { offset: 3, limit: 5 })).map((t) => t.id)).toEqual(['t6']);
        expect(await store.listTasks({}, { offset: 6, limit: 2 })).toEqual([]);
        expect(await store.countTasks({})).toBe(6);
        expect(await store.countTasks({ contextId: 'c1' })).toBe(4);
        expect(await store.countTasks({ contextId: 'c2', status: 'TASK_STATE_WORKING', statusTimestampAfter: '2026-01-01T11:00:00.000Z' })).toBe(1);
        expect(await store.countTasks({ contextId: 'c9' })).toBe(0);
      });

      it('keeps a replaced task in its insertion place among ties', async () => {
        await store.saveTask({ ...tasks[2]!, metadata: { replaced: true } });
        expect(await ids({})).toEqual(['t5', 't2', 't3', 't4', 't1', 't6']);
      });

      it('returns copies', async () => {
        const [first] = await store.listTasks({});
        first!.status.state = 'TASK_STATE_FAILED';
        expect((await store.getTask('t5'))?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      });
    });

    it('saves, replaces, gets and deletes push configs', async () => {
      expect(await store.getPushConfigs('t1')).toEqual([]);
      await store.savePushConfig(config('t1', 'a'));
      await store.savePushConfig(config('t1', 'b'));
      await store.savePushConfig(config('t2', 'a'));
      await store.savePushConfig(config('t1', 'a', 'https://hooks.example.com/other'));
      expect(await store.getPushConfigs('t1')).toEqual([config('t1', 'a', 'https://hooks.example.com/other'), config('t1', 'b')]);
      expect(await store.getPushConfigs('t2')).toEqual([config('t2', 'a')]);
      expect(await store.deletePushConfig('t1', 'a')).toBe(true);
      expect(await store.deletePushConfig('t1', 'a')).toBe(false);
      expect(await store.deletePushConfig('t9', 'b')).toBe(false);
      expect(await store.getPushConfigs('t1')).toEqual([config('t1', 'b')]);
    });

    it('returns push configs as copies', async () => {
      const saved = config('t1', 'a');
      await store.savePushConfig(saved);
      saved.url = 'https://elsewhere.example.com/';
      const [got] = await store.getPushConfigs('t1');
      got!.token = 'changed';
      expect(await store.getPushConfigs('t1')).toEqual([config('t1', 'a')]);
    });

    it('closes (twice is harmless)', async () => {
      await store.close?.();
      await store.close?.();
    });
  });
}

/** Optimistic concurrency (VersionedTaskStore): every store several writers may share must pass it. */
function runVersionedSuite(name: string, makeStore: () => VersionedTaskStore | Promise<VersionedTaskStore>): void {
  describe(`VersionedTaskStore conformance: ${name}`, () => {
    let store: VersionedTaskStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close?.();
    });

    it('creates at version 1 and counts every save, conditional or not', async () => {
      expect(await store.readTask('t1')).toBeUndefined();
      expect(await store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_SUBMITTED'), 0)).toBe(1);
      expect(await store.readTask('t1')).toEqual({ task: task('t1', 'c1', 'TASK_STATE_SUBMITTED'), version: 1 });
      expect(await store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_WORKING'), 1)).toBe(2);
      await store.saveTask(task('t1', 'c1', 'TASK_STATE_COMPLETED'));
      expect(await store.readTask('t1')).toEqual({ task: task('t1', 'c1', 'TASK_STATE_COMPLETED'), version: 3 });
      expect(await store.getTask('t1')).toEqual(task('t1', 'c1', 'TASK_STATE_COMPLETED'));
    });

    it('refuses a save naming a stale version, or creating a task that exists, and stores nothing of it', async () => {
      await store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_WORKING'), 0);
      await expect(store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_FAILED'), 0)).rejects.toThrow(TaskConflictError);
      await store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_INPUT_REQUIRED'), 1);
      const stale = store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_CANCELED'), 1);
      await expect(stale).rejects.toThrow('task t1 changed since version 1 was read: read it again and retry');
      await expect(store.saveTaskIf(task('t2', 'c1', 'TASK_STATE_WORKING'), 4)).rejects.toMatchObject({ name: 'TaskConflictError', taskId: 't2' });
      expect(await store.readTask('t1')).toEqual({ task: task('t1', 'c1', 'TASK_STATE_INPUT_REQUIRED'), version: 2 });
      expect(await store.readTask('t2')).toBeUndefined();
    });

    it('of two writers that read the same version, exactly one wins', async () => {
      await store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_WORKING'), 0);
      const [a, b] = [await store.readTask('t1'), await store.readTask('t1')];
      const results = await Promise.allSettled([
        store.saveTaskIf({ ...a!.task, metadata: { by: 'a' } }, a!.version),
        store.saveTaskIf({ ...b!.task, metadata: { by: 'b' } }, b!.version),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const winner = results[0]!.status === 'fulfilled' ? 'a' : 'b';
      expect((await store.readTask('t1'))?.task.metadata).toEqual({ by: winner });
    });

    it('reads are copies the caller owns', async () => {
      await store.saveTaskIf(task('t1', 'c1', 'TASK_STATE_WORKING'), 0);
      const read = await store.readTask('t1');
      read!.task.status.state = 'TASK_STATE_FAILED';
      expect((await store.readTask('t1'))?.task.status.state).toBe('TASK_STATE_WORKING');
    });
  });
}

runStoreSuite('InMemoryTaskStore', () => new InMemoryTaskStore());
runStoreSuite('SqliteTaskStore (:memory:)', () => new SqliteTaskStore(':memory:'));
runStoreSuite('SqliteTaskStore (file)', () => new SqliteTaskStore(tempFile()));
runVersionedSuite('InMemoryTaskStore', () => new InMemoryTaskStore());

describe('PostgreSQL', () => {
  let postgres: TestPostgres;
  let url: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase();
  });
  afterAll(async () => {
    await postgres?.stop();
  });
  /** The store on a database emptied first: every case starts as on a new database. */
  async function emptied(): Promise<PostgresTaskStore> {
    const store = await PostgresTaskStore.open(url, { maxConnections: 4 });
    await store.pool.query('TRUNCATE a2a_tasks, a2a_push_configs RESTART IDENTITY');
    return store;
  }
  runStoreSuite('PostgresTaskStore', emptied);
  runVersionedSuite('PostgresTaskStore', emptied);
});

it('SqliteTaskStore offers no optimistic concurrency (one process per file); the others do', () => {
  const sqlite = new SqliteTaskStore(':memory:');
  expect(isVersioned(sqlite)).toBe(false);
  expect(isVersioned(new InMemoryTaskStore())).toBe(true);
  void sqlite.close();
});

describe('SqliteTaskStore', () => {
  const Raw = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => {
    prepare(sql: string): { all(...p: unknown[]): unknown[] };
    pragma(sql: string, o: { simple: true }): unknown;
    close(): void;
  };

  it('keeps tasks and push configs as JSON text in a WAL-mode file, across a reopen', async () => {
    const file = tempFile();
    const store = new SqliteTaskStore(file);
    const saved = task('t1', 'c1', 'TASK_STATE_WORKING', '2026-01-01T10:00:00.000Z');
    await store.saveTask(saved);
    await store.savePushConfig(config('t1', 'a'));
    await store.close();

    const raw = new Raw(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.prepare('SELECT id, context_id, state, status_timestamp, json FROM tasks').all()).toEqual([
      { id: 't1', context_id: 'c1', state: 'TASK_STATE_WORKING', status_timestamp: '2026-01-01T10:00:00.000Z', json: JSON.stringify(saved) },
    ]);
    expect(raw.prepare('SELECT task_id, id, json FROM push_configs').all()).toEqual([
      { task_id: 't1', id: 'a', json: JSON.stringify(config('t1', 'a')) },
    ]);
    raw.close();

    const reopened = new SqliteTaskStore(file);
    expect(await reopened.getTask('t1')).toEqual(saved);
    expect(await reopened.getPushConfigs('t1')).toEqual([config('t1', 'a')]);
    await reopened.close();
  });

  it('stores nothing of a write that fails', async () => {
    const store = new SqliteTaskStore(':memory:');
    await store.saveTask(task('t1', 'c1', 'TASK_STATE_WORKING'));
    const bad = { ...task('t1', 'c1', 'TASK_STATE_COMPLETED'), metadata: { size: 1n } } as unknown as Task;
    await expect(store.saveTask(bad)).rejects.toThrow(/BigInt/);
    expect(await store.getTask('t1')).toEqual(task('t1', 'c1', 'TASK_STATE_WORKING'));
    await store.close();
  });

  it('refuses calls once closed, and a file of a newer schema', async () => {
    const file = tempFile();
    const store = new SqliteTaskStore(file);
    await store.close();
    await expect(store.getTask('t1')).rejects.toThrow(`the SQLite task store ${file} is closed`);
    await expect(store.saveTask(task('t1', 'c1', 'TASK_STATE_WORKING'))).rejects.toThrow(/is closed/);

    const raw = new Raw(file);
    raw.pragma('user_version = 99', { simple: true });
    raw.close();
    expect(() => new SqliteTaskStore(file)).toThrow(
      `${file} holds task store schema version 99; this runtime knows up to 1: upgrade wiregen or use another file`,
    );
  });
});

/** JSON-RPC over HTTP with `A2A-Version: 1.0`; returns the result (throws on an error). */
async function rpc(url: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await a2aRpc(url, method, params);
  if (!answer['result']) throw new Error(`${method} failed: ${JSON.stringify(answer['error'])}`);
  return answer['result'] as Record<string, unknown>;
}

describe('restart: an A2aServer on a SQLite file', () => {
  const card = { ...researchAgent.card, capabilities: { ...researchAgent.card.capabilities, pushNotifications: true } };
  let webhook: Webhook;
  let running: RunningA2aServer | undefined;
  let store: SqliteTaskStore | undefined;

  async function start(file: string): Promise<string> {
    store = new SqliteTaskStore(file);
    const server = new A2aServer({
      card,
      executor: researchAgent.executor,
      behaviour: researchAgent.behaviour,
      store,
      push: { allowedHosts: ['127.0.0.1'] },
      log: () => undefined,
    });
    running = await listenA2aHttp(server);
    return running.url;
  }
  async function stop(): Promise<void> {
    await running?.close();
    await store?.close();
    running = store = undefined;
  }

  beforeEach(async () => {
    webhook = await webhookServer();
  });
  afterEach(async () => {
    await stop();
    await webhook.close();
  });

  it('finds its task and push config intact, and completes the task', async () => {
    const file = tempFile();
    let url = await start(file);
    const { task: waiting } = (await rpc(url, 'SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'summarise the meeting' }] },
    })) as { task: Task };
    expect(waiting.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const hookUrl = webhook.url;
    const created = await rpc(url, 'CreateTaskPushNotificationConfig', { taskId: waiting.id, id: 'hook-1', url: hookUrl, token: 'secret' });
    expect(created).toEqual({ taskId: waiting.id, id: 'hook-1', url: hookUrl, token: 'secret' });
    const before = await rpc(url, 'GetTask', { id: waiting.id });
    await stop();

    url = await start(file);
    const after = (await rpc(url, 'GetTask', { id: waiting.id })) as unknown as Task;
    expect(after).toEqual(before);
    expect(after).toEqual(waiting);
    expect(after.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(after.status.message?.parts).toEqual([{ text: "Which meeting: Monday's or Tuesday's?" }]);
    expect(after.history?.map((m) => m.parts)).toEqual([[{ text: 'summarise the meeting' }]]);
    expect(await rpc(url, 'ListTaskPushNotificationConfigs', { taskId: waiting.id })).toEqual({ configs: [created], nextPageToken: '' });

    const { task: done } = (await rpc(url, 'SendMessage', {
      message: { messageId: 'm2', role: 'ROLE_USER', taskId: waiting.id, contextId: waiting.contextId, parts: [{ text: 'Tuesday' }] },
    })) as { task: Task };
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts?.[0]?.parts).toEqual([{ text: "Summary of Tuesday's meeting: " }, { text: 'three decisions, two actions, no blockers.' }]);
    expect(done.history?.map((m) => m.parts[0]?.text)).toEqual(['summarise the meeting', "Which meeting: Monday's or Tuesday's?", 'Tuesday']);
    expect(await rpc(url, 'GetTask', { id: waiting.id })).toEqual(done);

    // The reopened config is the one the server pushes to.
    await expect.poll(() => webhook.received.some((d) => d.body.statusUpdate?.status.state === 'TASK_STATE_COMPLETED'), { timeout: 5000 }).toBe(true);
    expect(new Set(webhook.received.map((d) => d.headers['x-a2a-notification-token']))).toEqual(new Set(['secret']));
  });
});
