/**
 * @module auth/a2a — A2A security schemes (https://a2a-protocol.org/latest/specification/, AgentCard
 * `securitySchemes` and `securityRequirements`, modelled on OpenAPI 3.2's Security Scheme Object): the client
 * side picks the first requirement it holds credentials for and presents them (HTTP bearer, API key in a
 * header, query or cookie, OAuth 2 client credentials or authorization code with PKCE, via oauth4webapi); the
 * server side enforces the card's requirements on both bindings through the HTTP options' `authenticate`,
 * answering a refusal with the 401 and `Bearer realm=…` challenge the deployer kit uses.
 */
import type { AuthorizationServer, TokenEndpointResponse } from 'oauth4webapi';
import type { AuthRequest, Authenticate } from '../a2a/http.ts';
import type { AgentCard, SecurityScheme } from '@wiregen/a2a-1.0';
import { formatChallenge, scopeList } from './challenge.ts';
import { AuthError, requireSecureUrl } from './errors.ts';
import { authorizationCodeGrant, clientCredentialsGrant, markFallback, type AuthorizeCallback, type GrantContext } from './grants.ts';
import { clientAuthFor, type ClientCredentials } from './registration.ts';
import type { TokenInfo, TokenVerifier } from './resource-server.ts';

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

type Kind = 'bearer' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'basic' | 'mtls';

function kindOf(scheme: SecurityScheme): Kind | undefined {
  if (scheme.apiKeySecurityScheme) return 'apiKey';
  if (scheme.httpAuthSecurityScheme) return scheme.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer' ? 'bearer' : 'basic';
  if (scheme.oauth2SecurityScheme) return 'oauth2';
  if (scheme.openIdConnectSecurityScheme) return 'openIdConnect';
  if (scheme.mtlsSecurityScheme) return 'mtls';
  return undefined;
}

/** The card's requirements as (scheme name → scopes) maps; none means the agent is public. */
function requirementsOf(card: AgentCard): Record<string, readonly string[]>[] {
  return (card.securityRequirements ?? []).map((r) =>
    Object.fromEntries(Object.entries(r.schemes ?? {}).map(([name, list]) => [name, list.list ?? []])),
  );
}

function schemeOf(card: AgentCard, name: string): SecurityScheme {
  const scheme = card.securitySchemes?.[name];
  if (!scheme)
    throw new AuthError('configuration', `agent card ${card.name}: securityRequirements names ${name}, which securitySchemes does not define`);
  return scheme;
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

// ---- server ------------------------------------------------------------------------------------------------

export interface A2aVerifiers {
  /** Checks a bearer token (HTTP bearer, OAuth 2 and OpenID Connect schemes): its info, or an AuthError('invalid-token'). */
  readonly bearer?: TokenVerifier;
  /** Whether an API key is valid for the scheme `name`. */
  readonly apiKey?: (key: string, name: string) => Awaitable<boolean>;
}

function apiKeyOf(req: AuthRequest, location: string, param: string): string | undefined {
  if (location === 'query') return new URL(req.url ?? '/', 'http://localhost').searchParams.get(param) ?? undefined;
  if (location === 'cookie') {
    const cookies = String(req.headers['cookie'] ?? '').split(/;\s*/);
    const found = cookies.find((c) => c.startsWith(`${param}=`));
    return found === undefined ? undefined : decodeURIComponent(found.slice(param.length + 1));
  }
  const value = req.headers[param.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The `authenticate` option (A2aHttpOptions) that enforces the card's `securityRequirements` on both
 * bindings: a request passes when one requirement's schemes all pass (bearer tokens by `verifiers.bearer`,
 * with the requirement's scopes; API keys by `verifiers.apiKey`). A refusal is a `Bearer realm="<card name>"`
 * challenge, with `error="invalid_token"` or `"insufficient_scope"` when a token was presented.
 */
export function a2aAuthenticate(card: AgentCard, verifiers: A2aVerifiers): Authenticate {
  const requirements = requirementsOf(card);
  for (const requirement of requirements) for (const name of Object.keys(requirement)) schemeOf(card, name);
  const realm = card.name;
  const checkScheme = async (req: AuthRequest, name: string, scopes: readonly string[]): Promise<void> => {
    const scheme = schemeOf(card, name);
    const kind = kindOf(scheme);
    if (kind === 'apiKey') {
      const { location, name: param } = scheme.apiKeySecurityScheme!;
      const key = apiKeyOf(req, location, param);
      if (key === undefined) throw new AuthError('invalid-token', `no API key (${location} ${param})`);
      if (!verifiers.apiKey || !(await verifiers.apiKey(key, name))) throw new AuthError('invalid-token', `the API key for ${name} is not valid`);
      return;
    }
    if (kind === 'bearer' || kind === 'oauth2' || kind === 'openIdConnect') {
      const header = req.headers['authorization'];
      const token = /^Bearer +(\S+)$/i.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''))?.[1];
      if (!token) throw new AuthError('invalid-token', 'no bearer token');
      if (!verifiers.bearer) throw new AuthError('configuration', `scheme ${name} needs a bearer verifier`);
      const info: TokenInfo = await verifiers.bearer(token);
      const missing = scopes.filter((s) => !info.scopes.includes(s));
      if (missing.length) throw new AuthError('insufficient-scope', `the token lacks scope ${missing.join(' ')}`);
      return;
    }
    throw new AuthError('configuration', `scheme ${name} (${kind ?? 'unknown'}) cannot be checked here`);
  };
  return async (req) => {
    if (!requirements.length) return { ok: true };
    let refusal: AuthError | undefined;
    for (const requirement of requirements) {
      try {
        for (const [name, scopes] of Object.entries(requirement)) await checkScheme(req, name, scopes);
        return { ok: true };
      } catch (err) {
        if (!(err instanceof AuthError) || err.check === 'configuration') throw err;
        // The most telling refusal: a presented-but-rejected credential over a missing one.
        if (!refusal || (refusal.message.startsWith('no ') && !err.message.startsWith('no '))) refusal = err;
      }
    }
    const presented = refusal && !refusal.message.startsWith('no ');
    const scope = [...new Set(requirements.flatMap((r) => Object.values(r).flat()))];
    return {
      ok: false,
      challenge: formatChallenge('Bearer', {
        realm,
        ...(scope.length ? { scope: scopeList(scope.join(' ')).join(' ') } : {}),
        ...(presented
          ? { error: refusal!.check === 'insufficient-scope' ? 'insufficient_scope' : 'invalid_token', error_description: refusal!.message }
          : {}),
      }),
    };
  };
}
