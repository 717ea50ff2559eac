/**
 * @module mcp/client/limits — what an McpClient accepts from a server before it gives a call up: the size of one
 * message (a JSON body, one SSE event, one stdio line), how deeply it nests, and how large the headers it
 * mirrors into a request may be. A server past one gets an McpClientLimitError naming the limit; nothing it
 * sends is buffered past them.
 */
import { ErrorCode } from '../../jsonrpc/message.ts';
import { MAX_JSON_DEPTH, textExceedsDepth } from '../../jsonrpc/limits.ts';
import { BodyEncodingError, BodyLimitError, readBoundedText } from '../../transports/bounded-body.ts';
import { SseLimitError, sseEvents, type SseEvent } from '../../transports/sse.ts';
import { McpClientError } from './errors.ts';

/** The limits of a client's channel (HttpChannelOptions.limits, spawnStdio's `limits`). */
export interface McpClientLimits {
  /** Largest message from the server, in bytes: a JSON body, one SSE event, one stdio line. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest nesting of a message from the server (the message object is level 1). Default 128 (MAX_JSON_DEPTH). */
  readonly maxDepth?: number;
  /**
   * Largest total of the headers a 2026-07-28 request mirrors from its body (`Mcp-Method`, `Mcp-Name`,
   * `Mcp-Param-*`: name, value and `: ` and CRLF), in bytes; a request past it is not sent. Default 8 KiB,
   * half of Node's default header limit (16 KiB), which a server answers with 431.
   */
  readonly maxHeaderBytes?: number;
  /**
   * Attempts in a row to resume a call's SSE stream (GET with Last-Event-ID) that bring no new event, before the
   * call fails; 0 never resumes. Default 5.
   */
  readonly maxResumeAttempts?: number;
}

export const CLIENT_LIMIT_DEFAULTS: Required<McpClientLimits> = Object.freeze({
  maxMessageBytes: 4 * 1024 * 1024,
  maxDepth: MAX_JSON_DEPTH,
  maxHeaderBytes: 8 * 1024,
  maxResumeAttempts: 5,
});

/** A server (or a request of ours) past one of the client's limits; `limit` is the option's name. */
export class McpClientLimitError extends McpClientError {
  readonly limit: keyof McpClientLimits;
  readonly max: number;
  constructor(limit: keyof McpClientLimits, max: number, what: string) {
    super(ErrorCode.InternalError, `${what} (${limit} ${max})`, { limit, max });
    this.name = 'McpClientLimitError';
    this.limit = limit;
    this.max = max;
  }
}

/** The limits with their defaults. */
export const resolveLimits = (limits: McpClientLimits = {}): Required<McpClientLimits> => ({ ...CLIENT_LIMIT_DEFAULTS, ...limits });

/** Refuses message `text` nesting deeper than the limit, before anything walks it. */
export function checkDepth(text: string, limits: Required<McpClientLimits>): void {
  if (textExceedsDepth(text, limits.maxDepth))
    throw new McpClientLimitError('maxDepth', limits.maxDepth, `a message from the server nests deeper than ${limits.maxDepth} levels`);
}

/**
 * A body as UTF-8 text, refusing one over `maxMessageBytes` (its Content-Length, else as it arrives: the rest is
 * not read) and bytes that are not UTF-8 (McpClientError -32700).
 */
export async function boundedText(res: Response, limits: Required<McpClientLimits>): Promise<string> {
  try {
    return await readBoundedText(res, limits.maxMessageBytes);
  } catch (err) {
    if (err instanceof BodyLimitError)
      throw new McpClientLimitError('maxMessageBytes', err.limit, `the server's answer is larger than ${err.limit} bytes`);
    if (err instanceof BodyEncodingError) throw notUtf8();
    throw err;
  }
}

/**
 * The events of an SSE answer within the limits: one event past `maxMessageBytes` (counted in characters, at
 * most its bytes) is an McpClientLimitError, bytes that are not UTF-8 an McpClientError -32700.
 */
export async function* boundedEvents(body: ReadableStream<Uint8Array>, limits: Required<McpClientLimits>): AsyncIterable<SseEvent> {
  try {
    yield* sseEvents(body, { maxEventChars: limits.maxMessageBytes, fatalUtf8: true });
  } catch (err) {
    if (err instanceof SseLimitError)
      throw new McpClientLimitError(
        'maxMessageBytes',
        limits.maxMessageBytes,
        `an SSE event from the server is larger than ${limits.maxMessageBytes} bytes`,
      );
    if (err instanceof TypeError && /encod|decod/i.test(err.message)) throw notUtf8();
    throw err;
  }
}

/** The answer held bytes that are not UTF-8 (JSON text is UTF-8: RFC 8259 §8.1). */
export const notUtf8 = () => new McpClientError(ErrorCode.ParseError, 'the server sent bytes that are not UTF-8 (RFC 8259 §8.1)');
