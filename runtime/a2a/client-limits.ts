/**
 * @module a2a/client-limits — what the A2A client reads of an agent's answer, on both bindings: the size of a
 * body or one SSE event, and how deeply a message nests. Past one the call fails with an A2aClientLimitError
 * naming the limit (client.ts turns the errors thrown here into it); nothing more of that answer is read.
 */
import { MAX_JSON_DEPTH, textExceedsDepth } from '../jsonrpc/limits.ts';
import { BodyEncodingError, BodyLimitError, readBoundedText } from '../transports/bounded-body.ts';
import { SseLimitError, sseEvents } from '../transports/sse.ts';

/** TransportOptions.limits. */
export interface A2aClientLimits {
  /** Largest body (its Content-Length, else as it arrives) or SSE event (in characters, at most its bytes). Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest nesting of one answer (the top-level object is level 1). Default 128 (MAX_JSON_DEPTH). */
  readonly maxDepth?: number;
}

export const A2A_CLIENT_LIMIT_DEFAULTS: Required<A2aClientLimits> = Object.freeze({ maxMessageBytes: 4 * 1024 * 1024, maxDepth: MAX_JSON_DEPTH });

/** A limit an answer went past: what client.ts reports as A2aClientLimitError. */
export class LimitExceeded extends Error {
  readonly limit: keyof A2aClientLimits;
  readonly max: number;
  constructor(limit: keyof A2aClientLimits, max: number, what: string) {
    super(`${what} (${limit} ${max})`);
    this.limit = limit;
    this.max = max;
  }
}

/** Parses answer `text` after checking its depth (nothing walks a message nested past the limit). */
export function parseBounded(text: string, limits: Required<A2aClientLimits>): unknown {
  if (textExceedsDepth(text, limits.maxDepth))
    throw new LimitExceeded('maxDepth', limits.maxDepth, `the agent's answer nests deeper than ${limits.maxDepth} levels`);
  return JSON.parse(text);
}

/** The body as text within maxMessageBytes; bytes that are not UTF-8 are a BodyEncodingError. */
export async function boundedBody(res: Response, limits: Required<A2aClientLimits>): Promise<string> {
  try {
    return await readBoundedText(res, limits.maxMessageBytes);
  } catch (err) {
    if (err instanceof BodyLimitError) throw new LimitExceeded('maxMessageBytes', err.limit, `the agent's answer is larger than ${err.limit} bytes`);
    throw err;
  }
}

/** The JSON payloads of an SSE body within the limits, one per event with data. */
export async function* boundedSseJson(body: ReadableStream<Uint8Array>, limits: Required<A2aClientLimits>): AsyncIterable<unknown> {
  try {
    for await (const event of sseEvents(body, { maxEventChars: limits.maxMessageBytes, fatalUtf8: true }))
      if (event.data.trim() !== '') yield parseBounded(event.data, limits);
  } catch (err) {
    if (err instanceof SseLimitError)
      throw new LimitExceeded('maxMessageBytes', err.limit, `an SSE event from the agent is larger than ${err.limit} bytes`);
    if (err instanceof TypeError && /encod|decod/i.test(err.message)) throw new BodyEncodingError();
    throw err;
  }
}
