/**
 * SendMessage's execution modes and history (§3.2.2, §3.2.4), GetTask's historyLength and ListTasks (§3.1.4:
 * page size bounds, cursor round trip, filters, includeArtifacts, nextPageToken always present, most recently
 * updated first), over JSON-RPC against an in-process agent with a fake clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentExecutor } from '../../runtime/a2a/types.ts';
import { agentPool, fakeClock, gate, userMessage, type Json } from '../helpers/a2a-server.ts';
import { eventually, sleep } from '../helpers/http-client.ts';

const pool = agentPool();
afterEach(() => pool.closeAll());

/** "slow" waits for `slow` to open; "ask" needs input, then completes; anything else completes with an artifact. */
function scripted(slow = gate()): AgentExecutor {
  return {
    async execute(ctx) {
      if (ctx.task) {
        const task = ctx.currentTask();
        await task.working();
        return task.complete(task.agentMessage('done'));
      }
      const task = await ctx.startTask();
      await task.working();
      if (ctx.text === 'slow') await slow.promise;
      if (ctx.text === 'ask') return task.inputRequired(task.agentMessage('which one?'));
      await task.artifact({ name: 'out', parts: [{ text: `did ${ctx.text}` }] });
      await task.complete();
    },
  };
}
const start = (slow?: ReturnType<typeof gate>) => pool.start({ executor: scripted(slow), clock: fakeClock() });
type Agent = Awaited<ReturnType<typeof start>>;
const sendTask = async (a: Agent, text: string, extra: Json = {}, configuration?: Json) =>
  (await a.rpc('SendMessage', userMessage(text, extra, configuration))).result.task as Json;
const answer = (task: Json, configuration?: Json) => userMessage('the second', { contextId: task.contextId, taskId: task.id }, configuration);
const list = async (a: Agent, params: Json) => (await a.rpc('ListTasks', params)) as Json;

describe('SendMessage', () => {
  it('returnImmediately returns the submitted or working task before the agent finishes', async () => {
    const slow = gate();
    const a = await start(slow);
    const task = await sendTask(a, 'slow', {}, { returnImmediately: true });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    expect((await a.rpc('GetTask', { id: task.id })).result.status.state).toBe('TASK_STATE_WORKING');
    slow.open();
    await eventually(async () => (await a.rpc('GetTask', { id: task.id })).result.status.state === 'TASK_STATE_COMPLETED');
  });

  it('without returnImmediately it waits for a terminal or interrupted state', async () => {
    const slow = gate();
    const a = await start(slow);
    let settled = false;
    const pending = sendTask(a, 'slow').then((t) => ((settled = true), t));
    await sleep(150);
    expect(settled).toBe(false);
    slow.open();
    expect((await pending).status.state).toBe('TASK_STATE_COMPLETED');
    expect((await sendTask(a, 'ask')).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('historyLength: unset all history, 0 none (field omitted), 1 the last message', async () => {
    const a = await start();
    const answered = async (configuration?: Json) =>
      (await a.rpc('SendMessage', answer(await sendTask(a, 'ask'), configuration))).result.task as Json;
    const all = await answered();
    expect(all.history.map((m: Json) => [m.role, m.parts[0].text])).toEqual([
      ['ROLE_USER', 'ask'],
      ['ROLE_AGENT', 'which one?'],
      ['ROLE_USER', 'the second'],
    ]);
    const none = await answered({ historyLength: 0 });
    expect(none).not.toHaveProperty('history');
    expect(none.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await answered({ historyLength: 1 })).history.map((m: Json) => m.parts[0].text)).toEqual(['the second']);
  });
});

describe('GetTask historyLength', () => {
  it.each([
    [undefined, ['ask', 'which one?', 'the second']],
    [0, undefined],
    [1, ['the second']],
    [2, ['which one?', 'the second']],
    [10, ['ask', 'which one?', 'the second']],
    ['1', ['the second']],
  ])('historyLength %s', async (historyLength, texts) => {
    const a = await start();
    const task = await sendTask(a, 'ask');
    await a.rpc('SendMessage', answer(task));
    const got = (await a.rpc('GetTask', { id: task.id, ...(historyLength === undefined ? {} : { historyLength }) })).result as Json;
    if (texts === undefined) expect(got).not.toHaveProperty('history');
    else expect(got.history.map((m: Json) => m.parts[0].text)).toEqual(texts);
  });
});

describe('ListTasks', () => {
  /** Five tasks, completed at 00:00:01, :03, :05, :07 and :09 by the fake clock. */
  async function five(): Promise<{ a: Agent; ids: string[] }> {
    const a = await start();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await sendTask(a, `job ${i}`)).id);
    return { a, ids };
  }

  it.each([0, 101, -1])('pageSize %i: -32602 naming pageSize', async (pageSize) => {
    const { a } = await five();
    const reply = await list(a, { pageSize });
    expect(reply.error).toMatchObject({ code: -32602, message: 'Validation failed' });
    expect(reply.error.data[1].fieldViolations).toEqual([{ description: expect.any(String), field: 'pageSize' }]);
  });

  it('pageSize 1 and 100 are accepted; unset means up to 50', async () => {
    const { a } = await five();
    expect((await list(a, { pageSize: 1 })).result).toMatchObject({ pageSize: 1, totalSize: 5, tasks: [expect.any(Object)] });
    expect((await list(a, { pageSize: 100 })).result.tasks).toHaveLength(5);
    expect((await list(a, {})).result).toMatchObject({ pageSize: 50, totalSize: 5, nextPageToken: '' });
  });

  it('pages follow nextPageToken, most recently updated first; the last page has nextPageToken ""', async () => {
    const { a, ids } = await five();
    const seen: string[] = [];
    const tokens: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = (await list(a, { pageSize: 2, ...(pageToken ? { pageToken } : {}) })).result as Json;
      seen.push(...page.tasks.map((t: Json) => t.id));
      tokens.push(page.nextPageToken);
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual([...ids].reverse());
    expect(tokens.map((t) => t !== '')).toEqual([true, true, false]);
  });

  it('a token that is not one of ours: -32602 naming pageToken', async () => {
    const { a } = await five();
    for (const pageToken of ['garbage', 'bzo5OTk', '!!!']) {
      const reply = await list(a, { pageToken });
      expect(reply.error).toMatchObject({ code: -32602 });
      expect(reply.error.data[1].fieldViolations).toEqual([{ description: expect.any(String), field: 'pageToken' }]);
    }
  });

  it('nextPageToken is present ("") when nothing matches', async () => {
    const a = await start();
    expect((await list(a, {})).result).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
  });

  it('status and contextId filters', async () => {
    const a = await start();
    const waiting = await sendTask(a, 'ask', { contextId: 'ctx-a' });
    const done = await sendTask(a, 'x', { contextId: 'ctx-a' });
    await sendTask(a, 'y', { contextId: 'ctx-b' });
    const ids = async (params: Json) => (await list(a, params)).result.tasks.map((t: Json) => t.id);
    expect(await ids({ status: 'TASK_STATE_INPUT_REQUIRED' })).toEqual([waiting.id]);
    expect(await ids({ contextId: 'ctx-a' })).toEqual([done.id, waiting.id]);
    expect(await ids({ contextId: 'ctx-a', status: 'TASK_STATE_COMPLETED' })).toEqual([done.id]);
    expect(await ids({ contextId: 'ctx-none' })).toEqual([]);
  });

  it('statusTimestampAfter keeps tasks whose status time is at or after it', async () => {
    const { a, ids } = await five();
    const listedAfter = async (statusTimestampAfter: string) => (await list(a, { statusTimestampAfter })).result.tasks.map((t: Json) => t.id);
    expect(await listedAfter('2026-01-01T00:00:05.000Z')).toEqual([ids[4], ids[3], ids[2]]);
    expect(await listedAfter('2026-01-01T00:00:05.001Z')).toEqual([ids[4], ids[3]]);
  });

  // a2a.proto ListTasksRequest.status_timestamp_after: "greater than or equal"; its example has no fraction,
  // and ProtoJSON Timestamps may have 0, 3, 6 or 9 fraction digits and any offset.
  it.each(['2026-01-01T00:00:05Z', '2026-01-01T01:00:05+01:00', '2026-01-01T00:00:05.000000Z'])(
    'statusTimestampAfter compares instants: %s is the instant of "…:05.000Z"',
    async (statusTimestampAfter) => {
      const { a, ids } = await five();
      const reply = await list(a, { statusTimestampAfter });
      expect(reply.error).toBeUndefined();
      expect(reply.result.tasks.map((t: Json) => t.id)).toEqual([ids[4], ids[3], ids[2]]);
    },
  );

  it('includeArtifacts false or unset omits the field entirely; true includes it', async () => {
    const a = await start();
    await sendTask(a, 'x');
    const tasks = async (params: Json) => (await list(a, params)).result.tasks as Json[];
    expect((await tasks({}))[0]).not.toHaveProperty('artifacts');
    expect((await tasks({ includeArtifacts: false }))[0]).not.toHaveProperty('artifacts');
    expect((await tasks({ includeArtifacts: true }))[0]!.artifacts).toEqual([
      { artifactId: expect.any(String), name: 'out', parts: [{ text: 'did x' }] },
    ]);
  });

  it('a task updated later moves to the front', async () => {
    const a = await start();
    const waiting = await sendTask(a, 'ask');
    const other = await sendTask(a, 'x');
    const order = async () => (await list(a, {})).result.tasks.map((t: Json) => t.id);
    expect(await order()).toEqual([other.id, waiting.id]);
    await a.rpc('SendMessage', answer(waiting));
    expect(await order()).toEqual([waiting.id, other.id]);
  });
});
