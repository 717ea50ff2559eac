/**
 * @module bench/lib/stdio-client — a newline-delimited JSON-RPC client over a child's stdin/stdout (a
 * NodeChild of proc.ts): requests numbered 1, 2, … and answered by id, any number in flight. The MCP stdio
 * part drives its servers with it, and the generator part waits with it for a stdio server's first answer.
 */
import { NodeChild } from './proc.ts';

export type JsonRpcMessage = Record<string, unknown>;

export class StdioClient {
  readonly #child: NodeChild;
  readonly #pending = new Map<number, { ok(msg: JsonRpcMessage): void; fail(err: Error): void }>();
  #next = 1;

  /** Starts `node <args>`; requests in flight when it exits reject with the tail of its stderr. */
  constructor(args: readonly string[]) {
    this.#child = new NodeChild(
      args,
      (line) => {
        if (!line.trim()) return;
        const msg = JSON.parse(line) as JsonRpcMessage;
        const waiting = typeof msg['id'] === 'number' ? this.#pending.get(msg['id']) : undefined;
        if (waiting) {
          this.#pending.delete(msg['id'] as number);
          waiting.ok(msg);
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
  request(method: string, params: Record<string, unknown>): Promise<JsonRpcMessage> {
    const id = this.#next++;
    return new Promise((ok, fail) => {
      this.#pending.set(id, { ok, fail });
      this.#child.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
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
