/**
 * @module samples/research-agent — the executor of the recorded research agent (the official A2A Python
 * SDK's example). Its card is schemas/samples/a2a/research-agent.yaml. It answers "hello…" with a message,
 * rejects "delete…", needs input for "summarise the meeting", needs sign-in for "check my calendar", and
 * otherwise summarises, streaming the summary as one artifact in two chunks.
 */
import { defineAgent } from '../generated/samples/research-agent/index.ts';
import type { TaskHandle } from '../runtime/a2a/types.ts';

/** The summary as one artifact in two chunks, then completed. */
async function finish(task: TaskHandle, head: string, body: string): Promise<void> {
  const artifactId = await task.artifact({ name: 'summary', parts: [{ text: head }] });
  await task.artifact({ artifactId, name: 'summary', parts: [{ text: body }], append: true, lastChunk: true });
  await task.complete();
}

export default defineAgent({
  async execute(ctx) {
    const text = ctx.text;
    if (!ctx.task) {
      if (text.startsWith('hello')) return ctx.reply('Hello. Ask me to summarise something.');
      const task = await ctx.startTask();
      if (text.startsWith('delete')) return task.reject(task.agentMessage('I only summarise; I do not delete files.'));
      await task.working();
      if (text === 'summarise the meeting') return task.inputRequired(task.agentMessage("Which meeting: Monday's or Tuesday's?"));
      if (text === 'check my calendar')
        return task.authRequired(task.agentMessage('Sign in to the calendar first: https://calendar.example.com/authorize'));
      const subject = text.startsWith('summarise ') ? text.slice('summarise '.length) : text;
      return finish(task, `Summary of ${subject}: `, 'three decisions, two actions, no blockers.');
    }
    const task = ctx.currentTask();
    const was = ctx.task.status.state;
    await task.working();
    if (was === 'TASK_STATE_AUTH_REQUIRED') return finish(task, 'Today: ', 'design review at 10:00, one-to-one at 15:00.');
    return finish(task, `Summary of ${text}'s meeting: `, 'three decisions, two actions, no blockers.');
  },
});
