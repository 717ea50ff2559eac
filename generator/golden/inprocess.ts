/**
 * @module golden/inprocess — a case played on a server in this process, without sockets: the server the
 * runtime builds (an `McpServer`, a generated `createServer(…)` result, or an `mcpServer()` builder) is
 * connected to an in-memory transport that carries the same newline-free JSON frames stdio carries
 * (runtime/transports/transport.ts `Transport`), so a case sees what it would see over `--stdio`.
 */
import type { McpServer } from '@wiregen/runtime/mcp';
import type { Transport, TransportSink } from '@wiregen/runtime/transports';
import type { Exit, Line, LineServer } from './server.ts';

/** What an in-process factory may return: a server, or a builder with `build()` (`mcpServer(…)`). */
export type InProcessServer = McpServer | { build(): Promise<McpServer> };

/** The server a value stands for: a builder is built. */
export async function serverOf(value: InProcessServer | Promise<InProcessServer>): Promise<McpServer> {
  const v = await value;
  return 'connect' in v ? v : v.build();
}

/** One connection to an in-process server, read one frame at a time (as ServerProcess reads lines). */
export class InProcessConnection implements LineServer {
  readonly #frames: string[] = [];
  readonly #waiters: Array<() => void> = [];
  #sink: TransportSink | undefined;
  #closed = false;
  #log = '';

  constructor(server: McpServer) {
    const wake = () => this.#waiters.splice(0).forEach((w) => w());
    const transport: Transport = {
      start: (sink) => {
        this.#sink = sink;
      },
      send: (text) => {
        if (this.#closed) return;
        this.#frames.push(text);
        wake();
      },
      close: () => this.#end(),
    };
    server.connect(transport);
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#waiters.splice(0).forEach((w) => w());
    this.#sink?.close();
  }

  send(line: string): void {
    if (this.#closed) return;
    const sink = this.#sink;
    // Delivered on a later turn, as a pipe would: the caller reads the answer afterwards.
    queueMicrotask(() => {
      try {
        sink?.message(line);
      } catch (err) {
        this.#log += `${(err as Error)?.stack ?? String(err)}\n`;
      }
    });
  }

  async nextLine(timeoutMs: number): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.#frames.shift();
      if (line !== undefined) return { kind: 'line', line };
      if (this.#closed) return { kind: 'eof' };
      const left = deadline - Date.now();
      if (left <= 0) return { kind: 'timeout' };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  stderr(): string {
    return this.#log;
  }

  async close(): Promise<Exit> {
    this.#end();
    return { code: 0, signal: null, timedOut: false, rest: this.#frames.splice(0) };
  }

  kill(): void {
    this.#end();
  }
}
