/**
 * @module test/adapters/a2a-fixture — the A2A agent the transport suite serves: "hello" gets a direct reply,
 * "slow" works until its gate opens, anything else completes with an artifact. Kept apart from the suite so a
 * server in another process (test/runtimes) can serve the same agent.
 */
import type { A2aServer } from '../../runtime/a2a/server.ts';
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

/**
 * Watches the answer streams the HTTP layer iterates on `server`: each one it stops early (its client left) is
 * recorded by method in the array returned.
 */
export function watchEndedStreams(server: A2aServer): string[] {
  const ended: string[] = [];
  const call = server.call.bind(server);
  Object.assign(server, {
    call: async (method: string, params: Record<string, unknown>) => {
      const result = await call(method, params);
      if (result === null || typeof result !== 'object' || !(Symbol.asyncIterator in result)) return result;
      const it = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => it.next(),
          return: (v?: unknown) => (ended.push(method), it.return?.(v) ?? { done: true, value: v }),
        }),
      };
    },
  });
  return ended;
}
