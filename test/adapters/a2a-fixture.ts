/**
 * @module test/adapters/a2a-fixture — the A2A agent the transport suite serves: "hello" gets a direct reply,
 * "slow" works until its gate opens, anything else completes with an artifact. Kept apart from the suite so a
 * server in another process (test/runtimes) can serve the same agent.
 */
import type { AgentExecutor } from '../../runtime/a2a/types.ts';

/** "hello" gets a direct reply; "slow" works until `g` opens; anything else completes with an artifact. */
export function scripted(g: { readonly promise: Promise<void> }): AgentExecutor {
  return {
    async execute(ctx) {
      if (ctx.text === 'hello') return ctx.reply('hi');
      const task = await ctx.startTask();
      await task.working();
      if (ctx.text === 'slow') await g.promise;
      await task.artifact({ name: 'out', parts: [{ text: 'result' }] });
      await task.complete();
    },
  };
}
