/**
 * @module bench/cold-runtimes/bundle — each fetch handler of handlers/ bundled once per runtime with esbuild, as
 * the project's runtime tests and Worker bundles are: for Bun and Deno as test/runtimes/launch.ts bundles its
 * server scripts (one ESM file, `platform: node`, Node's built-ins left to the runtime's Node compatibility, a
 * `require` for CommonJS dependencies) with a few lines of host around the handler (`Bun.serve`, `Deno.serve`
 * on 127.0.0.1, port 0, then the ready line `{"url": …}`); for workerd as bench/lib/worker-bundle.ts bundles a
 * Worker (conditions `workerd`, `worker`, `browser`, minified), served by on-miniflare.mjs.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../lib/proc.ts';
import { bundleWorker } from '../lib/worker-bundle.ts';

/** `ours-modern`: ours with only 2026-07-28's package bundled (the others aliased away, as docs/deployment.md tells a Worker to do). */
export type Handler = 'ours' | 'ours-modern' | 'sdk' | 'hello';
export type Host = 'bun' | 'deno' | 'workerd';

export const HANDLERS: Record<Handler, string> = {
  ours: 'bench/cold-runtimes/handlers/ours.ts',
  'ours-modern': 'bench/cold-runtimes/handlers/ours.ts',
  sdk: 'bench/cold-runtimes/handlers/sdk.mjs',
  hello: 'bench/cold-runtimes/handlers/hello.mjs',
};

export const OUT = join(ROOT, 'node_modules', '.cache', 'wiregen-cold-runtimes');

/** The host around the handler's `fetch`: listen on 127.0.0.1, any free port, print the ready line once listening. */
const HOSTS: Record<'bun' | 'deno', string> = {
  // https://bun.com/docs/api/http: Bun.serve returns once the server listens.
  bun: `const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => handler.fetch(request) });
console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.port + '/mcp' }));`,
  // https://docs.deno.com/api/deno/~/Deno.serve: onListen is called once it listens.
  deno: `Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + port + '/mcp' })) },
  (request) => handler.fetch(request));`,
};

/** Bundles `handler` for `host`; resolves with the bundle's path. */
export async function bundleFor(host: Host, handler: Handler): Promise<string> {
  if (handler === 'ours-modern' && host !== 'workerd') throw new Error('ours-modern is bundled for workerd only');
  const outdir = join(OUT, `${host}-${handler}`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  if (host === 'workerd') {
    const bundle = await bundleWorker(HANDLERS[handler], { outdir, ...(handler === 'ours-modern' ? { served: ['2026-07-28'] } : {}) });
    return join(ROOT, Object.keys(bundle.metafile.outputs)[0]!);
  }
  const outfile = join(outdir, 'server.mjs');
  await build({
    stdin: {
      contents: `import handler from ${JSON.stringify(join(ROOT, HANDLERS[handler]))};\n${HOSTS[host]}\n`,
      resolveDir: ROOT,
      sourcefile: `${host}-host.mjs`,
      loader: 'js',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
    banner: { js: "import { createRequire as __wiregenRequire } from 'node:module'; const require = __wiregenRequire(import.meta.url);" },
  });
  return outfile;
}
