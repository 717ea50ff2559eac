/**
 * @module auth/oauth-client — an OAuth 2.1 client for protected MCP servers
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization), as a `fetch`: requests go out
 * with the server's access token (Bearer, or DPoP-bound with a fresh proof each, RFC 9449 §7); a 401 starts
 * discovery (auth/metadata.ts), identification (auth/registration.ts) and a grant (auth/grants.ts), then the
 * request is sent again; a 403 `insufficient_scope` re-authorizes once per new scope set for the union of the
 * scopes held and challenged (step-up); an expired token is refreshed. Give it to `HttpChannel`
 * (`new HttpChannel(url, { auth })`) or call `fetch` yourself.
 */
import { type AuthResponseLimits, boundedFetch } from './bounded-fetch.ts';
import * as oauth from 'oauth4webapi';
import { parseChallenges, primaryChallenge, scopeList, type Challenge } from './challenge.ts';
import { AuthError, requireSecureUrl } from './errors.ts';
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  genericGrant,
  identityAssertionGrant,
  JWT_BEARER,
  markFallback,
  refreshGrant,
  TOKEN_EXCHANGE,
  type AuthorizeCallback,
  type GrantContext,
  type IdentityProvider,
} from './grants.ts';
import { httpOptions } from './http-options.ts';
import {
  canonicalResource,
  defaultEndpoints,
  discoverAuthorizationServer,
  discoverResource,
  resourceCovers,
  type ResourceMetadata,
} from './metadata.ts';
import { clientAuthFor, clientFor, type ClientCredentials, type ClientMetadata } from './registration.ts';
import { MemoryAuthStore, type AuthStore, type StoredGrant } from './store.ts';

type Awaitable<T> = T | Promise<T>;

/** How the client obtains tokens. */
export type Grant =
  /** A user authorizes in a browser (the default): `authorize` shows them the authorization URL. */
  | { readonly type: 'authorization-code' }
  /** The client acts for itself with its own credentials (`client`). */
  | { readonly type: 'client-credentials' }
  /** A JWT from elsewhere (a workload identity, RFC 7523 §2.1) is the grant. */
  | { readonly type: 'jwt-bearer'; readonly assertion: () => Awaitable<string> }
  /** A token from elsewhere is exchanged at the authorization server (RFC 8693). */
  | {
      readonly type: 'token-exchange';
      readonly subjectToken: () => Awaitable<string>;
      readonly subjectTokenType: string;
      readonly requestedTokenType?: string;
      readonly audience?: string;
    }
  /** Enterprise-Managed Authorization: the user's ID token, exchanged at the IdP for an ID-JAG. */
  | { readonly type: 'identity-assertion'; readonly idToken: () => Awaitable<string>; readonly idp: IdentityProvider };

export interface OAuthClientOptions {
  /** How tokens are obtained. Default `{ type: 'authorization-code' }`. */
  readonly grant?: Grant;
  /** The interactive step of the authorization code grant (required for it): open the URL, resolve with the redirect back. */
  readonly authorize?: AuthorizeCallback;
  /** Where the authorization server redirects back. Default the first of `clientMetadata.redirect_uris`. */
  readonly redirectUri?: string;
  /** Client metadata for Dynamic Client Registration (and what a Client ID Metadata Document says). Default `{}`. */
  readonly clientMetadata?: ClientMetadata;
  /** This client's Client ID Metadata Document URL: its client_id where the server supports CIMD. Default none. */
  readonly clientMetadataUrl?: string;
  /** Pre-registered credentials, for every authorization server or per issuer. Default none (CIMD, then registration). */
  readonly client?: ClientCredentials | ((issuer: string) => ClientCredentials | undefined);
  /** Scopes to ask for when the server's challenge names none. Default: the resource metadata's `scopes_supported`. */
  readonly scope?: string;
  /** Ask for `offline_access` (a refresh token) where the authorization server lists it (SEP-2207). Default true. */
  readonly offlineAccess?: boolean;
  /** DPoP-bound tokens (RFC 9449): 'auto' when the server lists ES256 in `dpop_signing_alg_values_supported`. Default 'auto'. */
  readonly dpop?: boolean | 'auto';
  /** Where grants and registrations are kept. Default a MemoryAuthStore. */
  readonly store?: AuthStore;
  /** The fetch every request goes through. Default globalThis.fetch. */
  readonly fetch?: typeof fetch;
  /** Allow http to loopback hosts (tests, local development); https is required everywhere else. Default false. */
  readonly allowLoopbackHttp?: boolean;
  /** Most step-up re-authorizations of one request (403 insufficient_scope). Default 2. */
  readonly maxStepUps?: number;
  /**
   * Limits on an authorization server's answers (metadata, registration, tokens): size and time. Default
   * 1 MiB and 30 s; past one the authorization fails with AuthError 'response-limit'.
   */
  readonly responseLimits?: AuthResponseLimits;
}

/** Refresh a token this long before it expires. */
const EXPIRY_MARGIN_MS = 30_000;

interface Authorized {
  readonly as: oauth.AuthorizationServer;
  readonly resource: string;
}

export class OAuthClient {
  readonly options: OAuthClientOptions;
  readonly store: AuthStore;
  readonly #fetch: typeof fetch;
  /** #fetch bounded by `responseLimits`: every request to an authorization server goes through it. */
  readonly #authFetch: typeof fetch;
  #dpop: oauth.DPoPHandle | undefined;
  /** The authorization server of each server URL, once discovered (for refresh). */
  readonly #servers = new Map<string, Authorized>();

  constructor(options: OAuthClientOptions = {}) {
    this.options = options;
    this.store = options.store ?? new MemoryAuthStore();
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#authFetch = boundedFetch(this.#fetch, options.responseLimits);
  }

  get #allowLoopbackHttp(): boolean {
    return this.options.allowLoopbackHttp === true;
  }

  /** A `fetch` that authorizes: pass it wherever a fetch goes (`HttpChannel`'s `auth` does). Bodies must be strings (they may be sent twice). */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const server = canonicalResource(url);
    let authorized = false;
    let stepUps = 0;
    let nonceRetried = false;
    for (;;) {
      const grant = await this.#usableGrant(server, url);
      const res = grant ? await this.#withToken(grant, url, init) : await this.#fetch(url.href, init);
      if (res.status !== 401 && res.status !== 403) return res;
      const challenges = parseChallenges(res.headers.get('www-authenticate'));
      const challenge = primaryChallenge(challenges);
      if (!challenge) return res;
      // RFC 9449 §9: the server wants a nonce in the proof; the handle kept the one it sent.
      if (grant && challenge.params['error'] === 'use_dpop_nonce' && !nonceRetried && this.#dpop) {
        nonceRetried = true;
        await res.body?.cancel().catch(() => undefined);
        continue;
      }
      await res.body?.cancel().catch(() => undefined);
      if (res.status === 401) {
        if (authorized) throw new AuthError('unauthorized', `${server} refused the access token it was just granted (HTTP 401)`);
        authorized = true;
        await this.#authorize(url, challenge, grant, init.signal ?? undefined);
        continue;
      }
      if (challenge.params['error'] !== 'insufficient_scope' || !grant) return res;
      const held = scopeList(grant.scope);
      const wanted = [...new Set([...held, ...scopeList(challenge.params['scope'])])];
      if (wanted.length === held.length || stepUps >= (this.options.maxStepUps ?? 2))
        throw new AuthError(
          'insufficient-scope',
          `${server} answered 403 insufficient_scope${challenge.params['scope'] ? ` for "${challenge.params['scope']}"` : ''}, and the token already holds "${grant.scope ?? ''}"`,
        );
      stepUps++;
      await this.#authorize(url, challenge, grant, init.signal ?? undefined, wanted.join(' '));
    }
  };

  /** The stored grant for `server` when it may be sent to `url`: refreshed when expired, dropped when it cannot be. */
  async #usableGrant(server: string, url: URL): Promise<StoredGrant | undefined> {
    const grant = await this.store.getGrant(server);
    if (!grant || !resourceCovers(grant.resource, url)) return undefined;
    if (grant.expiresAt === undefined || grant.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return grant;
    const known = this.#servers.get(server);
    if (grant.refreshToken && known) {
      try {
        return await this.#save(server, known, await refreshGrant(await this.#context(known, grant.scope), grant.refreshToken), grant.scope, grant);
      } catch {
        // A refresh token that no longer works: fall through to a new authorization on the 401.
      }
    }
    await this.store.deleteGrant(server);
    return undefined;
  }

  /** Sends the request with the token (a DPoP proof too for a DPoP-bound one); a challenge answer is returned, not thrown. */
  async #withToken(grant: StoredGrant, url: URL, init: RequestInit): Promise<Response> {
    requireSecureUrl(url, 'protected resource', this.#allowLoopbackHttp);
    const headers = new Headers(init.headers);
    const dpop = grant.tokenType === 'dpop' ? this.#dpop : undefined;
    try {
      return await oauth.protectedResourceRequest(
        grant.accessToken,
        init.method ?? 'GET',
        url,
        headers,
        // fetch's BodyInit is wider (Blob, FormData); callers send strings (HttpChannel does), which both types take.
        init.body as oauth.ProtectedResourceRequestBody,
        {
          ...httpOptions({ fetch: this.#fetch, allowLoopbackHttp: this.#allowLoopbackHttp, signal: init.signal ?? undefined }),
          ...(dpop ? { DPoP: dpop } : {}),
        },
      );
    } catch (err) {
      if (err instanceof oauth.WWWAuthenticateChallengeError) return err.response;
      throw err;
    }
  }

  /** Discovery, identification and a grant for the server at `url`, after `challenge`; the new grant is stored. */
  async #authorize(
    url: URL,
    challenge: Challenge,
    previous: StoredGrant | undefined,
    signal: AbortSignal | undefined,
    stepUpScope?: string,
  ): Promise<void> {
    const server = canonicalResource(url);
    const discovery = { fetch: this.#authFetch, allowLoopbackHttp: this.#allowLoopbackHttp, ...(signal ? { signal } : {}) };
    const prm = await discoverResource(url, challenge.params['resource_metadata'], discovery);
    const authorized = await this.#authorizationServer(url, prm, discovery);
    this.#servers.set(server, authorized);
    // Tokens and registrations are bound to the issuer that granted them: a new issuer starts from nothing.
    const sameIssuer = previous?.issuer === authorized.as.issuer;
    if (previous && !sameIssuer) await this.store.deleteGrant(server);
    const scope = this.#scope(authorized.as, prm, challenge, stepUpScope);
    if (sameIssuer && previous?.refreshToken && stepUpScope === undefined) {
      try {
        await this.#save(server, authorized, await refreshGrant(await this.#context(authorized, scope), previous.refreshToken), scope, previous);
        return;
      } catch {
        // The refresh token no longer works: a new grant follows.
      }
    }
    await this.#save(server, authorized, await this.#grant(await this.#context(authorized, scope, signal)), scope);
  }

  async #authorizationServer(url: URL, prm: ResourceMetadata | undefined, discovery: Parameters<typeof discoverResource>[2]): Promise<Authorized> {
    if (prm) {
      const issuer = prm.authorization_servers?.[0];
      if (!issuer) throw new AuthError('resource-metadata', `resource metadata for ${prm.resource} lists no authorization_servers`);
      const as = await discoverAuthorizationServer(issuer, discovery);
      if (!as) throw new AuthError('metadata-not-found', `authorization server ${issuer} has no metadata at any well-known URL`);
      return { as, resource: prm.resource };
    }
    // No resource metadata: a 2025-03-26 server, its own authorization server at its origin.
    const origin = url.origin;
    const as = (await discoverAuthorizationServer(origin, discovery)) ?? markFallback(defaultEndpoints(origin));
    return { as, resource: canonicalResource(url) };
  }

  /**
   * The scope to ask for (the specification's scope selection strategy): a step-up's union, else the challenge's
   * `scope`, else the configured one, else the resource metadata's `scopes_supported`, else none; plus
   * `offline_access` when the authorization server lists it and the grant can use a refresh token.
   */
  #scope(as: oauth.AuthorizationServer, prm: ResourceMetadata | undefined, challenge: Challenge, stepUp: string | undefined): string | undefined {
    const base = stepUp ?? challenge.params['scope'] ?? this.options.scope ?? prm?.scopes_supported?.join(' ');
    const scopes = scopeList(base);
    const interactive = (this.options.grant?.type ?? 'authorization-code') === 'authorization-code';
    if (interactive && this.options.offlineAccess !== false && as.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access'))
      scopes.push('offline_access');
    return scopes.length ? scopes.join(' ') : undefined;
  }

  /** Whether to bind tokens from `as` with DPoP, and the key handle if so (one ES256 key per client). */
  async #dpopFor(as: oauth.AuthorizationServer): Promise<oauth.DPoPHandle | undefined> {
    const wanted = this.options.dpop ?? 'auto';
    if (wanted === false) return undefined;
    if (wanted === 'auto' && !as.dpop_signing_alg_values_supported?.includes('ES256')) return undefined;
    if (!this.#dpop) {
      const keys = await oauth.generateKeyPair('ES256');
      this.#dpop = oauth.DPoP({}, keys);
    }
    return this.#dpop;
  }

  async #context(authorized: Authorized, scope: string | undefined, signal?: AbortSignal): Promise<GrantContext> {
    const { as } = authorized;
    const grantTypes = this.#grantTypes();
    const client = await clientFor(
      as,
      {
        store: this.store,
        client: this.options.client,
        clientMetadataUrl: this.options.clientMetadataUrl,
        metadata: { ...this.options.clientMetadata, ...(this.options.redirectUri ? { redirect_uris: [this.options.redirectUri] } : {}) },
        fetch: this.#authFetch,
        allowLoopbackHttp: this.#allowLoopbackHttp,
        signal,
      },
      grantTypes,
    );
    return {
      as,
      client,
      clientAuth: await clientAuthFor(as, client),
      resource: authorized.resource,
      scope,
      dpop: await this.#dpopFor(as),
      fetch: this.#authFetch,
      allowLoopbackHttp: this.#allowLoopbackHttp,
      signal,
    };
  }

  #grantTypes(): string[] {
    switch (this.options.grant?.type ?? 'authorization-code') {
      case 'authorization-code':
        return ['authorization_code', 'refresh_token'];
      case 'client-credentials':
        return ['client_credentials'];
      case 'token-exchange':
        return [TOKEN_EXCHANGE];
      default:
        return [JWT_BEARER];
    }
  }

  async #grant(ctx: GrantContext): Promise<oauth.TokenEndpointResponse> {
    const grant = this.options.grant ?? { type: 'authorization-code' };
    switch (grant.type) {
      case 'authorization-code': {
        const redirectUri = this.options.redirectUri ?? this.options.clientMetadata?.redirect_uris?.[0];
        if (!this.options.authorize || !redirectUri)
          throw new AuthError(
            'configuration',
            'the authorization code grant needs `authorize` and a redirect URI (redirectUri or clientMetadata.redirect_uris)',
          );
        return authorizationCodeGrant(ctx, this.options.authorize, redirectUri);
      }
      case 'client-credentials':
        return clientCredentialsGrant(ctx);
      case 'jwt-bearer':
        return genericGrant(ctx, JWT_BEARER, { assertion: await grant.assertion() });
      case 'token-exchange':
        return genericGrant(ctx, TOKEN_EXCHANGE, {
          subject_token: await grant.subjectToken(),
          subject_token_type: grant.subjectTokenType,
          ...(grant.requestedTokenType ? { requested_token_type: grant.requestedTokenType } : {}),
          ...(grant.audience ? { audience: grant.audience } : {}),
        });
      case 'identity-assertion':
        return identityAssertionGrant(ctx, grant.idp, await grant.idToken());
    }
  }

  /** Stores a token response as the server's grant (a refresh keeps the refresh token it was not sent a new one of). */
  async #save(
    server: string,
    authorized: Authorized,
    response: oauth.TokenEndpointResponse,
    requested: string | undefined,
    previous?: StoredGrant,
  ): Promise<StoredGrant> {
    const refreshToken = response.refresh_token ?? previous?.refreshToken;
    const scope = response.scope ?? requested;
    const grant: StoredGrant = {
      issuer: authorized.as.issuer,
      resource: authorized.resource,
      accessToken: response.access_token,
      tokenType: response.token_type,
      ...(refreshToken ? { refreshToken } : {}),
      ...(typeof response.expires_in === 'number' ? { expiresAt: Date.now() + response.expires_in * 1000 } : {}),
      ...(scope ? { scope } : {}),
    };
    await this.store.setGrant(server, grant);
    return grant;
  }
}
