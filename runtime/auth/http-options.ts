/**
 * @module auth/http-options — the per-request options every oauth4webapi call of this area gets: the fetch to
 * use, the signal, and whether http is allowed (only ever to loopback hosts: every URL is first checked by
 * `requireSecureUrl`, auth/errors.ts).
 */
import * as oauth from 'oauth4webapi';

export interface HttpContext {
  readonly fetch: typeof fetch;
  readonly allowLoopbackHttp: boolean;
  readonly signal?: AbortSignal | undefined;
}

/** oauth4webapi's request options for `ctx`. */
export function httpOptions(ctx: HttpContext) {
  return {
    [oauth.customFetch]: ctx.fetch,
    // oauth4webapi refuses http unless told; requireSecureUrl already refused every non-loopback http URL.
    ...(ctx.allowLoopbackHttp ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}
