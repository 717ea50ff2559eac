/**
 * @module samples/code-reviewer — the executor of the A2A 101 kit's code reviewer (card:
 * schemas/samples/a2a/code-reviewer.yaml). A question gets a direct reply (no task). A diff (a `text/x-diff`
 * part) is reviewed against the branch the text names ("… against main"); with no branch named, the task
 * asks for one (TASK_STATE_INPUT_REQUIRED) and the client's answer on the same task is the branch. The
 * runtime sets TASK_STATE_WORKING itself when the answer arrives (KIT_BEHAVIOUR.resumeSetsWorking).
 */
import { defineAgent } from '../generated/samples/code-reviewer/index.ts';
import type { Message, Part, TaskHandle } from '../runtime/a2a/types.ts';

const HELP = 'I review unified diffs (text/x-diff) against a base branch and answer in Markdown. Send the diff and say which branch it targets.';

function diffOf(parts: readonly Part[]): string | undefined {
  return parts.find((p) => p.mediaType === 'text/x-diff' && typeof p.text === 'string')?.text;
}

/** The findings: per file, the lines added and removed, and one rule (an unbounded loop). */
export function review(diff: string, base: string): string {
  const files: { name: string; added: string[]; removed: number }[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ b/')) files.push({ name: line.slice(6), added: [], removed: 0 });
    else if (line.startsWith('+') && !line.startsWith('+++')) files.at(-1)?.added.push(line.slice(1));
    else if (line.startsWith('-') && !line.startsWith('---') && files.length) files.at(-1)!.removed++;
  }
  const lines = [`## Review against ${base}`, ''];
  for (const f of files) {
    const unbounded = f.added.some((l) => /while\s*\(\s*true\s*\)/.test(l));
    lines.push(`- \`${f.name}\` (+${f.added.length} -${f.removed}): ${unbounded ? 'the new loop never gives up; cap the attempts.' : 'looks fine.'}`);
  }
  return `${lines.join('\n')}\n`;
}

async function finish(task: TaskHandle, diff: string, base: string): Promise<void> {
  const markdown = review(diff, base);
  await task.artifact({ name: 'review', parts: [{ text: markdown, mediaType: 'text/markdown' }] });
  const findings = markdown.split('\n').filter((l) => l.includes('cap the attempts')).length;
  await task.complete(
    task.agentMessage(findings ? `${findings} finding to fix before merging into ${base}.` : `Nothing to fix; ready to merge into ${base}.`),
  );
}

export default defineAgent({
  async execute(ctx) {
    if (ctx.task) {
      // The answer to "which base branch?": the diff is in the task's first message.
      const first = ctx.task.history?.find((m: Message) => m.role === 'ROLE_USER');
      const diff = first ? diffOf(first.parts) : undefined;
      if (!diff) return ctx.currentTask().fail(ctx.currentTask().agentMessage('The task has no diff to review.'));
      return finish(ctx.currentTask(), diff, ctx.text.trim());
    }
    const diff = diffOf(ctx.message.parts);
    if (!diff) return ctx.reply(HELP);
    const task = await ctx.startTask();
    await task.working();
    const base = /\bagainst (\S+?)\.?$/m.exec(ctx.text)?.[1];
    if (!base) return task.inputRequired(task.agentMessage('Which base branch should I review this diff against?'));
    return finish(task, diff, base);
  },
});
