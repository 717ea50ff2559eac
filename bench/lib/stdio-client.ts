/**
 * @module bench/lib/stdio-client — a newline-delimited JSON-RPC client over a child's stdin/stdout (a
 * NodeChild of proc.ts): requests numbered 1, 2, … and answered by id, any number in flight. The MCP stdio
 * part drives its servers with it, and the generator part waits with it for a stdio server's first answer.
 */
import { NodeChild } from './proc.ts';

export type JsonRpcMessage = Record<string, unknown>;

/** The id of a response line, read without parsing it (the load loop's answers hold no other `"id"` member). */
const ID = /"id":(\d+)[,}]/;

export class StdioClient {
  readonly #child: NodeChild;
  readonly #pending = new Map<number, { ok(line: string): void; fail(err: Error): void }>();
  #next = 1;

  /** Starts `node <args>`; requests in flight when it exits reject with the tail of its stderr. */
  constructor(args: readonly string[]) {
    this.#child = new NodeChild(
      args,
      (line) => {
        const m = ID.exec(line);
        const id = m ? Number(m[1]) : NaN;
        const waiting = this.#pending.get(id);
        if (waiting) {
          this.#pending.delete(id);
          waiting.ok(line);
        }
      },
      (code, stderr) => {
        for (const w of this.#pending.values()) w.fail(new Error(`the server exited (${code}) before answering\n${stderr}`));
        this.#pending.clear();
      },
    );
  }

  get pid(): number {
    return this.#child.pid;
  }

  /** Sends a request and resolves with the response (a result or an error). */
  async request(method: string, params: Record<string, unknown>): Promise<JsonRpcMessage> {
    return JSON.parse(await this.requestLine(`"${method}"`, JSON.stringify(params))) as JsonRpcMessage;
  }

  /**
   * The load loop's request: `method` and `params` already serialized (JSON), the response line unparsed, so
   * that the driver, which shares the machine with the server, spends as little as it can per request.
   */
  requestLine(methodJson: string, paramsJson: string): Promise<string> {
    const id = this.#next++;
    return new Promise((ok, fail) => {
      this.#pending.set(id, { ok, fail });
      this.#child.write(`{"jsonrpc":"2.0","id":${id},"method":${methodJson},"params":${paramsJson}}`);
    });
  }

  notify(method: string): void {
    this.#child.write(JSON.stringify({ jsonrpc: '2.0', method }));
  }

  /** initialize (asking for 2025-11-25) then notifications/initialized; throws when initialize fails. */
  async handshake(): Promise<JsonRpcMessage> {
    const init = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1.0.0' },
    });
    if (!init['result']) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
    this.notify('notifications/initialized');
    return init;
  }

  stop(): Promise<void> {
    return this.#child.stop();
  }
}
