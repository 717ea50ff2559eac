/**
 * @module test/a2a/context-destructure — an agent may take its ExecutionContext apart
 * (`async execute({ text, reply, startTask })`), as one takes apart any argument: the methods work without
 * their object.
 */
import { describe, expect, it } from 'vitest';
import { A2aHttpHandler } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import type { AgentExecutor } from '../../runtime/a2a/types.ts';
import { testCard, userMessage, type Json } from '../helpers/a2a-server.ts';

const executor: AgentExecutor = {
  async execute({ text, reply, startTask }) {
    if (text === 'hello') return reply('hi');
    const task = await startTask();
    await task.complete(task.agentMessage(`done: ${text}`));
  },
};

async function send(handler: A2aHttpHandler, text: string): Promise<Json> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: userMessage(text) });
  const res = await handler.fetch(
    new Request('http://127.0.0.1/a2a', { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body }),
  );
  return ((await res.json()) as Json).result as Json;
}

describe('a destructured ExecutionContext', () => {
  it('reply and startTask work taken off the context', async () => {
    const handler = new A2aHttpHandler(new A2aServer({ card: testCard(), executor, log: () => undefined }));
    expect((await send(handler, 'hello')).message.parts).toEqual([{ text: 'hi' }]);
    const task = (await send(handler, 'the build')).task as Json;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.status.message.parts).toEqual([{ text: 'done: the build' }]);
  });
});
