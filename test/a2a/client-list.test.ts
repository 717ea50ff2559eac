/**
 * @module test/a2a/client-list — ListTasks on our A2A client (A2aClient, runtime/a2a/client-list.ts) when one task
 * of a page does not match the A2A 1.0 Task definition: strict (the default) fails naming the task by index and
 * id and the JSON pointer; lenient returns the rest of the page and reports the bad task. A page whose own
 * fields are wrong fails either way. The pages are written here by hand against the schema (`status.state` an
 * enum of TASK_STATE_* names; `id` required).
 */
import { describe, expect, it } from 'vitest';
import type { ClientTransport } from '@wiregen/a2a-1.0';
import { A2aClient, InvalidTaskError, type InvalidTask } from '../../runtime/a2a/index.ts';
import { InvalidResultError } from '../../runtime/core/index.ts';

const good = (id: string) => ({ id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } });
const PAGE = {
  tasks: [good('t-0'), { id: 't-1', contextId: 'c', status: { state: 'DONE' } }, good('t-2'), { contextId: 'c', status: {} }],
  nextPageToken: '',
  pageSize: 50,
  totalSize: 4,
};

/** A transport answering every request with `page`; records the requests. */
function answering(page: unknown): { transport: ClientTransport; sent: string[] } {
  const sent: string[] = [];
  return { sent, transport: { request: async (method) => (sent.push(method), structuredClone(page)) } };
}

describe('A2aClient.listTasks', () => {
  it('strict (the default): the call fails naming the first bad task, its id and where it goes wrong', async () => {
    const { transport, sent } = answering(PAGE);
    const failure = await new A2aClient(transport).listTasks({}).catch((e: unknown) => e);
    expect(sent).toEqual(['ListTasks']);
    expect(failure).toBeInstanceOf(InvalidTaskError);
    expect(failure).toBeInstanceOf(InvalidResultError);
    expect((failure as InvalidTaskError).index).toBe(1);
    expect((failure as InvalidTaskError).taskId).toBe('t-1');
    expect((failure as Error).message).toMatch(
      /^ListTasks: task 1 \(id "t-1"\) does not match the A2A 1\.0 Task schema at \/tasks\/1\/status\/state: /,
    );
  });

  it('lenient: the good tasks come back in order, each bad one is reported with its index, id and errors', async () => {
    const bad: InvalidTask[] = [];
    const page = await new A2aClient(answering(PAGE).transport).listTasks({}, { invalidTasks: 'lenient', onInvalidTask: (t) => bad.push(t) });
    expect(page.tasks?.map((t) => t.id)).toEqual(['t-0', 't-2']);
    expect(page).toMatchObject({ nextPageToken: '', pageSize: 50, totalSize: 4 });
    expect(bad.map((b) => [b.index, b.id])).toEqual([
      [1, 't-1'],
      [3, undefined],
    ]);
    expect(bad[0]?.errors[0]?.instancePath).toBe('/status/state');
    expect(bad[1]?.task).toEqual(PAGE.tasks[3]);
  });

  it('a page of good tasks is returned as it came, either way', async () => {
    const page = { tasks: [good('a'), good('b')], nextPageToken: 'n', pageSize: 2, totalSize: 9 };
    expect(await new A2aClient(answering(page).transport).listTasks()).toEqual(page);
    const bad: InvalidTask[] = [];
    expect(await new A2aClient(answering(page).transport).listTasks({}, { invalidTasks: 'lenient', onInvalidTask: (t) => bad.push(t) })).toEqual(
      page,
    );
    expect(bad).toEqual([]);
  });

  it('a page whose own fields are wrong fails in both modes', async () => {
    const page = { tasks: [good('a')], nextPageToken: 7, pageSize: 1 };
    await expect(new A2aClient(answering(page).transport).listTasks()).rejects.toThrow(/ListTasks: the result does not match the A2A 1\.0 schema/);
    await expect(
      new A2aClient(answering(page).transport).listTasks({}, { invalidTasks: 'lenient', onInvalidTask: () => undefined }),
    ).rejects.toBeInstanceOf(InvalidResultError);
  });
});
