/**
 * @module mcp/client/errors — the error an McpClient raises: the server's error, a result that is not what the
 * schema says, or a timeout.
 */

/** A failure the client raises: the server's error, a result that is not what the schema says, or a timeout. */
export class McpClientError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpClientError';
    this.code = code;
    this.data = data;
  }
}
