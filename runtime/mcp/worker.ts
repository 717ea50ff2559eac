/**
 * @module mcp/worker — an MCP server as a fetch-only platform's entry (Cloudflare Workers'
 * `export default { fetch(request, env, ctx) }`; Deno, Bun with their env object): configuration comes with the
 * request (`env`), so the server and its handler are made on the first request of each isolate — never at
 * module scope, where Workers refuse timers and random values — and kept for the isolate's later requests.
 * The requestState key and the allowed hosts come from the documented bindings (platform/env.ts).
 */
import { ENV_BINDINGS, fromEnv, type PlatformContext, type PlatformEnv } from '../platform/env.ts';
import { mcpFetchHandler, type McpFetchHandler } from './http/adapters.ts';
import type { McpHttpOptions } from './http/options.ts';
import type { McpServer } from './server/server.ts';

/** What `mcpWorker` reads from the environment for the server: spread it into the server's options. */
export interface McpWorkerConfig {
  /** From `MCP_REQUEST_STATE_SECRET` (base64 of 32 bytes), when set: `McpServerOptions.requestStateSecret`. */
  readonly requestStateSecret?: Uint8Array;
}

export interface McpWorkerOptions<E extends PlatformEnv> {
  /**
   * The HTTP options, from the environment. `allowedHosts` defaults to `MCP_ALLOWED_HOSTS` (comma-separated)
   * when that binding is set; what this returns wins.
   */
  readonly http?: (env: E) => McpHttpOptions;
}

/** A fetch-only platform's entry: Workers' default export, or `Deno.serve((r) => worker.fetch(r, Deno.env.toObject()))`. */
export interface McpWorker<E extends PlatformEnv> {
  fetch(request: Request, env: E, ctx?: PlatformContext): Promise<Response>;
}

/**
 * `export default mcpWorker((env, config) => createServer(behaviours, { ...config, supportedVersions: ['2026-07-28'] }))`.
 * `make` runs once per isolate, on its first request, with that request's `env` and what was read from it
 * (`MCP_REQUEST_STATE_SECRET`). A malformed binding (EnvBindingError, naming it) or a failing `make` is logged
 * and the request answered 500 (JSON-RPC -32603); the next request tries again. Without a shared secret each isolate signs requestState with a random key of its own: a round-2
 * request (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr) reaching another
 * isolate is refused as tampered; the server logs this once per isolate.
 */
export function mcpWorker<E extends PlatformEnv = PlatformEnv>(
  make: (env: E, config: McpWorkerConfig) => McpServer,
  options: McpWorkerOptions<E> = {},
): McpWorker<E> {
  let handler: McpFetchHandler | undefined;
  const build = (env: E): McpFetchHandler => {
    const settings = fromEnv(env);
    const server = make(env, settings.requestStateSecret ? { requestStateSecret: settings.requestStateSecret } : {});
    if (server.options.requestStateSecret === undefined)
      server.log(
        `${ENV_BINDINGS.requestStateSecret} is not set: this isolate signs requestState with a random key, so a round-2 request reaching another isolate is refused`,
      );
    const http = options.http?.(env) ?? {};
    return mcpFetchHandler(
      server,
      settings.allowedHosts && http.allowedHosts === undefined ? { ...http, allowedHosts: settings.allowedHosts } : http,
    );
  };
  return {
    async fetch(request: Request, env: E, ctx?: PlatformContext): Promise<Response> {
      try {
        handler ??= build(env);
      } catch (err) {
        // A malformed binding (EnvBindingError) or a failing `make`: logged, answered 500, tried again next request.
        console.error(`MCP server not made: ${(err as Error)?.message ?? String(err)}`);
        return Response.json(
          { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error: the server is misconfigured' } },
          { status: 500 },
        );
      }
      // ctx: its waitUntil keeps a request going after ctx.closeStream() ended its response (McpFetchHandler).
      return handler(request, env, ctx);
    },
  };
}
