/**
 * @module mcp/http/call — one 2026-07-28 request over Streamable HTTP, served without a connection: the era
 * has no sessions (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports), so a POST
 * is one request and its answer, and needs none of a connection's transport, peer and routing. The request
 * runs as a connection's would (jsonrpc/incoming.ts: its result or error is the response, a handler past
 * the server's `requestTimeoutMs` is answered -32001), its notifications turn the answer into Server-Sent
 * Events (channel.ts Exchange), and the client going away cancels it. subscriptions/listen, which
 * stays open for the server's change notifications, is served on a connection instead (http.ts).
 */
import type { AuthInfo } from '../../auth/info.ts';
import { type Answering, LazyAbort, notificationFrame, runIncoming, type IncomingRequest } from '../../jsonrpc/incoming.ts';
import { ErrorCode, JsonRpcError, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import type { FrameMeta } from '../../transports/transport.ts';
import type { Listen } from '../server/connection.ts';
import type { Exchange } from './channel.ts';
import type { McpServer } from '../server/server.ts';
import { Serving, type Notifier } from '../server/serving.ts';
import { serveStateless } from '../stateless/request.ts';

/** One request and its HTTP answer (`exchange`); `serve` runs it, `cancel` is the client going away. */
export class StatelessCall extends Serving implements Notifier, Answering {
  readonly peer: Notifier = this;
  readonly handlerTimeoutMs: number;
  readonly #exchange: Exchange;
  readonly #controller = new LazyAbort();
  readonly #auth: AuthInfo | undefined;
  #listens: Map<string, Listen> | undefined;

  /** `auth`: the verified token of the POST (RequestContext.auth), if any. */
  constructor(server: McpServer, exchange: Exchange, auth?: AuthInfo) {
    super(server);
    this.#exchange = exchange;
    this.#auth = auth;
    this.handlerTimeoutMs = server.options.requestTimeoutMs ?? 0;
  }

  /** None are held here (a listen request is served on a connection); kept for the era's shared code. */
  get listens(): Map<string, Listen> {
    this.#listens ??= new Map();
    return this.#listens;
  }

  serve(id: RequestId, method: string, params: JsonObject | undefined): void {
    runIncoming(this, id, method, params, this.#controller);
  }

  /** The client went away: the request's signal aborts, and it is never answered. */
  cancel(): void {
    this.#controller.abort(new JsonRpcError(ErrorCode.InvalidRequest, 'Request cancelled'));
  }

  override authOf(): AuthInfo | undefined {
    return this.#auth;
  }

  onRequest(req: IncomingRequest): Promise<unknown> {
    return serveStateless(this, req);
  }

  write(text: string, meta: FrameMeta): void {
    this.#exchange.finish(text, meta.errorCode, meta.utf8);
  }

  log(line: string): void {
    this.server.log(line);
  }

  /**
   * Notifications of the request go on its answer (as SSE), until it is answered or cancelled; one tied to no
   * request has nowhere to go (this era has no session stream).
   */
  notify(method: string, params?: JsonObject, relatedTo?: RequestId): void {
    if (relatedTo === undefined || this.#exchange.done || this.#controller.aborted) return;
    const { text, meta } = notificationFrame(method, params, relatedTo);
    this.#exchange.event(text, meta);
  }

  closeStream(): void {
    this.#exchange.detach();
  }

  enterStateless(): void {}
}
