/**
 * @module samples/test-runner — the executor of the A2A 101 kit's test runner (card:
 * schemas/samples/a2a/test-runner.yaml). "run the <suite> suite at <commit>" checks the commit out, then
 * streams the suite's log as one artifact, chunk by chunk, every chunk with `append` (the first one starts
 * the artifact: the kit's choice for an unknown artifactId), and completes; an unknown commit fails the
 * task; anything else gets a direct reply. `pace` lets the kit hold a run at a named point (kit/pacer.ts).
 */
import { defineAgent } from '../generated/samples/test-runner/index.ts';
import type { AgentDefinition } from '../runtime/a2a/agent.ts';
import type { TaskHandle } from '../runtime/a2a/types.ts';

/** Called at `accepted`, `working`, `chunk-<n>` and `completed`; resolves when the run may go on. */
/** Waits at a named point of a run (the kit's holds, kit/pacer.ts); the default waits for nothing. */
export type Pace = (point: string, taskId: string, signal: AbortSignal) => Promise<void>;

export interface TestRunnerOptions {
  /** Default: never waits. */
  readonly pace?: Pace;
}

/** The commits the runner's repository has; any other does not exist. */
export const COMMITS: readonly string[] = ['4f2c9e1', '9b1d7a3'];

/** Each suite's log, as the chunks it is streamed in. */
export const SUITE_LOGS: Readonly<Record<string, readonly string[]>> = {
  unit: ['$ npm test -- --suite unit\n', 'PASS test/parser.test.ts (6 tests)\n', 'PASS test/api.test.ts (6 tests)\n', 'Tests: 12 passed, 12 total\n'],
  integration: ['$ npm test -- --suite integration\n', 'PASS test/deploy.int.test.ts (3 tests)\n', 'Tests: 3 passed, 3 total\n'],
};

const REQUEST = /^run the (\S+) suite at ([0-9a-f]{7,40})$/;

const HELP = 'I run test suites at a commit and stream the log. Say "run the unit suite at <commit>"; suites: integration, unit.';

export function createTestRunner(options: TestRunnerOptions = {}): AgentDefinition {
  const pace: Pace = options.pace ?? (async () => {});
  return defineAgent({
    async execute(ctx) {
      if (ctx.task) return ctx.reply('This task takes no further input.');
      const request = REQUEST.exec(ctx.text.trim());
      if (!request) return ctx.reply(HELP);
      const [, suite, commit] = request as unknown as [string, string, string];
      const task = await ctx.startTask();
      const stopped = async (point: string) => {
        await pace(point, task.taskId, ctx.signal);
        return ctx.signal.aborted;
      };
      if (await stopped('accepted')) return;
      const log = SUITE_LOGS[suite];
      if (!log) return task.reject(task.agentMessage(`There is no ${suite} suite. ${HELP}`));
      await task.working(task.agentMessage(`Checking out ${commit} and running the ${suite} suite.`));
      if (await stopped('working')) return;
      if (!COMMITS.includes(commit)) return task.fail(task.agentMessage(`Commit ${commit} does not exist in the repository.`));
      if (await streamLog(task, log, stopped)) return;
      await task.complete(task.agentMessage(log[log.length - 1]!.trim()));
      await pace('completed', task.taskId, ctx.signal);
    },
  });
}

/** The log as one artifact; true when the run was cancelled on the way. */
async function streamLog(task: TaskHandle, log: readonly string[], stopped: (point: string) => Promise<boolean>): Promise<boolean> {
  let artifactId: string | undefined;
  for (const [i, line] of log.entries()) {
    artifactId = await task.artifact({
      ...(artifactId ? { artifactId } : {}),
      name: 'test-log',
      parts: [{ text: line }],
      append: true,
      ...(i === log.length - 1 ? { lastChunk: true } : {}),
    });
    if (await stopped(`chunk-${i + 1}`)) return true;
  }
  return false;
}

export default createTestRunner();
