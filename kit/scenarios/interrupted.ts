/**
 * @module kit/scenarios/interrupted — scenarios 06–10: a task that needs input, a deploy that waits for an
 * operator while its stream stays open, a refused deploy, a failed run, and cancelling.
 */
import type { StreamResponse } from '../../generated/a2a-1.0/index.ts';
import type { Task } from '../../runtime/a2a/types.ts';
import { CaptureError, collect, expectError, expectFinalState, expectStatus, expectTask, type Scenario } from '../session.ts';

/** The change the reviewer is asked about: a retry loop with no bound. */
export const UNBOUNDED_DIFF = [
  'diff --git a/src/retry.ts b/src/retry.ts',
  '--- a/src/retry.ts',
  '+++ b/src/retry.ts',
  '@@ -1,3 +1,5 @@',
  ' export async function retry(call: () => Promise<void>) {',
  '-  await call();',
  '+  while (true) {',
  '+    try { return await call(); } catch { /* again */ }',
  '+  }',
  ' }',
  '',
].join('\n');

export const inputRequired: Scenario = {
  base: '06-input-required',
  summary: 'the reviewer asks for a base branch and the client answers on the same task',
  async run(s) {
    const reviewer = s.client('code-reviewer');
    s.rec.step('SendStreamingMessage: a diff, with no base branch named', "The stream closes at TASK_STATE_INPUT_REQUIRED (the kit's choice).");
    const parts = [{ text: 'Please review this change.' }, { text: UNBOUNDED_DIFF, mediaType: 'text/x-diff', filename: 'retry.diff' }];
    const first = await collect(reviewer.sendStreamingMessage({ message: s.message('', { parts }) }));
    expectFinalState(first, 'TASK_STATE_INPUT_REQUIRED');
    const task = first[0]!.task!;
    s.state.set('review-task', task.id);
    s.rec.step(
      'SendStreamingMessage: the answer, on the same task',
      "The first frame is the task with the question moved into its history. The server then sets TASK_STATE_WORKING itself, with no message, before the reviewer resumes (the kit's choice).",
    );
    const second = await collect(reviewer.sendStreamingMessage({ message: s.message('main', { taskId: task.id, contextId: task.contextId }) }));
    expectFinalState(second, 'TASK_STATE_COMPLETED');
  },
};

export const authRequired: Scenario = {
  base: '07-auth-required',
  summary: 'a deploy waits for an operator while its stream stays open',
  async run(s) {
    s.rec.step(
      'SendStreamingMessage: deploy build 42 to staging, with the bearer token',
      "The stream stays open through TASK_STATE_AUTH_REQUIRED (the kit's choice, §7.6.1). It goes on once the operator approves in exchange 2.",
    );
    const it = s
      .client('deployer')
      .sendStreamingMessage({ message: s.message('deploy build 42 to staging') })
      [Symbol.asyncIterator]();
    const frames: StreamResponse[] = [];
    const next = async () => {
      const r = await it.next();
      if (!r.done) frames.push(r.value);
      return r.done ? undefined : r.value;
    };
    for (let f = await next(); f?.statusUpdate?.status.state !== 'TASK_STATE_AUTH_REQUIRED'; f = await next())
      if (!f) throw new CaptureError('the deploy stream ended before TASK_STATE_AUTH_REQUIRED');
    const taskId = frames[0]!.task!.id;
    s.rec.step(
      'the operator approves the deploy, outside A2A',
      "POST /approve/<task id> is not an A2A method: it needs no token and no A2A-Version. Exchange 1's stream is still open.",
    );
    expectStatus(await s.raw('deployer', `/approve/${taskId}`, { method: 'POST' }), 200);
    while (await next());
    expectFinalState(frames, 'TASK_STATE_COMPLETED');
  },
};

export const rejected: Scenario = {
  base: '08-rejected',
  summary: 'a production deploy the agent refuses',
  async run(s) {
    s.rec.step('SendMessage: deploy build 42 to production', 'The deployer refuses: TASK_STATE_REJECTED, with its reason as the status message.');
    expectTask(await s.client('deployer').sendMessage({ message: s.message('deploy build 42 to production') }), 'TASK_STATE_REJECTED');
  },
};

export const failed: Scenario = {
  base: '09-failed',
  summary: 'a commit that does not exist',
  async run(s) {
    s.rec.step('SendMessage: run the unit suite at a commit that does not exist', 'The runner cannot check the commit out: TASK_STATE_FAILED.');
    expectTask(await s.client('test-runner').sendMessage({ message: s.message('run the unit suite at 0000000') }), 'TASK_STATE_FAILED');
  },
};

export const cancel: Scenario = {
  base: '10-cancel',
  summary: 'cancel a running task, cancel it again, and message it after it ended',
  async run(s) {
    const runner = s.client('test-runner');
    const accepted = s.net.pacer.hold('accepted');
    const working = s.net.pacer.hold('working');
    s.rec.step('SendMessage with returnImmediately: a run to cancel');
    const task: Task = expectTask(
      await runner.sendMessage({ message: s.message('run the unit suite at 9b1d7a3'), configuration: { returnImmediately: true } }),
      'TASK_STATE_SUBMITTED',
    );
    accepted.release();
    await working.reached;
    s.rec.step('CancelTask while the run is working', 'The kit holds the run in TASK_STATE_WORKING; cancelling stops it.');
    expectTask(await runner.cancelTask({ id: task.id }), 'TASK_STATE_CANCELED');
    s.rec.step('CancelTask again', "A canceled task cannot be canceled: -32002, with the task id in the error metadata (the kit's choice).");
    await expectError(runner.cancelTask({ id: task.id }), -32002);
    s.rec.step('SendMessage to the canceled task', 'A task in a terminal state takes no more messages: -32004.');
    await expectError(runner.sendMessage({ message: s.message('run it again', { taskId: task.id, contextId: task.contextId }) }), -32004);
  },
};
