/**
 * @module platform/a2a-worker — an A2A agent as a fetch-only platform's entry (Cloudflare Workers'
 * `export default { fetch(request, env, ctx) }`): the server is made on the first request of each isolate,
 * from that request's `env` (never at module scope), and every response hands the work the agent still does
 * (non-blocking SendMessage, streamed tasks, push deliveries) to the request's `ctx.waitUntil`, which keeps
 * the isolate running it after the response. Tasks live in the server's store: the default one is this
 * isolate's memory; a Worker served by several isolates needs a shared store (docs/deployment.md, "A2A on Workers").
 */
import { A2aHttpHandler } from '../a2a/http.ts';
import type { A2aFetchOptions } from '../a2a/http-adapters.ts';
import type { A2aServer } from '../a2a/server.ts';
import type { PlatformContext, PlatformEnv } from './env.ts';

export interface A2aWorkerOptions<E extends PlatformEnv> {
  /** The HTTP options, from the environment (as a2aFetchHandler's; `waitUntil` is the request's own). */
  readonly http?: (env: E) => Omit<A2aFetchOptions, 'waitUntil'>;
}

/** A fetch-only platform's entry: Workers' default export. */
export interface A2aWorker<E extends PlatformEnv> {
  fetch(request: Request, env: E, ctx?: PlatformContext): Promise<Response>;
}

/**
 * `export default a2aWorker((env) => new A2aServer({ ...agent, store: … }))`: `make` runs once per isolate,
 * on its first request (given too, e.g. for the card to name the origin it arrived at). With `ctx` (Workers always give it), the agent's remaining work after each response is
 * passed to `ctx.waitUntil`; without (Deno, Bun: long-lived processes), nothing needs to be.
 */
export function a2aWorker<E extends PlatformEnv = PlatformEnv>(
  make: (env: E, request: Request) => A2aServer,
  options: A2aWorkerOptions<E> = {},
): A2aWorker<E> {
  let served: { server: A2aServer; handler: A2aHttpHandler } | undefined;
  const build = (env: E, request: Request) => {
    const server = make(env, request);
    const http = options.http?.(env) ?? {};
    if ('routes' in http && http.routes !== undefined)
      throw new TypeError('a2aWorker: http.routes takes node req/res; serve extra routes in front of the Worker');
    if (server.options.http?.routes !== undefined)
      throw new TypeError("a2aWorker: the agent's http.routes take node req/res; serve them in front of the Worker");
    return { server, handler: new A2aHttpHandler(server, http) };
  };
  return {
    async fetch(request: Request, env: E, ctx?: PlatformContext): Promise<Response> {
      served ??= build(env, request);
      const response = await served.handler.fetch(request);
      // The executions this request started are tracked by now: the task was stored before the answer.
      ctx?.waitUntil(served.server.settled());
      return response;
    },
  };
}
