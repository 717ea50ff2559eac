/**
 * @module auth/bounded-fetch — the fetch the OAuth client talks to authorization servers through (discovery,
 * registration, token requests): an answer larger than a limit is refused, by its Content-Length before it is
 * read and as it arrives otherwise, and a request, its body included, must end within a time limit. An
 * authorization server's documents and token responses are a few kilobytes; one that sends megabytes, trickles
 * or never ends is refused with an AuthError ('response-limit') naming the URL and the limit.
 */
import { AuthError } from './errors.ts';

export interface AuthResponseLimits {
  /** Largest answer body, in bytes. Default {@link AUTH_RESPONSE_LIMIT_DEFAULTS}.maxBytes (1 MiB). */
  readonly maxBytes?: number;
  /** Longest time from sending a request to the end of its answer's body, in ms. Default 30 s. */
  readonly timeoutMs?: number;
}

export const AUTH_RESPONSE_LIMIT_DEFAULTS = { maxBytes: 1 << 20, timeoutMs: 30_000 } as const;

const urlOf = (input: string | URL | Request): string => (input instanceof Request ? input.url : String(input));

/** `inner`, bounded by `limits`: what the OAuth client hands to discovery, registration and the grants. */
export function boundedFetch(inner: typeof fetch, limits: AuthResponseLimits = {}): typeof fetch {
  const maxBytes = limits.maxBytes ?? AUTH_RESPONSE_LIMIT_DEFAULTS.maxBytes;
  const timeoutMs = limits.timeoutMs ?? AUTH_RESPONSE_LIMIT_DEFAULTS.timeoutMs;
  return async (input, init = {}) => {
    const url = urlOf(input);
    const late = () => new AuthError('response-limit', `${url}: no complete answer within ${timeoutMs} ms`);
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timer]) : timer;
    let res: Response;
    try {
      res = await inner(input, { ...init, signal });
    } catch (err) {
      throw timer.aborted ? late() : err;
    }
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new AuthError('response-limit', `${url}: the answer is larger than ${maxBytes} bytes (Content-Length ${declared})`);
    }
    if (!res.body) return res;
    let seen = 0;
    const reader = res.body.getReader();
    // The body, counted; a read the timer cut short is the time limit's error, not fetch's AbortError.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          controller.error(timer.aborted ? late() : err);
          return;
        }
        if (chunk.done) return controller.close();
        seen += chunk.value.byteLength;
        if (seen > maxBytes) {
          controller.error(new AuthError('response-limit', `${url}: the answer is larger than ${maxBytes} bytes`));
          await reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const bounded = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    // What oauth4webapi and discovery read of the answer besides its body.
    Object.defineProperty(bounded, 'url', { value: res.url });
    Object.defineProperty(bounded, 'redirected', { value: res.redirected });
    return bounded;
  };
}
