/**
 * The tasks extension's store (runtime/mcp/ext/tasks/store.ts): one suite every McpTaskStore passes, run for
 * the in-memory store and the SQLite one (a PostgreSQL store would add itself to STORES), then what only a
 * durable store does: a task written before close is read back by a new store on the same file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DetailedTask } from '../../generated/mcp-ext-tasks/index.ts';
import { validators } from '../../generated/mcp-ext-tasks/index.ts';
import { InMemoryMcpTaskStore, type McpTaskStore, type StoredTask } from '../../runtime/mcp/ext/tasks/store.ts';
import { SqliteMcpTaskStore } from '../../runtime/mcp/ext/tasks/store-sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcp-tasks-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STORES: [string, () => McpTaskStore][] = [
  ['in memory', () => new InMemoryMcpTaskStore()],
  ['SQLite', () => new SqliteMcpTaskStore(join(dir, `${crypto.randomUUID()}.db`))],
];

function record(task: Partial<DetailedTask> & { taskId: string }): StoredTask {
  const base = { status: 'working', createdAt: '2026-08-01T10:00:00.000Z', lastUpdatedAt: '2026-08-01T10:00:00.000Z', ttlMs: 60_000 };
  const full = { ...base, ...task } as DetailedTask;
  // Every task the suite stores is a DetailedTask of the pinned schema: the samples cannot drift from it.
  expect(validators.DetailedTask(full), JSON.stringify(validators.DetailedTask.errors)).toBe(true);
  return { task: full, answered: [], responses: {} };
}

describe.each(STORES)('McpTaskStore: %s', (_name, make) => {
  it('creates, reads back a copy, and refuses a second create of the same id', async () => {
    const store = make();
    const r = record({ taskId: 't1' });
    await store.create(r);
    const got = await store.get('t1');
    expect(got).toEqual(r);
    (got!.task as { status: string }).status = 'failed';
    expect((await store.get('t1'))!.task.status).toBe('working');
    await expect(store.create(r)).rejects.toThrow();
    expect(await store.get('nope')).toBeUndefined();
    await store.close();
  });

  it('put replaces a known task (its payload, answers and responses) and ignores an unknown one', async () => {
    const store = make();
    await store.create(record({ taskId: 't1' }));
    const done: StoredTask = {
      task: record({ taskId: 't1', status: 'completed', result: { content: [], resultType: 'complete' } }).task,
      answered: ['a'],
      responses: { b: { action: 'accept' } },
    };
    await store.put(done);
    await store.put(record({ taskId: 'ghost' }));
    expect(await store.get('t1')).toEqual(done);
    expect(await store.get('ghost')).toBeUndefined();
    await store.close();
  });

  it('lists the unfinished tasks and the expired ones; delete says whether the task was there', async () => {
    const store = make();
    await store.create(record({ taskId: 'working' }));
    await store.create(record({ taskId: 'asking', status: 'input_required', inputRequests: { k: { method: 'roots/list' } } }));
    await store.create(record({ taskId: 'done', status: 'cancelled' }));
    await store.create(record({ taskId: 'forever', ttlMs: null }));
    expect((await store.unfinished()).sort()).toEqual(['asking', 'forever', 'working']);
    const created = Date.parse('2026-08-01T10:00:00.000Z');
    expect(await store.expired(created + 60_000)).toEqual([]);
    expect((await store.expired(created + 60_001)).sort()).toEqual(['asking', 'done', 'working']);
    expect(await store.delete('done')).toBe(true);
    expect(await store.delete('done')).toBe(false);
    expect(await store.get('done')).toBeUndefined();
    await store.close();
  });
});

describe('SqliteMcpTaskStore', () => {
  it('keeps tasks across a close and a reopen of the same file', async () => {
    const file = join(dir, 'restart.db');
    const first = new SqliteMcpTaskStore(file);
    const r = record({ taskId: 'kept', status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } });
    await first.create(r);
    await first.close();
    await expect(first.get('kept')).rejects.toThrow(/closed/);
    const second = new SqliteMcpTaskStore(file);
    expect(await second.get('kept')).toEqual(r);
    await second.close();
  });
});
