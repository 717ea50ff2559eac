/**
 * @module kit/scenarios/push-rest — scenario 15, a webhook registered in SendMessage, the notifications it
 * receives (recorded by the kit's receiver, in order) and the config operations; scenario 16, the same
 * operations over HTTP+JSON, including its error shape and the version as a query parameter.
 */
import { WRITTEN } from '../network.ts';
import { CaptureError, collect, expectError, expectFinalState, expectStatus, expectTask, type Scenario } from '../session.ts';

/** The webhook the client registers. */
export const WEBHOOK = `${WRITTEN.webhooks}/webhooks/test-runner`;
export const PUSH_TOKEN = 'kit-push-token-1';

export const push: Scenario = {
  base: '15-push',
  summary: 'a webhook registered in SendMessage, the notifications it receives, and the config operations',
  async run(s) {
    const runner = s.client('test-runner');
    s.rec.step(
      'SendMessage with a webhook in its configuration',
      "The config has no id: the runner gives it a new one, not the task id (the kit's choice). The receptions follow this exchange.",
    );
    const answer = await runner.sendMessage({
      message: s.message('run the integration suite at 4f2c9e1'),
      configuration: { taskPushNotificationConfig: { url: WEBHOOK, token: PUSH_TOKEN } },
    });
    const task = expectTask(answer, 'TASK_STATE_COMPLETED');
    const received = await s.recordPushes();
    // WORKING, three log chunks, COMPLETED; never the first Task snapshot (the kit's choice).
    if (received !== 5) throw new CaptureError(`expected 5 webhook receptions, got ${received}`);
    s.rec.step('ListTaskPushNotificationConfigs');
    await runner.listTaskPushNotificationConfigs({ taskId: task.id });
    s.rec.step('CreateTaskPushNotificationConfig: a second webhook, with credentials', 'No id given: a new one.');
    const created = await runner.createTaskPushNotificationConfig({
      taskId: task.id,
      url: `${WRITTEN.webhooks}/webhooks/audit`,
      token: 'kit-push-token-2',
      authentication: { scheme: 'Bearer', credentials: 'kit-demo-webhook-credentials' },
    });
    s.rec.step('GetTaskPushNotificationConfig');
    await runner.getTaskPushNotificationConfig({ taskId: task.id, id: created.id! });
    s.rec.step('DeleteTaskPushNotificationConfig', "The result is `{}`, the JSON of an empty message (the kit's choice).");
    await runner.deleteTaskPushNotificationConfig({ taskId: task.id, id: created.id! });
    s.rec.step('ListTaskPushNotificationConfigs after the delete');
    await runner.listTaskPushNotificationConfigs({ taskId: task.id });
  },
};

export const restBinding: Scenario = {
  base: '16-rest-binding',
  summary: 'the same operations over HTTP+JSON, including its error shape',
  async run(s) {
    const rest = s.client('test-runner', 'rest');
    s.rec.step('SendMessage: POST /message:send', "HTTP+JSON answers are application/a2a+json (the kit's choice).");
    const task = expectTask(await rest.sendMessage({ message: s.message('run the integration suite at 9b1d7a3') }), 'TASK_STATE_COMPLETED');
    s.rec.step('GetTask: GET /tasks/{id}, historyLength as a query parameter');
    await rest.getTask({ id: task.id, historyLength: 1 });
    s.rec.step('ListTasks: GET /tasks with a filter');
    await rest.listTasks({ pageSize: 2, status: 'TASK_STATE_COMPLETED' });
    s.rec.step('SendStreamingMessage: POST /message:stream', 'Each SSE frame is a bare StreamResponse: no JSON-RPC envelope.');
    expectFinalState(await collect(rest.sendStreamingMessage({ message: s.message('run the unit suite at 4f2c9e1') })), 'TASK_STATE_COMPLETED');

    const accepted = s.net.pacer.hold('accepted');
    const working = s.net.pacer.hold('working');
    s.rec.step('SendMessage with returnImmediately: a run to cancel');
    const running = expectTask(
      await rest.sendMessage({ message: s.message('run the unit suite at 9b1d7a3'), configuration: { returnImmediately: true } }),
      'TASK_STATE_SUBMITTED',
    );
    accepted.release();
    await working.reached;
    s.rec.step('CancelTask: POST /tasks/{id}:cancel');
    expectTask(await rest.cancelTask({ id: running.id }), 'TASK_STATE_CANCELED');

    s.rec.step('CreateTaskPushNotificationConfig: POST /tasks/{id}/pushNotificationConfigs');
    const config = await rest.createTaskPushNotificationConfig({ taskId: task.id, url: WEBHOOK, token: 'kit-push-token-3' });
    s.rec.step('DeleteTaskPushNotificationConfig: DELETE /tasks/{id}/pushNotificationConfigs/{configId}');
    await rest.deleteTaskPushNotificationConfig({ taskId: task.id, id: config.id! });

    s.rec.step(
      'the error shape: GET /tasks/{id} for a task that does not exist',
      "google.rpc.Status with an ErrorInfo; the HTTP status is the error's (§11.6).",
    );
    await expectError(rest.getTask({ id: 'no-such-task' }), 404);
    s.rec.step(
      'the version as a query parameter instead of the header',
      "GET /tasks/{id}?A2A-Version=1.0 with no A2A-Version header: accepted (§3.6.1, the kit's choice).",
    );
    expectStatus(
      await s.raw('test-runner', `/rest/tasks/${task.id}?historyLength=0&A2A-Version=1.0`, { headers: { accept: 'application/a2a+json' } }),
      200,
    );
  },
};
