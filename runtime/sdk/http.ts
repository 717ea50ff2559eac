/**
 * @module sdk/http — the SDK's `createMcpHandler(factory)`: a web-standard fetch handler serving Streamable HTTP
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http) in both eras,
 * by wiregen's HTTP handler (mcp/http/handler.ts): 2026-07-28 requests stateless, handshake clients in
 * sessions. The factory runs for every request, given the request's era, `authInfo` and the `Request`, and
 * the request is answered from the server it builds, as the SDK does.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpHttpHandler as WireHttpHandler } from '../mcp/http/handler.ts';
import type { McpHttpOptions } from '../mcp/http/options.ts';
import { McpServer as WireServer } from '../mcp/server/server.ts';
import type { RequestContext } from '../mcp/server/types.ts';
import { sdkAuthInfo, type AuthInfo } from './context.ts';
import type { McpServerFactory } from './stdio.ts';

/** What the factory is told about the request it builds a server for (the SDK's `McpRequestContext`). */
export interface McpRequestContext {
  /** `legacy`: a handshake-era request (initialize …); `modern`: 2026-07-28. */
  readonly era: 'legacy' | 'modern';
  readonly authInfo?: AuthInfo;
  readonly requestInfo?: Request;
}

export interface McpHandlerRequestOptions {
  /** The verified token of the caller, for the factory and `ctx.http.authInfo`. */
  readonly authInfo?: AuthInfo;
}

/** Announces changes to the clients' listen streams (2026-07-28) and handshake sessions. */
export interface ServerNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

export interface McpHttpHandler {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  close(): Promise<void>;
  readonly notify: ServerNotifier;
}

/** Options: wiregen's HTTP options (`path`, default `/mcp`, limits, resumability…). */
export type CreateMcpHandlerOptions = McpHttpOptions;

/**
 * The handler. The factory also runs once up front (era `modern`, no request) for what every request shares:
 * the server's identity and capabilities.
 */
export function createMcpHandler(factory: McpServerFactory, options: CreateMcpHandlerOptions = {}): McpHttpHandler {
  const request = new AsyncLocalStorage<{ readonly request: Request; readonly authInfo: AuthInfo | undefined }>();
  const era = (ctx: RequestContext) => (ctx.era === 'handshake' ? 'legacy' : 'modern');
  // The caller's token: the one handed to fetch (verified in front of the handler, as the SDK expects), else
  // the one wiregen's own `authorization` option verified (RequestContext.auth).
  const authOf = (ctx: RequestContext): AuthInfo | undefined => request.getStore()?.authInfo ?? (ctx.auth ? sdkAuthInfo(ctx.auth) : undefined);
  const httpOf = (ctx: RequestContext): { authInfo?: AuthInfo; req?: Request } | undefined => {
    const r = request.getStore();
    const authInfo = authOf(ctx);
    return r || authInfo ? { ...(authInfo ? { authInfo } : {}), ...(r ? { req: r.request } : {}) } : undefined;
  };
  const built = (async () => {
    const probe = await (await factory({ era: 'modern' })).prepare();
    const registryOf = async (ctx: RequestContext) => {
      const r = request.getStore();
      const authInfo = authOf(ctx);
      const ctxFor = { era: era(ctx), ...(authInfo ? { authInfo } : {}), ...(r ? { requestInfo: r.request } : {}) } as const;
      return (await factory(ctxFor)).registry;
    };
    const wire = new WireServer(probe.wireOptions(registryOf, httpOf));
    return { wire, http: new WireHttpHandler(wire, options) };
  })();
  let closed = false;
  const notify = (f: (wire: WireServer) => void) => void built.then(({ wire }) => f(wire));
  return {
    async fetch(req, opts = {}) {
      if (closed) throw new Error('The MCP handler is closed');
      const { http } = await built;
      return request.run({ request: req, authInfo: opts.authInfo }, () => http.fetch(req));
    },
    async close() {
      closed = true;
      (await built).http.close();
    },
    notify: {
      toolsChanged: () => notify((w) => w.listChanged('tools')),
      promptsChanged: () => notify((w) => w.listChanged('prompts')),
      resourcesChanged: () => notify((w) => w.listChanged('resources')),
      resourceUpdated: (uri) => notify((w) => w.resourceUpdated(uri)),
    },
  };
}
