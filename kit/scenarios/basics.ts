/**
 * @module kit/scenarios/basics — scenarios 01–05: the three cards, a question answered with a message, a
 * SendMessage that waits for completion, polling a task the runner holds at known points, and every frame
 * of a streamed run.
 */
import { AGENT_NAMES } from '../network.ts';
import { collect, expectFinalState, expectMessage, expectStatus, expectTask, type Scenario } from '../session.ts';

export const agentCards: Scenario = {
  base: '01-agent-cards',
  summary: 'the three cards from /.well-known/agent-card.json',
  async run(s) {
    for (const agent of AGENT_NAMES) {
      const notes =
        agent === 'deployer'
          ? ['Public: no token needed. It names its bearer scheme, and `signatures` holds its JWS (17-signed-card.txt).']
          : ["No Cache-Control or ETag header (the kit's choice)."];
      s.rec.step(`the ${agent} card`, ...notes);
      expectStatus(await s.raw(agent, '/.well-known/agent-card.json', { headers: { accept: 'application/json' } }), 200);
    }
  },
};

export const messageReply: Scenario = {
  base: '02-message-reply',
  summary: 'a question answered with a message and no task',
  async run(s) {
    s.rec.step('SendMessage: a question to the code reviewer', 'The reviewer answers with a Message: no task is created.');
    expectMessage(await s.client('code-reviewer').sendMessage({ message: s.message('What do you review?') }));
  },
};

export const blockingTask: Scenario = {
  base: '03-blocking-task',
  summary: 'a SendMessage that waits until the task completes',
  async run(s) {
    s.rec.step(
      'SendMessage: run the integration suite',
      'No returnImmediately: the answer is the task once it has completed, with its log and history.',
    );
    expectTask(await s.client('test-runner').sendMessage({ message: s.message('run the integration suite at 9b1d7a3') }), 'TASK_STATE_COMPLETED');
  },
};

export const polling: Scenario = {
  base: '04-polling',
  summary: '`returnImmediately`, then GetTask while working and after completion',
  async run(s) {
    const runner = s.client('test-runner');
    const accepted = s.net.pacer.hold('accepted');
    const working = s.net.pacer.hold('working');
    const completed = s.net.pacer.hold('completed');
    s.rec.step('SendMessage with returnImmediately', "The answer is the task as just created: TASK_STATE_SUBMITTED, stamped (the kit's choice).");
    const task = expectTask(
      await runner.sendMessage({ message: s.message('run the unit suite at 4f2c9e1'), configuration: { returnImmediately: true } }),
      'TASK_STATE_SUBMITTED',
    );
    accepted.release();
    await working.reached;
    s.rec.step('GetTask while the task is working', 'The kit holds the run after TASK_STATE_WORKING, before the first log chunk.');
    expectTask(await runner.getTask({ id: task.id }), 'TASK_STATE_WORKING');
    working.release();
    await completed.reached;
    s.rec.step('GetTask after completion');
    expectTask(await runner.getTask({ id: task.id }), 'TASK_STATE_COMPLETED');
    completed.release();
  },
};

export const streaming: Scenario = {
  base: '05-streaming',
  summary: 'every frame of SendStreamingMessage, with the log in chunks',
  async run(s) {
    s.rec.step(
      'SendStreamingMessage: run the unit suite',
      "The log is one artifact sent in four chunks, each with `append`. The first chunk names an artifact that does not exist yet, so it starts one (the kit's choice).",
    );
    expectFinalState(
      await collect(s.client('test-runner').sendStreamingMessage({ message: s.message('run the unit suite at 4f2c9e1') })),
      'TASK_STATE_COMPLETED',
    );
  },
};
