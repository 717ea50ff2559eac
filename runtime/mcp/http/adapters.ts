/**
 * @module mcp/http/adapters — the MCP Streamable HTTP server where an application already serves HTTP: a
 * node:http request listener, a web-standard fetch handler (Hono, Bun, Deno, workers) and an Express
 * middleware. Each is one `McpHttpHandler` (mcp/http.ts): the same admission rules (Origin, Host, content types,
 * Accept, body limits), statuses, headers and bodies as `listenMcpHttp`.
 *
 * Unlike `listenMcpHttp`, which knows it listens on loopback and checks Host against the loopback names, an
 * adapter does not know where it is served: `allowedHosts` is off unless given (set it to the names the server
 * answers to — `LOOPBACK_HOSTS` on a loopback-only server — to refuse DNS-rebound requests by their Host too).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expressMiddleware, type ExpressMiddleware } from '../../transports/express.ts';
import type { PlatformContext } from '../../platform/env.ts';
import { McpHttpHandler, type McpHttpOptions } from './handler.ts';
import type { McpServer } from '../server/server.ts';

/** What each adapter carries besides being callable. */
export interface McpHttpAdapter {
  /** The handler behind it (sessions, `openSessions`). */
  readonly handler: McpHttpHandler;
  /** Ends every session and stream (listen streams end with their result first) and stops the session sweeper. */
  close(): void;
}

/** A node:http request listener serving MCP. */
export type McpNodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & McpHttpAdapter;
/** A fetch handler serving MCP. */
export type McpFetchHandler = ((request: Request, env?: unknown, ctx?: PlatformContext) => Promise<Response>) & McpHttpAdapter;
/** An Express middleware serving MCP, with `errors` for a body parser in front. */
export type McpExpressMiddleware = ExpressMiddleware & McpHttpAdapter;

function adapter<F extends object>(handler: McpHttpHandler, fn: F): F & McpHttpAdapter {
  return Object.assign(fn, { handler, close: () => handler.close() });
}

/**
 * A node:http request listener: `http.createServer(mcpNodeHandler(server))`, or any framework handing over
 * Node's req/res. It answers every request it gets (404 outside `options.path`, default `/mcp`) and reads the
 * request body itself: give it the request before anything consumes the stream (use `mcpExpress` behind a
 * body parser). Options and defaults as `McpHttpOptions`; `allowedHosts` off unless given.
 */
export function mcpNodeHandler(server: McpServer, options: McpHttpOptions = {}): McpNodeHandler {
  const handler = new McpHttpHandler(server, options);
  return adapter(handler, (req: IncomingMessage, res: ServerResponse) => handler.handle(req, res));
}

/**
 * A web-standard fetch handler: `(request, env?, ctx?) => Promise<Response>`, a Cloudflare Worker's `fetch`
 * (`export default { fetch: mcp }`); on Workers give it the `ctx` (`PlatformContext`; `mcpWorker` does), whose `waitUntil` keeps a
 * request going after `ctx.closeStream()` ended its response. It answers every request it gets (404
 * outside `options.path`, default `/mcp`; route only that path to it, e.g. Hono's
 * `app.all('/mcp', (c) => mcp(c.req.raw))`, and pass the original `Request`: a framework that has read its body
 * leaves nothing to read). SSE answers are `ReadableStream` bodies; a request is cancelled when
 * `request.signal` aborts or the client cancels the stream. Where the platform joins a repeated header into one
 * value, a comma in a header that never holds one (MCP-Protocol-Version, Mcp-Method, Mcp-Session-Id, Origin) is
 * taken as a repeat (400 or 403 as on node); a repeated Mcp-Name or Mcp-Param-* is then a value mismatch (also
 * 400, -32020). Options and defaults as `McpHttpOptions`; `allowedHosts` off unless given.
 */
export function mcpFetchHandler(server: McpServer, options: McpHttpOptions = {}): McpFetchHandler {
  const handler = new McpHttpHandler(server, options);
  return adapter(handler, (request: Request, env?: unknown, ctx?: PlatformContext) => handler.fetch(request, env, ctx));
}

/**
 * An Express middleware (`app.use(mcp)`, `app.use('/mcp', mcp)` or `app.all('/mcp', mcp)`): requests for
 * `options.path` (default `/mcp`, matched against `req.originalUrl`, so wherever it is mounted) are answered,
 * any other goes to `next()`. Mounted before a body parser, it reads the body itself. Mounted after one
 * (`express.json()`), it answers from `req.body` with the same limits and answers; then also mount
 * `mcp.errors` after it (`app.use(express.json(), mcp, mcp.errors)`) so that a body the parser refused (too
 * large for the parser's limit, or not JSON) gets this endpoint's 413 or JSON-RPC parse error rather than
 * Express's HTML page. Behind a parser, `bodyTimeoutMs` cannot apply (the parser read the body first; bound it
 * with the server's `requestTimeout`), and the parser's `limit` (100 KB by default) refuses before
 * `maxBodyBytes` does when it is lower. Never put in front a parser that consumes the stream without setting
 * `req.body`: the request is then answered 500. Options and defaults as `McpHttpOptions`; `allowedHosts` off
 * unless given.
 */
export function mcpExpress(server: McpServer, options: McpHttpOptions = {}): McpExpressMiddleware {
  const handler = new McpHttpHandler(server, options);
  return adapter(
    handler,
    expressMiddleware(
      (req, res, next) => handler.serve(req, res, next),
      (req) => handler.owns(req),
    ),
  );
}
