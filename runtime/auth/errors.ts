/**
 * @module auth/errors — the one error type of the authorization area: every refusal names the check that
 * failed (`check`) and, in its one-line message, the URL, field or parameter it was about. Clients and
 * servers alike throw it; nothing in it ever holds a token value.
 */

/** Which check refused (what a caller switches on; the message says the rest). */
export type AuthCheck =
  /** An endpoint or document URL that is not https (loopback http only when allowed). */
  | 'insecure-endpoint'
  /** Protected Resource Metadata (RFC 9728) unusable: not JSON, no `resource`, no authorization server. */
  | 'resource-metadata'
  /** The metadata's `resource` is not the server the client talks to (RFC 9728 §3.3, RFC 8707). */
  | 'resource-mismatch'
  /** No authorization server metadata at any well-known URL (RFC 8414 §3, OpenID Connect Discovery §4). */
  | 'metadata-not-found'
  /** The metadata's `issuer` is not the issuer identifier its well-known URL was built from (RFC 8414 §3.3). */
  | 'issuer-mismatch'
  /** The authorization server does not list PKCE S256 (code_challenge_methods_supported), so no code flow is started. */
  | 'pkce-unsupported'
  /** The authorization response's `state` is not the one sent (RFC 6749 §10.12). */
  | 'state-mismatch'
  /** The authorization response's `iss` is missing though advertised, or not the issuer (RFC 9207 §2.4). */
  | 'iss-mismatch'
  /** The authorization server answered the authorization request with an error (RFC 6749 §4.1.2.1). */
  | 'authorization-denied'
  /** No way to identify the client to this authorization server (no pre-registration, CIMD or registration endpoint). */
  | 'client-registration'
  /** The token endpoint refused the grant, or answered something that is not a token response. */
  | 'token-request'
  /** The server still refuses after a new token (401), or keeps asking for scopes already granted (403). */
  | 'unauthorized'
  | 'insufficient-scope'
  /** Server side: no token, or a token that is malformed, tampered with, expired, for another audience or issuer. */
  | 'invalid-token'
  /** An authorization server's answer past the client's limits: too large, or not complete in time (bounded-fetch.ts). */
  | 'response-limit'
  /** A configuration the caller gave that cannot work (a missing option, a key that does not import). */
  | 'configuration';

/** A refusal by one of the authorization checks. `check` says which; `status` is the HTTP status it maps to, server side. */
export class AuthError extends Error {
  readonly check: AuthCheck;
  constructor(check: AuthCheck, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthError';
    this.check = check;
  }
}

/** Whether `host` is a loopback name or address (RFC 8252 §7.3: loopback redirects may be http). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Refuses a URL the client would send something to unless it is https, or http on a loopback host when
 * `allowLoopbackHttp` says so (OAuth 2.1 §1.5: TLS for every endpoint). `what` names it in the message.
 */
export function requireSecureUrl(url: URL, what: string, allowLoopbackHttp: boolean): URL {
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url.hostname)) return url;
  throw new AuthError('insecure-endpoint', `${what} ${url.href} is not https${allowLoopbackHttp ? ' (http is allowed on loopback only)' : ''}`);
}
