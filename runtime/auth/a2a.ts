/**
 * @module auth/a2a — A2A security schemes (https://a2a-protocol.org/latest/specification/, AgentCard
 * `securitySchemes` and `securityRequirements`, modelled on OpenAPI 3.2's Security Scheme Object): the client
 * side picks the first requirement it holds credentials for and presents them (HTTP bearer, API key in a
 * header, query or cookie, OAuth 2 client credentials or authorization code with PKCE, via oauth4webapi); the
 * server side (`a2aAuthenticate`, the agent's `verifiers`) is runtime/a2a/security.ts, re-exported here.
 */
import type { AuthorizationServer, TokenEndpointResponse } from 'oauth4webapi';
import type { AgentCard } from '@wiregen/a2a-1.0';
import { kindOf, requirementsOf, schemeOf } from '../a2a/security.ts';
import { AuthError, requireSecureUrl } from './errors.ts';
import { authorizationCodeGrant, clientCredentialsGrant, markFallback, type AuthorizeCallback, type GrantContext } from './grants.ts';
import { clientAuthFor, type ClientCredentials } from './registration.ts';

type Awaitable<T> = T | Promise<T>;

/** What the client can present, by kind (a scheme of the card is used when its kind is here). */
export interface A2aCredentials {
  /** For `httpAuthSecurityScheme` bearer (and any OAuth 2 / OpenID scheme, as a token obtained elsewhere). */
  readonly bearer?: string | (() => Awaitable<string>);
  /** For `apiKeySecurityScheme`: the key, by scheme name (or one key for every API key scheme). */
  readonly apiKey?: string | Readonly<Record<string, string>>;
  /** For `oauth2SecurityScheme`: this client at the scheme's token URL (client credentials, or authorization code with `authorize`). */
  readonly oauth2?: ClientCredentials & {
    readonly authorize?: AuthorizeCallback;
    readonly redirectUri?: string;
  };
  /** The fetch to use. Default globalThis.fetch. */
  readonly fetch?: typeof fetch;
  /** Allow http to loopback token endpoints (tests). Default false. */
  readonly allowLoopbackHttp?: boolean;
}

// ---- client ------------------------------------------------------------------------------------------------

/** How one scheme's credential is added to a request. */
type Apply = (url: URL, headers: Headers) => Promise<void>;

/**
 * A `fetch` presenting the credentials the card asks for (pass it as the A2A transport's `fetch`, or give
 * `connect` the credentials as `auth`). A requirement is used when every scheme in it can be satisfied;
 * none satisfiable (with requirements declared) is an AuthError('configuration') naming the schemes.
 */
export function a2aClientAuth(card: AgentCard, credentials: A2aCredentials): { fetch: typeof fetch } {
  const base = credentials.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
  const requirements = requirementsOf(card);
  const tokens = new Map<string, { token: string; expiresAt?: number }>();
  const applierFor = (name: string, scopes: readonly string[]): Apply | undefined => {
    const scheme = schemeOf(card, name);
    const kind = kindOf(scheme);
    if (kind === 'apiKey' && credentials.apiKey !== undefined) {
      const { location, name: param } = scheme.apiKeySecurityScheme!;
      const key = typeof credentials.apiKey === 'string' ? credentials.apiKey : credentials.apiKey[name];
      if (key === undefined) return undefined;
      return async (url, headers) => {
        if (location === 'query') url.searchParams.set(param, key);
        else if (location === 'cookie') headers.append('cookie', `${param}=${encodeURIComponent(key)}`);
        else headers.set(param, key);
      };
    }
    if (kind === 'oauth2' && credentials.oauth2) {
      const oauth2 = credentials.oauth2;
      const flows = scheme.oauth2SecurityScheme!.flows;
      const flow = flows.clientCredentials && !oauth2.authorize ? flows.clientCredentials : flows.authorizationCode;
      if (!flow) return undefined;
      return async (_url, headers) => {
        const cached = tokens.get(name);
        if (cached && (cached.expiresAt === undefined || cached.expiresAt > Date.now() + 30_000))
          return void headers.set('authorization', `Bearer ${cached.token}`);
        const token = await oauth2Token(flow, flows.authorizationCode === flow, oauth2, scopes, base, credentials.allowLoopbackHttp === true);
        tokens.set(name, { token: token.access_token, ...(token.expires_in ? { expiresAt: Date.now() + token.expires_in * 1000 } : {}) });
        headers.set('authorization', `Bearer ${token.access_token}`);
      };
    }
    if ((kind === 'bearer' || kind === 'oauth2' || kind === 'openIdConnect') && credentials.bearer !== undefined) {
      const bearer = credentials.bearer;
      return async (_url, headers) => headers.set('authorization', `Bearer ${typeof bearer === 'string' ? bearer : await bearer()}`);
    }
    return undefined;
  };
  let chosen: Apply[] | undefined;
  for (const requirement of requirements) {
    const appliers = Object.entries(requirement).map(([name, scopes]) => applierFor(name, scopes));
    if (appliers.every((a): a is Apply => a !== undefined)) {
      chosen = appliers;
      break;
    }
  }
  if (requirements.length && !chosen)
    throw new AuthError(
      'configuration',
      `agent card ${card.name}: no credentials for any of its security requirements (${requirements.map((r) => Object.keys(r).join(' + ')).join(', ')})`,
    );
  const send = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init.headers);
    for (const apply of chosen ?? []) await apply(url, headers);
    return base(url.href, { ...init, headers });
  };
  return {
    fetch: async (input, init) => {
      const res = await send(input, init);
      if (res.status !== 401 || tokens.size === 0) return res;
      // An OAuth token the agent no longer takes: a new one, once.
      tokens.clear();
      await res.body?.cancel().catch(() => undefined);
      return send(input, init);
    },
  };
}

async function oauth2Token(
  flow: { tokenUrl: string; authorizationUrl?: string },
  interactive: boolean,
  client: NonNullable<A2aCredentials['oauth2']>,
  scopes: readonly string[],
  fetchFn: typeof fetch,
  allowLoopbackHttp: boolean,
): Promise<TokenEndpointResponse> {
  const tokenUrl = requireSecureUrl(new URL(flow.tokenUrl), 'token URL', allowLoopbackHttp);
  // The card gives endpoints, not metadata: the issuer is unknown, so there is no PKCE list or `iss` to compare.
  const as: AuthorizationServer = markFallback({
    issuer: tokenUrl.origin,
    token_endpoint: tokenUrl.href,
    ...(flow.authorizationUrl
      ? { authorization_endpoint: requireSecureUrl(new URL(flow.authorizationUrl), 'authorization URL', allowLoopbackHttp).href }
      : {}),
  });
  const stored = { client_id: client.client_id, ...(client.client_secret ? { client_secret: client.client_secret } : {}) };
  const ctx: GrantContext = {
    as,
    client: stored,
    clientAuth: await clientAuthFor(as, { ...stored, ...client }),
    scope: scopes.length ? scopes.join(' ') : undefined,
    fetch: fetchFn,
    allowLoopbackHttp,
  };
  if (!interactive) return clientCredentialsGrant(ctx);
  if (!client.authorize || !client.redirectUri)
    throw new AuthError('configuration', 'the authorization code flow needs oauth2.authorize and oauth2.redirectUri');
  return authorizationCodeGrant(ctx, client.authorize, client.redirectUri);
}

// ---- server: runtime/a2a/security.ts (no OAuth library), re-exported here ---------------------------------

export { a2aAuthenticate, type A2aVerifiers, type ApiKeyVerifier, type BearerGrant, type BearerVerifier } from '../a2a/security.ts';
