/**
 * @module kit/scenarios/tasks — scenarios 12–14: listing the runner's tasks (pages and a status filter),
 * a task's history with and without historyLength, and a stream dropped after four frames and picked up
 * again with SubscribeToTask.
 */
import type { StreamResponse } from '../../generated/a2a-1.0/index.ts';
import { CaptureError, expectFinalState, type Scenario } from '../session.ts';

export const listTasks: Scenario = {
  base: '12-list-tasks',
  summary: 'ListTasks pages and a status filter',
  async run(s) {
    const runner = s.client('test-runner');
    s.rec.step('ListTasks, two per page', 'Most recently updated first. Artifacts are left out unless includeArtifacts is set.');
    const first = await runner.listTasks({ pageSize: 2 });
    if (!first.nextPageToken) throw new CaptureError('expected a second page');
    s.rec.step('ListTasks: the next page');
    await runner.listTasks({ pageSize: 2, pageToken: first.nextPageToken });
    s.rec.step('ListTasks: only the completed tasks');
    await runner.listTasks({ status: 'TASK_STATE_COMPLETED' });
  },
};

export const history: Scenario = {
  base: '13-history',
  summary: 'GetTask with and without historyLength',
  async run(s) {
    const reviewer = s.client('code-reviewer');
    const id = s.state.get('review-task');
    if (!id) throw new CaptureError('scenario 13 needs the review task of scenario 06');
    s.rec.step('GetTask without historyLength: the whole history', 'The question, the answer and every earlier status message, in order.');
    await reviewer.getTask({ id });
    s.rec.step('GetTask with historyLength 2: the last two messages');
    await reviewer.getTask({ id, historyLength: 2 });
  },
};

export const resubscribe: Scenario = {
  base: '14-resubscribe',
  summary: 'a stream dropped after four frames and picked up with SubscribeToTask',
  async run(s) {
    const runner = s.client('test-runner');
    const hold = s.net.pacer.hold('chunk-2');
    s.rec.step(
      'SendStreamingMessage: the client reads four frames, then closes the stream',
      'The kit holds the run after the second log chunk, so exactly four frames are out.',
    );
    const seen: StreamResponse[] = [];
    for await (const frame of runner.sendStreamingMessage({ message: s.message('run the unit suite at 9b1d7a3') })) {
      seen.push(frame);
      if (seen.length === 4) break;
    }
    const taskId = await hold.reached;
    if (seen[0]?.task?.id !== taskId) throw new CaptureError('the dropped stream is not the held run');
    s.rec.step(
      'SubscribeToTask: the same task, from where it is',
      'The first frame is the task as stored, with the two chunks so far. The run goes on once the subscription is open, and the stream ends at TASK_STATE_COMPLETED.',
    );
    const it = runner.subscribeToTask({ id: taskId })[Symbol.asyncIterator]();
    const frames: StreamResponse[] = [];
    const first = await it.next();
    if (first.done || !first.value.task) throw new CaptureError('SubscribeToTask did not start with the task');
    frames.push(first.value);
    hold.release();
    for (let r = await it.next(); !r.done; r = await it.next()) frames.push(r.value);
    expectFinalState(frames, 'TASK_STATE_COMPLETED');
  },
};
