/**
 * @module sdk/stdio — `@wiregen/runtime/sdk/stdio`: the SDK's `serveStdio(factory)` and
 * `StdioServerTransport`, on wiregen's stdio transport (newline-delimited JSON-RPC,
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio), both eras on one
 * connection as every wiregen stdio server.
 */
import type { Readable, Writable } from 'node:stream';
import { McpServer as WireServer } from '../mcp/server/server.ts';
import { stdioTransport } from '../transports/stdio.ts';
import type { Transport as WireTransport } from '../transports/transport.ts';
import type { McpRequestContext } from './http.ts';
import type { McpServer } from './server.ts';
import { WIRE_TRANSPORT, type Transport } from './transport.ts';

/** Builds the server of a connection (or of a request, over HTTP). */
export type McpServerFactory = (ctx: McpRequestContext) => McpServer | Promise<McpServer>;

/** stdin/stdout (or the streams given) as a transport for `server.connect`. */
export class StdioServerTransport implements Transport {
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  #wire: WireTransport | undefined;
  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    this.#stdin = stdin;
    this.#stdout = stdout;
  }
  readonly [WIRE_TRANSPORT] = (): WireTransport => (this.#wire ??= stdioTransport(this.#stdin, this.#stdout));
  // The SDK's Transport methods: connect() uses the wiregen transport above, never these.
  async start(): Promise<void> {}
  async send(): Promise<void> {
    throw new Error('StdioServerTransport sends through the server it is connected to');
  }
  async close(): Promise<void> {
    this.#wire?.close();
  }
}

export interface StdioServerHandle {
  close(): Promise<void>;
}

/**
 * Serves the server `factory` builds on this process's stdin/stdout. The factory runs once, before the
 * first message (so its context says `era: 'modern'`; the connection still serves either era).
 */
export function serveStdio(factory: McpServerFactory, options: { readonly stdin?: Readable; readonly stdout?: Writable } = {}): StdioServerHandle {
  const transport = stdioTransport(options.stdin ?? process.stdin, options.stdout ?? process.stdout);
  const served = (async () => {
    const server = await (await factory({ era: 'modern' })).prepare();
    const wire = new WireServer(server.wireOptions(() => server.registry));
    server.attach(wire);
    return { wire, conn: wire.connect(transport) };
  })();
  served.catch((err: unknown) => {
    process.stderr.write(`serveStdio: the factory failed: ${(err as Error).stack ?? String(err)}\n`);
    transport.close();
  });
  return {
    async close() {
      transport.close();
      const { wire, conn } = await served;
      wire.shutdown();
      await conn.finished;
    },
  };
}
