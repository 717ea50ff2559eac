/**
 * @module a2a/http-adapters — an A2A agent where an application already serves HTTP: a node:http request
 * listener, a web-standard fetch handler (Hono, Bun, Deno, workers) and an Express middleware. Each is one
 * `A2aHttpHandler` (a2a/http.ts): the same card, JSON-RPC and HTTP+JSON answers, streaming, authentication and
 * body limits as `listenA2aHttp`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expressMiddleware, type ExpressMiddleware } from '../transports/express.ts';
import { A2aHttpHandler, type A2aHttpOptions } from './http.ts';
import type { A2aServer } from './server.ts';

/** A node:http request listener serving an A2A agent; `handler` is the handler behind it. */
export type A2aNodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { readonly handler: A2aHttpHandler };
/** A fetch handler serving an A2A agent. */
export type A2aFetchHandler = ((request: Request) => Promise<Response>) & { readonly handler: A2aHttpHandler };
/** An Express middleware serving an A2A agent, with `errors` for a body parser in front. */
export type A2aExpressMiddleware = ExpressMiddleware & { readonly handler: A2aHttpHandler };
/** The fetch handler's options: `routes` takes node's req/res, so it is not one of them. */
export type A2aFetchOptions = Omit<A2aHttpOptions, 'routes'> & {
  /**
   * The platform's `waitUntil` (Workers: `ctx.waitUntil`, bound): after each response, the work the agent still
   * does (a non-blocking SendMessage's execution, a streamed task, push deliveries) is handed to it, so the
   * platform does not cut it when the response ends. Default none (a long-running process needs none).
   */
  readonly waitUntil?: (promise: Promise<unknown>) => void;
};

/**
 * A node:http request listener: `http.createServer(a2aNodeHandler(server))`, or any framework handing over
 * Node's req/res. It answers every request it gets (an unknown path is the A2A 404) and reads the request body
 * itself: give it the request before anything consumes the stream (use `a2aExpress` behind a body parser).
 * Options and defaults as `A2aHttpOptions`.
 */
export function a2aNodeHandler(server: A2aServer, options: A2aHttpOptions = {}): A2aNodeHandler {
  const handler = new A2aHttpHandler(server, options);
  return Object.assign((req: IncomingMessage, res: ServerResponse) => handler.handle(req, res), { handler });
}

/**
 * A web-standard fetch handler: `(request) => Promise<Response>`. It answers every request it gets (an unknown
 * path is the A2A 404: route the agent's paths to it — the card, the JSON-RPC path, the HTTP+JSON prefix — or
 * everything, e.g. Hono's `app.all('*', (c) => agent(c.req.raw))`, and pass the original `Request`: a framework
 * that has read its body leaves nothing to read). `authenticate` gets `{method, url, headers}` with the headers
 * as lower-case names. Streams are `ReadableStream` bodies and end when `request.signal` aborts or the client
 * cancels them. Options and defaults as `A2aHttpOptions`, without `routes` (serve those in front of it).
 */
export function a2aFetchHandler(server: A2aServer, options: A2aFetchOptions = {}): A2aFetchHandler {
  if ('routes' in options && options.routes !== undefined)
    throw new TypeError('a2aFetchHandler: options.routes takes node req/res; serve extra routes in front of the fetch handler');
  if (server.options.http?.routes !== undefined)
    throw new TypeError("a2aFetchHandler: the agent's http.routes take node req/res; serve them in front of the fetch handler");
  const { waitUntil, ...httpOptions } = options;
  const handler = new A2aHttpHandler(server, httpOptions);
  if (!waitUntil) return Object.assign((request: Request) => handler.fetch(request), { handler });
  return Object.assign(
    async (request: Request) => {
      const response = await handler.fetch(request);
      // The executions the request started are tracked by now (begin() registers them before answering).
      waitUntil(server.settled());
      return response;
    },
    { handler },
  );
}

/**
 * An Express middleware (`app.use(agent)`): the card, the JSON-RPC path and the HTTP+JSON routes (matched
 * against `req.originalUrl`) are answered, any other request goes to `next()` after `routes` (tried first, as
 * with node:http) and before `authenticate`. Mounted before a body parser, it reads the body itself; after one
 * (`express.json()`), it answers from `req.body` with the same limits and answers — then also mount
 * `agent.errors` after it so that a body the parser refused gets the agent's 413 or parse error rather than
 * Express's HTML page. Behind a parser, `bodyTimeoutMs` cannot apply (the parser read the body first), the
 * parser's `limit` refuses first when it is lower than `maxBodyBytes`, and a parser that consumes the stream
 * without setting `req.body` must not be in front (the request is then answered 500). Options and defaults as
 * `A2aHttpOptions`.
 */
export function a2aExpress(server: A2aServer, options: A2aHttpOptions = {}): A2aExpressMiddleware {
  const handler = new A2aHttpHandler(server, options);
  return Object.assign(
    expressMiddleware(
      (req, res, next) => handler.serve(req, res, next),
      (req) => handler.owns(req),
    ),
    { handler },
  );
}
