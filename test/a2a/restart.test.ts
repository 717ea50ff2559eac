/**
 * @module test/a2a/restart — a single agent on a SQLite file that stopped while tasks ran (a crash leaves them
 * SUBMITTED or WORKING in the file): when it starts again, each is failed with a status message saying so, or
 * continued by the agent's `resume` when it has one; tasks waiting for input or sign-in, and ended ones, are left
 * as they were. Both through `wiregen serve <agent> --store sqlite:<path>` and an A2aServer built in code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import researchAgent from '../../samples/research-agent.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { SqliteTaskStore } from '../../runtime/a2a/store-sqlite.ts';
import type { AgentExecutor, Task } from '../../runtime/a2a/types.ts';
import { startAgent } from '../helpers/a2a-replay.ts';
import type { Json } from '../helpers/a2a-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'wiregen-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (id: string, state: string): Task => ({
  id,
  contextId: `ctx-${id}`,
  status: { state, timestamp: '2026-01-01T00:00:00.000Z' },
  history: [{ messageId: `m-${id}`, contextId: `ctx-${id}`, taskId: id, role: 'ROLE_USER', parts: [{ text: `summarise ${id}` }] }],
});

const STATES = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  waiting: 'TASK_STATE_INPUT_REQUIRED',
  signin: 'TASK_STATE_AUTH_REQUIRED',
  done: 'TASK_STATE_COMPLETED',
} as const;

/** A SQLite file as a crashed agent leaves it: one task in each state. */
async function crashedStore(name: string): Promise<string> {
  const file = join(dir, name);
  const store = new SqliteTaskStore(file);
  for (const [id, state] of Object.entries(STATES)) await store.saveTask(task(id, state));
  await store.close();
  return file;
}

const FAILED_MESSAGE = 'The agent stopped before this task finished; it was failed when the agent started again.';

describe('restart of a single agent on SQLite', () => {
  it('wiregen serve --store sqlite:<path>: the running tasks are failed with a status message, the others kept', async () => {
    const file = await crashedStore('serve.db');
    const agent = await startAgent([
      process.execPath,
      'bin/wiregen.mjs',
      'serve',
      'research-agent',
      '--http',
      '0',
      '--exit-on-stdin-close',
      '--store',
      `sqlite:${file}`,
    ]);
    try {
      const get = async (id: string) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } });
        const res = await fetch(`${agent.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body });
        return ((await res.json()) as Json).result.status as Json;
      };
      for (const id of ['submitted', 'working']) {
        const status = await get(id);
        expect(status.state, id).toBe('TASK_STATE_FAILED');
        expect(status.message.parts).toEqual([{ text: FAILED_MESSAGE }]);
        expect(status.message.role).toBe('ROLE_AGENT');
      }
      expect((await get('waiting')).state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect((await get('signin')).state).toBe('TASK_STATE_AUTH_REQUIRED');
      expect((await get('done')).state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await agent.process.close();
    }
    expect(agent.process.stderr()).toMatch(/task working failed: the agent stopped while it ran/);
  });

  it('an agent with resume continues them instead, from the task as stored', async () => {
    const file = await crashedStore('resume.db');
    const resumed: string[] = [];
    const executor: AgentExecutor = {
      execute: researchAgent.executor.execute.bind(researchAgent.executor),
      async resume(ctx) {
        resumed.push(`${ctx.task?.id} ${ctx.task?.status.state} ${ctx.text}`);
        const handle = ctx.currentTask();
        await handle.artifact({ name: 'summary', parts: [{ text: `resumed ${ctx.task?.id}` }] });
        await handle.complete();
      },
    };
    const server = new A2aServer({ card: researchAgent.card, executor, store: new SqliteTaskStore(file), log: () => undefined });
    await server.ready();
    // close() waits for the resumed runs to end.
    await server.close();
    expect(resumed.sort()).toEqual(['submitted TASK_STATE_SUBMITTED summarise submitted', 'working TASK_STATE_WORKING summarise working']);
    const reopened = new SqliteTaskStore(file);
    const states = Object.fromEntries(await Promise.all(Object.keys(STATES).map(async (id) => [id, (await reopened.getTask(id))?.status.state])));
    expect(states).toEqual({ ...STATES, submitted: 'TASK_STATE_COMPLETED', working: 'TASK_STATE_COMPLETED' });
    expect((await reopened.getTask('working'))?.artifacts?.map((a) => a.parts[0])).toEqual([{ text: 'resumed working' }]);
    await reopened.close();
  });
});
