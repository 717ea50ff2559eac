// test/bundle/miniflare-worker — the Miniflare that serves a Worker bundle on workerd, shared by
// test/bundle/on-workerd.mjs and test/runtimes/serve-workerd.mjs (run on Node ≥ 22, as miniflare needs).
// A date workerd supports (its version is 2026-07-30); no flags: Workers' defaults, Node's APIs absent.
// The bundle is given as one module with its contents, as wrangler gives it: `modules: true` would make
// miniflare walk the imports itself and refuse any `import()` whose specifier is not a literal (the runtime has
// one, for a schema library's converter loaded by name, which workerd resolves only if it is ever called);
// https://github.com/cloudflare/workers-sdk/issues/9068 (a constraint of miniflare's walk, not of workerd).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Miniflare } from 'miniflare';

/**
 * A Miniflare serving the bundle at `path`; `options` adds Miniflare options (`host`, `port`, `bindings`…).
 * @param {string} path
 * @param {Record<string, unknown>} [options]
 */
export function miniflareWorker(path, options = {}) {
  const bundle = resolve(path);
  return new Miniflare({
    modulesRoot: dirname(bundle),
    modules: [{ type: 'ESModule', path: bundle, contents: readFileSync(bundle, 'utf8') }],
    compatibilityDate: '2026-07-01',
    ...options,
  });
}
