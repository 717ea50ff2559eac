/**
 * Streams over JSON-RPC (§3.1.2, §3.1.6, §9.4): SendStreamingMessage's frames and when each behaviour closes
 * the stream (SDK: when the agent's execute() returns; kit: at a terminal or input-required state, open
 * through auth-required), SubscribeToTask (the task first, then its updates; a terminal task is refused),
 * and CancelTask of a running task and of a finished one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KIT_BEHAVIOUR, SDK_BEHAVIOUR, type A2aBehaviour, type AgentExecutor } from '../../runtime/a2a/types.ts';
import { loadA2aSessions } from '../helpers/a2a-replay.ts';
import { agentPool, gate, userMessage, type Json } from '../helpers/a2a-server.ts';
import { sleep, type Exchange } from '../helpers/http-client.ts';

const pool = agentPool();
afterEach(() => pool.closeAll());
const behaviours: [string, A2aBehaviour][] = [
  ['SDK', SDK_BEHAVIOUR],
  ['kit', KIT_BEHAVIOUR],
];

/** True when the stream ends within `ms`. */
const endsWithin = (ex: Exchange, ms: number) => Promise.race([ex.ended.then(() => true), sleep(ms).then(() => false)]);
/** One word per frame: `task:STATE`, `status:STATE`, `artifact[+append][+last]`, `message`. */
const shape = (frames: Json[]) =>
  frames.map(({ result: r }) =>
    r.task
      ? `task:${r.task.status.state}`
      : r.statusUpdate
        ? `status:${r.statusUpdate.status.state}`
        : r.artifactUpdate
          ? `artifact${r.artifactUpdate.append ? '+append' : ''}${r.artifactUpdate.lastChunk ? '+last' : ''}`
          : 'message',
  );

/** "ask": input-required; "auth": auth-required; "finish-late": completes, then goes on; each waits on `g` after. */
function scripted(g = gate(), seen: { aborted?: boolean } = {}): AgentExecutor {
  return {
    async execute(ctx) {
      if (ctx.text === 'hello') return ctx.reply('hi');
      const task = await ctx.startTask();
      await task.working();
      if (ctx.text === 'ask') return (await task.inputRequired(task.agentMessage('which?')), g.promise);
      if (ctx.text === 'auth') {
        await task.authRequired(task.agentMessage('sign in'));
        await g.promise;
        await task.working();
        return task.complete();
      }
      if (ctx.text === 'finish-late') return (await task.complete(), g.promise);
      if (ctx.text === 'until-cancel') {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        seen.aborted = ctx.signal.aborted;
        return;
      }
      if (ctx.text === 'slow') await g.promise;
      const artifactId = await task.artifact({ name: 'summary', parts: [{ text: 'head ' }] });
      await task.artifact({ artifactId, name: 'summary', parts: [{ text: 'body' }], append: true, lastChunk: true });
      await task.complete();
    },
  };
}

describe.each(behaviours)('SendStreamingMessage (%s behaviour)', (name, behaviour) => {
  it('frames: the task, status updates, artifact chunks with append/lastChunk, each wrapped in JSON-RPC', async () => {
    const a = await pool.start({ executor: scripted(), behaviour });
    const ex = await a.stream('SendStreamingMessage', userMessage('summarise'), { id: 'req-1' });
    expect(ex.headers['content-type']).toBe('text/event-stream');
    await ex.ended;
    const [first, ...rest] = ex.frames as Json[];
    const { id, contextId } = first!.result.task;
    expect(first).toEqual({
      id: 'req-1',
      jsonrpc: '2.0',
      result: {
        task: {
          id,
          contextId,
          history: [expect.objectContaining({ taskId: id, contextId })],
          status: name === 'kit' ? { state: 'TASK_STATE_SUBMITTED', timestamp: expect.any(String) } : { state: 'TASK_STATE_SUBMITTED' },
        },
      },
    });
    const artifact = (parts: Json[]) => ({ artifactId: expect.any(String), name: 'summary', parts });
    expect(rest.map((f) => f.result)).toEqual([
      { statusUpdate: { contextId, status: { state: 'TASK_STATE_WORKING', timestamp: expect.any(String) }, taskId: id } },
      { artifactUpdate: { artifact: artifact([{ text: 'head ' }]), contextId, taskId: id } },
      { artifactUpdate: { append: true, artifact: artifact([{ text: 'body' }]), contextId, lastChunk: true, taskId: id } },
      { statusUpdate: { contextId, status: { state: 'TASK_STATE_COMPLETED', timestamp: expect.any(String) }, taskId: id } },
    ]);
    expect(rest.every((f) => f.id === 'req-1' && f.jsonrpc === '2.0')).toBe(true);
  });

  it('a message answer is the only frame, then the stream closes', async () => {
    const a = await pool.start({ executor: scripted(), behaviour });
    const ex = await a.stream('SendStreamingMessage', userMessage('hello'));
    expect(await endsWithin(ex, 2000)).toBe(true);
    expect(shape(ex.frames as Json[])).toEqual(['message']);
  });
});

describe('when a stream closes', () => {
  it('SDK: TASK_STATE_INPUT_REQUIRED leaves it open until execute() returns', async () => {
    const g = gate();
    const a = await pool.start({ executor: scripted(g), behaviour: SDK_BEHAVIOUR });
    const ex = await a.stream('SendStreamingMessage', userMessage('ask'));
    await ex.waitFor((f) => f['result'] !== undefined && JSON.stringify(f).includes('TASK_STATE_INPUT_REQUIRED'));
    expect(await endsWithin(ex, 200)).toBe(false);
    g.open();
    expect(await endsWithin(ex, 2000)).toBe(true);
    expect(shape(ex.frames as Json[])).toEqual(['task:TASK_STATE_SUBMITTED', 'status:TASK_STATE_WORKING', 'status:TASK_STATE_INPUT_REQUIRED']);
  });

  it('SDK: a terminal state leaves it open until execute() returns', async () => {
    const g = gate();
    const a = await pool.start({ executor: scripted(g), behaviour: SDK_BEHAVIOUR });
    const ex = await a.stream('SendStreamingMessage', userMessage('finish-late'));
    await ex.waitFor((f) => JSON.stringify(f).includes('TASK_STATE_COMPLETED'));
    expect(await endsWithin(ex, 200)).toBe(false);
    g.open();
    expect(await endsWithin(ex, 2000)).toBe(true);
  });

  it('kit: closes at TASK_STATE_INPUT_REQUIRED and at a terminal state while execute() still runs', async () => {
    const g = gate();
    const a = await pool.start({ executor: scripted(g), behaviour: KIT_BEHAVIOUR });
    const ask = await a.stream('SendStreamingMessage', userMessage('ask'));
    expect(await endsWithin(ask, 2000)).toBe(true);
    expect(shape(ask.frames as Json[])).toEqual(['task:TASK_STATE_SUBMITTED', 'status:TASK_STATE_WORKING', 'status:TASK_STATE_INPUT_REQUIRED']);
    const late = await a.stream('SendStreamingMessage', userMessage('finish-late'));
    expect(await endsWithin(late, 2000)).toBe(true);
    expect(shape(late.frames as Json[]).at(-1)).toBe('status:TASK_STATE_COMPLETED');
    g.open();
  });

  it.each(behaviours)('%s: stays open through TASK_STATE_AUTH_REQUIRED', async (_, behaviour) => {
    const g = gate();
    const a = await pool.start({ executor: scripted(g), behaviour });
    const ex = await a.stream('SendStreamingMessage', userMessage('auth'));
    await ex.waitFor((f) => JSON.stringify(f).includes('TASK_STATE_AUTH_REQUIRED'));
    expect(await endsWithin(ex, 200)).toBe(false);
    g.open();
    expect(await endsWithin(ex, 2000)).toBe(true);
    expect(shape(ex.frames as Json[])).toEqual([
      'task:TASK_STATE_SUBMITTED',
      'status:TASK_STATE_WORKING',
      'status:TASK_STATE_AUTH_REQUIRED',
      'status:TASK_STATE_WORKING',
      'status:TASK_STATE_COMPLETED',
    ]);
  });
});

describe.each(behaviours)('SubscribeToTask (%s behaviour)', (_, behaviour) => {
  it('the first frame is the task as it stands, then its updates; the stream ends at the terminal state', async () => {
    const g = gate();
    const a = await pool.start({ executor: scripted(g), behaviour });
    const task = (await a.rpc('SendMessage', userMessage('slow', {}, { returnImmediately: true }))).result.task as Json;
    const one = await a.stream('SubscribeToTask', { id: task.id }, { id: 7 });
    const two = await a.stream('SubscribeToTask', { id: task.id }, { id: 8 });
    await one.waitFor(() => true);
    await two.waitFor(() => true);
    expect(one.frames[0]).toEqual({ id: 7, jsonrpc: '2.0', result: { task: (await a.rpc('GetTask', { id: task.id })).result } });
    g.open();
    expect(await endsWithin(one, 2000)).toBe(true);
    expect(await endsWithin(two, 2000)).toBe(true);
    expect(shape(one.frames as Json[])).toEqual(['task:TASK_STATE_WORKING', 'artifact', 'artifact+append+last', 'status:TASK_STATE_COMPLETED']);
    // §3.5.2: every stream of a task gets the same events in the same order.
    expect((two.frames as Json[]).map((f) => f.result)).toEqual((one.frames as Json[]).map((f) => f.result));
  });

  it('a task in a terminal state: -32004 "Task <id> is in terminal state: <STATE>"', async () => {
    const a = await pool.start({ executor: scripted(), behaviour });
    const task = (await a.rpc('SendMessage', userMessage('summarise'))).result.task as Json;
    const reply = await a.rpc('SubscribeToTask', { id: task.id });
    expect(reply.error).toMatchObject({
      code: -32004,
      message: `Task ${task.id} is in terminal state: TASK_STATE_COMPLETED`,
      data: [{ reason: 'UNSUPPORTED_OPERATION' }],
    });
  });
});

describe('CancelTask', () => {
  it('of a running task: the executor sees ctx.signal abort and the default cancel writes TASK_STATE_CANCELED', async () => {
    const seen: { aborted?: boolean } = {};
    const a = await pool.start({ executor: scripted(gate(), seen) });
    const task = (await a.rpc('SendMessage', userMessage('until-cancel', {}, { returnImmediately: true }))).result.task as Json;
    const canceled = (await a.rpc('CancelTask', { id: task.id })).result as Json;
    expect(canceled).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_CANCELED', timestamp: expect.any(String) } });
    expect(seen.aborted).toBe(true);
    expect((await a.rpc('GetTask', { id: task.id })).result).toEqual(canceled);
  });

  // §3.1.2: the stream closes when the task reaches a terminal state; §3.5.2: every event reaches every stream.
  it.each(behaviours)('%s: the streams following a cancelled task get its TASK_STATE_CANCELED update before they close', async (_, behaviour) => {
    const a = await pool.start({ executor: scripted(), behaviour });
    const own = await a.stream('SendStreamingMessage', userMessage('until-cancel'));
    const { task } = (await own.waitFor((f) => f['result'] !== undefined))['result'] as Json;
    const follower = await a.stream('SubscribeToTask', { id: task.id });
    await follower.waitFor(() => true);
    await a.rpc('CancelTask', { id: task.id });
    expect(await endsWithin(follower, 2000)).toBe(true);
    expect(shape(follower.frames as Json[]).at(-1)).toBe('status:TASK_STATE_CANCELED');
    expect(await endsWithin(own, 2000)).toBe(true);
    expect(shape(own.frames as Json[])).toEqual(['task:TASK_STATE_SUBMITTED', 'status:TASK_STATE_WORKING', 'status:TASK_STATE_CANCELED']);
  });

  it("of a running task with the executor's own cancel: that is what runs", async () => {
    const executor = scripted();
    executor.cancel = (task) => task.cancel(task.agentMessage('stopped as asked'));
    const a = await pool.start({ executor });
    const task = (await a.rpc('SendMessage', userMessage('until-cancel', {}, { returnImmediately: true }))).result.task as Json;
    const canceled = (await a.rpc('CancelTask', { id: task.id })).result as Json;
    expect(canceled.status).toMatchObject({ state: 'TASK_STATE_CANCELED', message: { role: 'ROLE_AGENT', parts: [{ text: 'stopped as asked' }] } });
  });

  it('of a task resumed by an answer: CancelTask returns after that execution has stopped', async () => {
    const events: string[] = [];
    const executor: AgentExecutor = {
      async execute(ctx) {
        if (!ctx.task) return (await ctx.startTask()).inputRequired(ctx.currentTask().agentMessage('go on?'));
        const task = ctx.currentTask();
        await task.working();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        await sleep(30);
        events.push('execution stopped');
      },
    };
    const a = await pool.start({ executor });
    const task = (await a.rpc('SendMessage', userMessage('start'))).result.task as Json;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const answer = userMessage('go on', { taskId: task.id, contextId: task.contextId }, { returnImmediately: true });
    await a.rpc('SendMessage', answer);
    await a.rpc('CancelTask', { id: task.id });
    events.push('cancel returned');
    expect(events).toEqual(['execution stopped', 'cancel returned']);
  });

  it('of a task in a terminal state: -32002 with the recorded shape (a2a_cancel #7)', async () => {
    const recorded = loadA2aSessions().find((s) => s.name === 'a2a_cancel')!.messages[7]!.json;
    const a = await pool.start({ executor: scripted() });
    const task = (await a.rpc('SendMessage', userMessage('summarise'))).result.task as Json;
    expect(await a.rpc('CancelTask', { id: task.id }, { id: 3 })).toEqual(recorded);
  });
});
