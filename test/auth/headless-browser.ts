/**
 * @module test/auth/headless-browser — the user's browser, for tests: it opens the authorization URL and
 * follows the authorization server's redirects until one leads to the client's redirect URI, which it
 * returns instead of loading (what a real browser hands a native client's loopback listener). An
 * authorization server that consents without asking (the conformance runner's, a mock server) needs nothing more.
 */
import type { AuthorizeCallback } from '../../runtime/auth/index.ts';

/** The authorization step without a person: at most `maxRedirects` hops, each one logged by `onHop` (URLs without query). */
export function headlessBrowser(
  fetchFn: typeof fetch = fetch,
  options: { maxRedirects?: number; onHop?: (url: string) => void } = {},
): AuthorizeCallback {
  return async (authorizationUrl, { redirectUri }) => {
    const target = new URL(redirectUri);
    let url = authorizationUrl;
    for (let hop = 0; hop < (options.maxRedirects ?? 5); hop++) {
      options.onHop?.(`${url.origin}${url.pathname}`);
      const res = await fetchFn(url.href, { redirect: 'manual' });
      await res.arrayBuffer().catch(() => undefined);
      const location = res.headers.get('location');
      if (!location) throw new Error(`the authorization server answered ${res.status} at ${url.origin}${url.pathname} without a redirect`);
      const next = new URL(location, url);
      if (next.origin === target.origin && next.pathname === target.pathname) return next;
      url = next;
    }
    throw new Error(`no redirect to ${redirectUri} within ${options.maxRedirects ?? 5} hops`);
  };
}
