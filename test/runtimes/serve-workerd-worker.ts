/**
 * @module test/runtimes/serve-workerd-worker — the Worker that serve-workerd.mjs runs on workerd: a Worker gets
 * its configuration from `env`, not `process.env`, so the Serving (served.ts) is built on the first request from
 * the `WIREGEN_SERVE` binding (a JSON binding: the ServeConfig itself), and nothing runs at import, where
 * Workers refuse timers and random values (https://developers.cloudflare.com/workers/runtime-apis/handlers/fetch/).
 * Two test-only routes let one workerd serve a test file's servers in turn (launch.ts): `POST /_control/serve`
 * closes what it serves and serves the ServeConfig of the body instead, `POST /_control/close` closes it.
 * Bundled by launch.ts as wrangler bundles a Worker.
 */
import type { PlatformContext } from '../../runtime/platform/env.ts';
import { served, type ServeConfig, type Serving } from './served.ts';

let serving: Promise<Serving> | undefined;

export default {
  async fetch(request: Request, env: { readonly WIREGEN_SERVE: ServeConfig }, ctx: PlatformContext): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && (path === '/_control/serve' || path === '/_control/close')) {
      (await serving?.catch(() => undefined))?.close();
      serving = path === '/_control/serve' ? served((await request.json()) as ServeConfig) : undefined;
      // As on a first request: a Serving that cannot be built fails the requests it would serve.
      serving?.catch(() => {});
      return new Response(null, { status: 204 });
    }
    serving ??= served(env.WIREGEN_SERVE);
    return (await serving).fetch(request, env, ctx);
  },
};
