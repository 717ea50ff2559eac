/**
 * @module mcp/server — an MCP server: its options (identity, capabilities per era, handlers) and the
 * connections it serves. Each connection picks its era from its first valid request (see connection.ts).
 */
import type { Transport } from '../transports/transport.ts';
import { McpConnection, type ConnectionOptions } from './connection.ts';
import { RequestStateCodec } from './mrtr.ts';
import type { ListKind } from './subscriptions.ts';
import type { Handler, McpServerOptions } from './types.ts';

export class McpServer {
  readonly options: McpServerOptions;
  readonly codec: RequestStateCodec;
  readonly connections = new Set<McpConnection>();

  /** The handlers by method name: the one loose shape dispatch uses (see {@link Handler}). */
  readonly handlers: ReadonlyMap<string, Handler>;

  constructor(options: McpServerOptions) {
    this.options = options;
    // Each typed handler takes its method's params, which the revision's schema has checked before it runs
    // (serveHandshake, serveStateless), and its result is checked after: by name, they are all Handlers.
    this.handlers = new Map(
      Object.entries(options.handlers as Readonly<Record<string, Handler | undefined>>).filter(
        (e): e is [string, Handler] => typeof e[1] === 'function',
      ),
    );
    this.codec = new RequestStateCodec(options.requestStateSecret, options.requestStateTtlSeconds);
  }

  /** Serves one client over `transport`. */
  connect(transport: Transport, options: ConnectionOptions = {}): McpConnection {
    const conn = new McpConnection(this, transport, options);
    this.connections.add(conn);
    void conn.finished.then(() => this.connections.delete(conn));
    return conn;
  }

  log(line: string): void {
    (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  /** A list changed: tells every client that asked (listen streams, or handshake clients when advertised). */
  listChanged(kind: ListKind): void {
    for (const conn of this.connections) conn.deliverListChanged(kind);
  }

  /** A resource changed: tells its subscribers. */
  resourceUpdated(uri: string): void {
    for (const conn of this.connections) conn.deliverResourceUpdated(uri);
  }

  /** Graceful shutdown: every open listen stream ends with its result. */
  shutdown(): void {
    for (const conn of this.connections) for (const l of [...conn.listens.values()]) l.end();
  }
}
