/**
 * @module worker — an A2A agent as a Cloudflare Worker (wrangler.toml): `a2aWorker` makes the server on each
 * isolate's first request and hands the work left after each response (a non-blocking SendMessage's task) to
 * `ctx.waitUntil`; the tasks live in one Durable Object (task-store.ts), so whichever isolate a GetTask
 * reaches reads the task another one ran.
 */
import { A2aServer, a2aWorker } from '@wiregen/runtime/a2a';
import { DurableTaskStore, type TaskStoreObject } from './task-store.js';

export { TaskStoreObject } from './task-store.js';

export interface Env {
  /** The Durable Object namespace of wrangler.toml's `[[durable_objects.bindings]]`. */
  readonly TASKS: DurableObjectNamespace<TaskStoreObject>;
  /** The URL the agent is reached at (a var), for its card. */
  readonly PUBLIC_URL?: string;
  readonly [binding: string]: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default a2aWorker((env: Env) => {
  const url = env.PUBLIC_URL ?? 'https://forecaster.example';
  return new A2aServer({
    card: {
      name: 'Forecaster',
      description: 'Forecasts the weather of a city, as a task.',
      supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'forecast', name: 'Forecast', description: 'A city in, its forecast out.', tags: ['weather'] }],
    },
    executor: {
      async execute(ctx) {
        const city =
          ctx.message.parts
            .map((p) => ('text' in p ? p.text : ''))
            .join('')
            .trim() || 'somewhere';
        const task = await ctx.startTask();
        await task.working();
        await sleep(200); // the forecast takes a while: it runs after a non-blocking SendMessage was answered
        await task.artifact({ name: 'forecast', parts: [{ text: `${city}: sunny today, rain tomorrow.` }] });
        await task.complete();
      },
    },
    store: new DurableTaskStore(env.TASKS),
  });
});
