/**
 * @module transports/express — Express middleware around a server written against the HTTP exchange
 * (exchange.ts), without depending on Express: its req/res are node's, plus `originalUrl`, `body` and `next`.
 * Requests the server does not own go to `next()`; a body parser in front is honoured (`req.body`), and its
 * errors for requests the server owns are answered by the server (`middleware.errors`, mounted after it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpFailure, HttpRequest, HttpResponse } from './exchange.ts';
import { bodyFromParserError, ExpressRequest, NodeResponse, type ParsedBodyFields } from './node-exchange.ts';

/** The request as Express hands it over (what the adapters read of it). */
export type ExpressLikeRequest = IncomingMessage & ParsedBodyFields & { originalUrl?: string };
/** Express's `next`: no argument passes the request on, an argument is an error. */
export type ExpressNext = (err?: unknown) => void;

/** An Express middleware, with its error-handling companion. */
export interface ExpressMiddleware {
  (req: ExpressLikeRequest, res: ServerResponse, next: ExpressNext): void;
  /**
   * The error middleware (four parameters, as Express tells them apart) answering a body parser's refusal
   * of a request this server owns as the server itself would: a body over the parser's limit is 413, one that
   * did not parse is answered as any unparsable body — after the checks that come before the body (path,
   * method, Origin, Host, content type…). Other errors, and other requests, go on to `next(err)`.
   */
  readonly errors: (err: unknown, req: ExpressLikeRequest, res: ServerResponse, next: ExpressNext) => void;
}

/**
 * The middleware for `serve`, which answers a request or, when it is not the server's, calls `next` (the
 * server decides when: an A2A agent's own extra routes come first); `owns` tells a parser error's request apart.
 * The request target is `req.originalUrl`, so the server sees the path the client sent wherever it is mounted.
 */
export function expressMiddleware(
  serve: (req: HttpRequest, res: HttpResponse, next?: () => void) => void,
  owns: (req: HttpRequest) => boolean,
): ExpressMiddleware {
  const middleware = (req: ExpressLikeRequest, res: ServerResponse, next: ExpressNext): void => {
    serve(new ExpressRequest(req), new NodeResponse(res), () => next());
  };
  const errors = (err: unknown, req: ExpressLikeRequest, res: ServerResponse, next: ExpressNext): void => {
    const body: HttpFailure | { readonly text: string } | undefined = bodyFromParserError(err);
    const request = body && new ExpressRequest(req, body);
    if (!request || !owns(request) || res.headersSent) return next(err);
    serve(request, new NodeResponse(res));
  };
  return Object.assign(middleware, { errors });
}
