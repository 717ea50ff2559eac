/**
 * The findings of the A2A recordings (what they showed the official SDK doing), one named test each, run in process
 * against the research agent sample (samples/research-agent.ts, the SDK's behaviour) and checked against
 * the recorded messages of test/fixtures/recordings/a2a_sdk_exchanges.json where they show the finding.
 */
import { afterEach, describe, expect, it } from 'vitest';
import agent from '../../samples/research-agent.ts';
import { KIT_BEHAVIOUR } from '../../runtime/a2a/types.ts';
import { loadA2aSessions } from '../helpers/a2a-replay.ts';
import { agentPool, userMessage, type Json } from '../helpers/a2a-server.ts';

const pool = agentPool();
afterEach(() => pool.closeAll());
const startResearchAgent = (behaviour = agent.behaviour) => pool.start({ card: agent.card, executor: agent.executor, behaviour });
const recorded = (session: string, index: number) => loadA2aSessions().find((s) => s.name === session)!.messages[index]!.json as Json;
/** An ErrorInfo detail as the SDK sends it (empty metadata). */
const errorInfo = (reason: string) => ({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org', metadata: {}, reason });

describe('what the A2A recordings showed', () => {
  it('Cancelling a task that is waiting for input (so nothing is running for it) writes TASK_STATE_CANCELED over its stored status and keeps the status message', async () => {
    const a = await startResearchAgent();
    const waiting = (await a.rpc('SendMessage', userMessage('summarise the meeting'))).result.task as Json;
    expect(waiting.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const canceled = (await a.rpc('CancelTask', { id: waiting.id }, { id: 2 })).result as Json;
    // a2a_cancel #5: the same task, the same status message and history, only the state (and time) new.
    expect(canceled).toEqual({ ...waiting, status: { ...waiting.status, state: 'TASK_STATE_CANCELED', timestamp: expect.any(String) } });
    expect(canceled.status.message).toEqual(waiting.status.message);
    expect((await a.rpc('GetTask', { id: waiting.id })).result).toEqual(canceled);
    expect(recorded('a2a_cancel', 5).result.status).toMatchObject({
      state: 'TASK_STATE_CANCELED',
      message: recorded('a2a_cancel', 3).result.task.status.message,
    });
  });

  it("A message to a finished task is refused with -32004, 'Task … is in terminal state: …'", async () => {
    const a = await startResearchAgent();
    const finished: Json[] = [];
    finished.push((await a.rpc('SendMessage', userMessage('summarise the design notes'))).result.task);
    finished.push((await a.rpc('SendMessage', userMessage('delete every draft'))).result.task);
    const waiting = (await a.rpc('SendMessage', userMessage('summarise the meeting'))).result.task as Json;
    finished.push((await a.rpc('CancelTask', { id: waiting.id })).result);
    expect(finished.map((t) => t.status.state)).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_REJECTED', 'TASK_STATE_CANCELED']);
    for (const task of finished) {
      const expected = {
        code: -32004,
        data: [errorInfo('UNSUPPORTED_OPERATION')],
        message: `Task ${task.id} is in terminal state: ${task.status.state}`,
      };
      const answer = userMessage('Tuesday', { contextId: task.contextId, taskId: task.id });
      expect(await a.rpc('SendMessage', answer, { id: 4 })).toEqual({ error: expected, id: 4, jsonrpc: '2.0' });
      // The streaming variant refuses before any stream starts: a plain JSON-RPC error.
      const stream = await a.stream('SendStreamingMessage', answer, { id: 5 });
      await stream.ended;
      expect(stream.headers['content-type']).toBe('application/json');
      expect(JSON.parse(stream.text)).toEqual({ error: expected, id: 5, jsonrpc: '2.0' });
      // Refused means untouched: the task's history did not take the message.
      expect((await a.rpc('GetTask', { id: task.id })).result).toEqual(task);
    }
    expect(recorded('a2a_cancel', 9).error.message).toBe('Task <id-3> is in terminal state: TASK_STATE_CANCELED');
  });

  it('A request with no A2A-Version header is read as 0.3, and a 1.0-only agent refuses it (-32009)', async () => {
    const refusal = (version: string) => ({
      code: -32009,
      data: [errorInfo('VERSION_NOT_SUPPORTED')],
      message: `A2A version '${version}' is not supported by this handler. Expected version '1.0'.`,
    });
    // a2a_errors #3: exactly what the SDK answered to the SendMessage without the header.
    expect(recorded('a2a_errors', 3)).toEqual({ error: refusal('0.3'), id: 2, jsonrpc: '2.0' });
    const a = await startResearchAgent();
    const message = userMessage('summarise the design notes');
    expect(await a.rpc('SendMessage', message, { id: 2, version: null })).toEqual({ error: refusal('0.3'), id: 2, jsonrpc: '2.0' });
    // §3.6.2 "Agents MUST interpret empty value as 0.3 version."
    expect((await a.rpc('SendMessage', message, { version: '' })).error).toEqual(refusal('0.3'));
    expect((await a.rpc('SendMessage', message, { version: '0.3' })).error).toEqual(refusal('0.3'));
    expect((await a.rpc('GetTask', { id: 'x' }, { version: '2.0' })).error).toEqual(refusal('2.0'));
    // Nothing ran for the refused messages; with the header the same message is served.
    expect((await a.rpc('ListTasks', {})).result.tasks).toEqual([]);
    expect((await a.rpc('SendMessage', message)).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // The kit's behaviour (exact "1.0" from the header or the query) refuses a missing header the same way.
    const kit = await startResearchAgent(KIT_BEHAVIOUR);
    const kitError = (await kit.rpc('SendMessage', message, { version: null })).error as Json;
    expect(kitError).toMatchObject({ code: -32009, message: refusal('0.3').message });
  });

  it('two answers to the same waiting task at once: one is taken, the other refused with -32004, and history holds one answer', async () => {
    // In process, so both answers reach the server before either has been written.
    const { A2aServer } = await import('../../runtime/a2a/server.ts');
    const server = new A2aServer({ card: agent.card, executor: agent.executor, behaviour: agent.behaviour, log: () => {} });
    const first = (await server.sendMessage(userMessage('summarise the meeting') as never)) as { task: Json };
    const waiting = first.task;
    const answer = (text: string) => server.sendMessage(userMessage(text, { contextId: waiting.contextId, taskId: waiting.id }) as never);
    const settled = await Promise.allSettled([answer('Tuesday'), answer('Monday')]);
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(settled.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual([-32004]);
    const history = (await server.getTask({ id: waiting.id } as never)).history ?? [];
    expect(history.filter((m) => m.role === 'ROLE_USER')).toHaveLength(2); // the first request and one answer
    await server.close();
  });
});
