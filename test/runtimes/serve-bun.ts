/**
 * @module test/runtimes/serve-bun — the Bun server script: `Bun.serve` on 127.0.0.1, port 0, with the fetch
 * function served.ts builds from WIREGEN_SERVE (https://bun.com/docs/api/http); prints its ready line; the
 * test ends it with SIGTERM. Run bundled (launch.ts) by the `bun` binary of the `bun` devDependency.
 */
import { readyLine, served, type ServeConfig } from './served.ts';

declare const Bun: {
  serve(options: { port: number; hostname: string; idleTimeout: number; fetch(request: Request): Promise<Response> }): { readonly port: number };
};

const serving = await served(JSON.parse(process.env['WIREGEN_SERVE'] ?? '{}') as ServeConfig);
// idleTimeout 0: SSE streams stay open while quiet (Bun closes idle connections after 10 s by default).
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 0, fetch: serving.fetch });
console.log(readyLine(server.port));
