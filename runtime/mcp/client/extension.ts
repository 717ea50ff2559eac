/**
 * @module mcp/client/extension — what a client extension in an area of its own (`@wiregen/runtime/mcp/ext/tasks`,
 * `…/ext/skills`) shares: the client it was given to in `extensions`, and whether the server declared the
 * extension (https://modelcontextprotocol.io/seps/2133-extensions).
 */
import { ErrorCode, isObject } from '../../jsonrpc/message.ts';
import { McpClientError } from './errors.ts';
import type { McpClientExtension } from './types.ts';
import type { McpClient } from './client.ts';

export abstract class AttachedClientExtension implements McpClientExtension {
  abstract readonly id: string;
  #client: McpClient | undefined;

  attach(client: McpClient): void {
    this.#client = client;
  }

  /** The client this extension was given to; a one-line error before it was given to one. */
  protected get connected(): McpClient {
    if (!this.#client)
      throw new McpClientError(ErrorCode.InvalidRequest, `${this.constructor.name}: give it to an McpClient in \`extensions\` first`);
    return this.#client;
  }

  /** Whether the server declared the extension (its capabilities' `extensions`: server/discover or initialize). */
  get serverSupports(): boolean {
    const extensions = this.connected.serverCapabilities.extensions;
    return isObject(extensions) && isObject(extensions[this.id]);
  }
}
