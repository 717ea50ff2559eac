/**
 * @module mcp/server/server — an MCP server: its options (identity, capabilities per era, handlers) and the
 * connections it serves. Each connection picks its era from its first valid request (see connection.ts).
 * With a notification bus, catalog changes reach the clients of every instance of the server.
 */
import type { ServerCapabilities } from '@wiregen/mcp-2026-07-28';
import { isObject, type JsonObject } from '../../jsonrpc/message.ts';
import type { Transport } from '../../transports/transport.ts';
import { McpConnection, type ConnectionOptions } from './connection.ts';
import type { ListenTarget, McpServerExtension } from './extensions.ts';
import { META } from '../stateless/meta.ts';
import { advertisedVersions } from '../revisions.ts';
import { RequestStateCodec } from '../stateless/request-state.ts';
import { answerThrown, isBehaviourFailure } from './thrown.ts';
import type { ListKind } from './subscriptions.ts';
import type { CatalogChange, Handler, McpServerOptions, RequestContext } from './types.ts';
import { stderrLine } from '../../jsonrpc/stderr.ts';

export class McpServer implements ListenTarget {
  readonly options: McpServerOptions;
  readonly codec: RequestStateCodec;
  readonly connections = new Set<McpConnection>();

  /** The handlers by method name: the one loose shape dispatch uses (see {@link Handler}). */
  readonly handlers: ReadonlyMap<string, Handler>;
  readonly #unsubscribe: (() => void) | undefined;

  /** The extensions served (McpServerOptions.extensions). */
  readonly extensions: readonly McpServerExtension[];

  constructor(options: McpServerOptions) {
    this.extensions = options.extensions ?? [];
    this.options = this.extensions.length ? withExtensions(options, this.extensions) : options;
    // Each typed handler takes its method's params, which the revision's schema has checked before it runs
    // (serveHandshake, serveStateless), and its result is checked after: by name, they are all Handlers.
    const handlers = new Map(
      Object.entries(options.handlers as Readonly<Record<string, Handler | undefined>>)
        .filter((e): e is [string, Handler] => typeof e[1] === 'function')
        .map(([method, handler]) => [
          method,
          this.extensions.reduce((h, ext) => ext.wrap?.(method, h) ?? h, method === 'tools/call' ? this.#toolGuard(handler) : handler),
        ]),
    );
    // An extension's handlers stand in for methods the server does not handle itself.
    for (const ext of this.extensions)
      for (const [method, handler] of Object.entries(ext.handlers ?? {})) if (!handlers.has(method)) handlers.set(method, handler);
    this.handlers = handlers;
    for (const ext of this.extensions) ext.attach?.(this);
    // A list of revisions is checked now: an unknown one is a one-line error at construction, not at a request.
    advertisedVersions(options.supportedVersions);
    this.codec = new RequestStateCodec(options.requestStateSecret, options.requestStateTtlSeconds);
    this.#unsubscribe = options.notificationBus?.subscribe((change) => this.#deliver(change));
  }

  /** Serves one client over `transport`. */
  connect(transport: Transport, options: ConnectionOptions = {}): McpConnection {
    const conn = new McpConnection(this, transport, options);
    this.connections.add(conn);
    void conn.finished.then(() => this.connections.delete(conn));
    return conn;
  }

  log(line: string): void {
    (this.options.log ?? stderrLine)(line);
  }

  /**
   * The tools/call handler with its thrown failures answered as isError results here, where the handler is
   * called, rather than where the request is answered: an extension that runs the tool on after answering (a
   * task, SEP-2663) then stores that result as the task's, as it would a returned one.
   */
  #toolGuard(handler: Handler): Handler {
    const failed = (params: JsonObject, ctx: RequestContext, err: unknown) => {
      if (!isBehaviourFailure(err, ctx)) throw err;
      return answerThrown(this, 'tools/call', params, err);
    };
    return (params, ctx) => {
      let value: unknown;
      try {
        value = handler(params, ctx);
      } catch (err) {
        return failed(params, ctx, err);
      }
      const thenable = value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
      return thenable ? Promise.resolve(value).catch((err: unknown) => failed(params, ctx, err)) : value;
    };
  }

  /** A list changed: tells every client that asked (listen streams, or handshake clients when advertised). */
  listChanged(kind: ListKind): void {
    this.#announce({ list: kind });
  }

  /** A resource changed: tells its subscribers. */
  resourceUpdated(uri: string): void {
    this.#announce({ resource: uri });
  }

  /** Delivers `change` here and publishes it to the other instances (with a bus). */
  #announce(change: CatalogChange): void {
    this.#deliver(change);
    this.options.notificationBus?.publish(change).catch((err: unknown) => this.log(`change notification not published: ${(err as Error).message}`));
  }

  #deliver(change: CatalogChange): void {
    for (const conn of this.connections) {
      if ('list' in change) conn.deliverListChanged(change.list);
      else conn.deliverResourceUpdated(change.resource);
    }
  }

  /** Graceful shutdown: every open listen stream ends with its result, and the bus stops delivering here. */
  shutdown(): void {
    this.#unsubscribe?.();
    for (const conn of this.connections) for (const l of [...conn.listens.values()]) l.end();
    for (const ext of this.extensions) ext.close?.();
  }

  notifyListeners(wants: (honored: JsonObject) => boolean, method: string, params: JsonObject): void {
    for (const conn of this.connections)
      for (const l of conn.listens.values())
        if (wants(l.honored))
          conn.peer.notify(
            method,
            { ...params, _meta: { ...(isObject(params['_meta']) ? params['_meta'] : {}), [META.subscriptionId]: l.id } },
            l.id,
          );
  }
}

/** The options with each extension advertised under `capabilities.extensions` of the 2026-07-28 era. */
function withExtensions(options: McpServerOptions, extensions: readonly McpServerExtension[]): McpServerOptions {
  const { stateless } = options.capabilities;
  const advertised: NonNullable<ServerCapabilities['extensions']> = { ...stateless.extensions };
  for (const ext of extensions) advertised[ext.id] ??= ext.settings ?? {};
  return { ...options, capabilities: { ...options.capabilities, stateless: { ...stateless, extensions: advertised } } };
}
