/**
 * @module mcp/client/resume — the messages of a POST's SSE answer, resumed when the stream ends or breaks off
 * before the response: a GET with `Last-Event-ID` after the server's `retry:` hint (2025-11-25 resumability,
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery).
 * Each event id is delivered once, even when a server replays one. Resuming stops with an McpClientLimitError
 * after `maxResumeAttempts` attempts in a row that brought no new event, and at once when the server refuses
 * the GET.
 */
import { ErrorCode, parseJson } from '../../jsonrpc/message.ts';
import { McpClientError } from './errors.ts';
import { boundedEvents, checkDepth, McpClientLimitError, type McpClientLimits } from './limits.ts';

/** Where an SSE stream stopped, for resuming it: the last event id, the retry hint, the ids already delivered. */
export interface SseCursor {
  lastEventId?: string;
  retryMs?: number;
  readonly seen?: Set<string>;
}

/** How long to wait before resuming when the server gave no `retry:` hint. */
export const DEFAULT_RESUME_WAIT_MS = 1000;

/** The JSON messages of an SSE body within `limits`; events with empty data (a priming event) only move the cursor. */
export async function* sseMessages(body: ReadableStream<Uint8Array>, cursor: SseCursor, limits: Required<McpClientLimits>): AsyncIterable<unknown> {
  for await (const event of boundedEvents(body, limits)) {
    if (event.retryMs !== undefined) cursor.retryMs = event.retryMs;
    if (event.id !== undefined) {
      cursor.lastEventId = event.id;
      if (cursor.seen?.has(event.id)) continue; // replayed: delivered already
      cursor.seen?.add(event.id);
    }
    if (event.data.trim() === '') continue;
    checkDepth(event.data, limits);
    yield parseJson(event.data);
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => (signal.removeEventListener('abort', stop), resolve()), ms);
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener('abort', stop, { once: true });
  });
}

export interface ResumeOptions {
  readonly method: string;
  readonly limits: Required<McpClientLimits>;
  readonly signal: AbortSignal;
  /** GETs the stream again after `lastEventId`. */
  resume(lastEventId: string): Promise<Response>;
}

/** The messages of `body`; where it ends or breaks off with an event id, those of its resumed streams too. */
export async function* resumableMessages(body: ReadableStream<Uint8Array>, o: ResumeOptions): AsyncIterable<unknown> {
  const cursor: SseCursor = { seen: new Set() };
  const max = o.limits.maxResumeAttempts;
  let next: ReadableStream<Uint8Array> | undefined = body;
  let broke: unknown;
  let failures = 0; // resume attempts in a row that brought no new event
  for (;;) {
    const before = cursor.seen!.size;
    if (next) {
      try {
        yield* sseMessages(next, cursor, o.limits);
        broke = undefined;
      } catch (err) {
        // Ours (a limit, bad bytes) or the caller's (aborted) end the call; a read that failed is resumed.
        if (err instanceof McpClientError || o.signal.aborted) throw err;
        broke = err;
      }
    }
    if (cursor.lastEventId === undefined || max === 0) {
      if (broke === undefined) return;
      throw new McpClientError(
        ErrorCode.InternalError,
        `${o.method}: the SSE stream broke off: ${(broke as Error)?.message ?? String(broke)}`,
        undefined,
        {
          cause: broke,
        },
      );
    }
    failures = cursor.seen!.size > before ? 0 : failures + 1;
    if (failures >= max)
      throw new McpClientLimitError(
        'maxResumeAttempts',
        max,
        `${o.method}: the SSE stream did not resume after ${max} attempts (Last-Event-ID ${cursor.lastEventId})`,
      );
    await pause(cursor.retryMs ?? DEFAULT_RESUME_WAIT_MS, o.signal);
    let again: Response;
    try {
      again = await o.resume(cursor.lastEventId);
    } catch (err) {
      if (o.signal.aborted) throw err;
      next = undefined; // could not connect: another attempt
      continue;
    }
    if (!again.ok || !(again.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await again.arrayBuffer().catch(() => undefined);
      throw new McpClientError(ErrorCode.InternalError, `${o.method}: the server refused to resume its SSE stream (HTTP ${again.status})`, {
        status: again.status,
      });
    }
    next = again.body ?? undefined;
  }
}
