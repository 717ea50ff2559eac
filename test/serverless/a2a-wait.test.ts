/**
 * @module test/serverless/a2a-wait — the work an A2A agent does after answering, handed to a platform's
 * `waitUntil` (a2aFetchHandler's option, a2aWorker's `ctx`), on Node: after a non-blocking SendMessage
 * (`returnImmediately`, A2A 1.0 SendMessageConfiguration) the promise given to waitUntil settles only once the
 * task has completed, and a2aWorker makes its server once, on the first request. On workerd:
 * test/serverless/workerd.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { a2aFetchHandler } from '../../runtime/a2a/http-adapters.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { a2aWorker } from '../../runtime/platform/a2a-worker.ts';

/** An agent whose task completes when `finish` is called. */
function slowAgent() {
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const server = new A2aServer({
    card: {
      name: 'Slow',
      description: 'Completes when told.',
      supportedInterfaces: [{ url: 'http://slow.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      version: '1.0.0',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'slow', name: 'Slow', description: 'Slow.', tags: ['slow'] }],
    },
    executor: {
      async execute(ctx) {
        const task = await ctx.startTask();
        await finished;
        await task.complete();
      },
    },
  });
  return { server, finish: () => finish() };
}

const sendMessage = () =>
  new Request('http://slow.example/a2a', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] }, configuration: { returnImmediately: true } },
    }),
  });

const taskOf = async (response: Response) => ((await response.json()) as { result: { task: { id: string; status: { state: string } } } }).result.task;

describe("the platform's waitUntil", () => {
  it('a2aFetchHandler: gets, after a non-blocking answer, a promise that settles once the task completed', async () => {
    const { server, finish } = slowAgent();
    const kept: Promise<unknown>[] = [];
    const a2a = a2aFetchHandler(server, { waitUntil: (p) => kept.push(p) });
    const task = await taskOf(await a2a(sendMessage()));
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(kept).toHaveLength(1);
    let settled = false;
    void kept[0]!.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    finish();
    await kept[0];
    expect((await server.store.getTask(task.id))?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a2aWorker: makes the server once and hands each request its own ctx.waitUntil', async () => {
    const { server, finish } = slowAgent();
    let made = 0;
    const worker = a2aWorker(() => (made++, server));
    const kept: Promise<unknown>[][] = [[], []];
    const task = await taskOf(await worker.fetch(sendMessage(), {}, { waitUntil: (p) => kept[0]!.push(p) }));
    const card = await worker.fetch(new Request('http://slow.example/.well-known/agent-card.json'), {}, { waitUntil: (p) => kept[1]!.push(p) });
    expect(card.status).toBe(200);
    expect(made).toBe(1);
    expect(kept.map((k) => k.length)).toEqual([1, 1]);
    finish();
    await Promise.all(kept.flat());
    expect((await server.store.getTask(task.id))?.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
