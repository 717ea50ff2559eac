/**
 * @module test/runtimes/serve-workerd-worker — the Worker that serve-workerd.mjs runs on workerd: a Worker gets
 * its configuration from `env`, not `process.env`, so the Serving (served.ts) is built on the first request from
 * the `WIREGEN_SERVE` binding (a JSON binding: the ServeConfig itself), and nothing runs at import, where
 * Workers refuse timers and random values (https://developers.cloudflare.com/workers/runtime-apis/handlers/fetch/).
 * Bundled by launch.ts as wrangler bundles a Worker (bench/lib/worker-bundle.ts).
 */
import { served, type ServeConfig, type Serving } from './served.ts';

let serving: Promise<Serving> | undefined;

export default {
  async fetch(request: Request, env: { readonly WIREGEN_SERVE: ServeConfig }): Promise<Response> {
    serving ??= served(env.WIREGEN_SERVE);
    return (await serving).fetch(request);
  },
};
