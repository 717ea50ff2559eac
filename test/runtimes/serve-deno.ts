/**
 * @module test/runtimes/serve-deno — the Deno server script: `Deno.serve` on 127.0.0.1, port 0, with the
 * fetch function served.ts builds from WIREGEN_SERVE (https://docs.deno.com/api/deno/~/Deno.serve); prints its
 * ready line; the test ends it with SIGTERM. Run bundled (launch.ts) by the `deno` binary of the `deno` devDependency.
 */
import { readyLine, served, type ServeConfig } from './served.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const serving = await served(JSON.parse(Deno.env.get('WIREGEN_SERVE') ?? '{}') as ServeConfig);
Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(readyLine(port)) }, serving.fetch);
