/**
 * @module auth/resource-server — our Streamable HTTP servers as OAuth protected resources
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization): the Protected Resource
 * Metadata document at its path-based well-known URL (RFC 9728 §3), 401 challenges that point to it
 * (`WWW-Authenticate: Bearer resource_metadata=…, scope=…`, RFC 9728 §5.1), bearer tokens (RFC 6750) checked
 * as JWTs against the authorization server's JWKS (jose: signature, `iss`, `aud` = this resource, `exp`) or by
 * introspection (RFC 7662, oauth4webapi), and optional scopes per JSON-RPC method (403 `insufficient_scope`).
 * `protectedResource(options)` returns what `McpHttpOptions.authorization` takes.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import * as oauth from 'oauth4webapi';
import type { HttpAuthorization } from '../mcp/http/options.ts';
import { scopeRefusal } from '../mcp/http/admission.ts';
import { sendJson } from '../transports/exchange.ts';
import { formatChallenge, scopeList } from './challenge.ts';
import { AuthError } from './errors.ts';
import { httpOptions } from './http-options.ts';
import { authInfo, type AuthInfo } from './info.ts';
import { discoverAuthorizationServer } from './metadata.ts';

/** Who a valid token speaks for. */
export interface TokenInfo {
  readonly scopes: readonly string[];
  readonly subject?: string;
  readonly clientId?: string;
  /** Epoch seconds. */
  readonly expiresAt?: number;
  /** The JWT claims, or the introspection response. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** A custom check: resolve with the token's info, or throw an AuthError('invalid-token', …). */
export type TokenVerifier = (token: string) => Promise<TokenInfo>;

/** JWT access tokens signed by the authorization server. */
export interface JwtVerification {
  /** The issuer the tokens must name (`iss`). */
  readonly issuer: string;
  /** Its JWKS. Default: `jwks_uri` of the issuer's metadata (discovered once). */
  readonly jwksUri?: string;
  /** The accepted `alg`s. Default every asymmetric one jose knows. */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew tolerated on `exp`/`nbf`. Default 5. */
  readonly clockToleranceSec?: number;
}

/** Opaque tokens, checked at the authorization server's introspection endpoint (RFC 7662). */
export interface IntrospectionVerification {
  readonly endpoint: string;
  /** This resource server's credentials there (client_secret_basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The issuer that introspects. Default the endpoint's origin. */
  readonly issuer?: string;
}

export interface ProtectedResourceOptions {
  /** This server's resource identifier: its canonical URL (`https://mcp.example.com/mcp`). Tokens must name it in `aud`. */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers that grant tokens for it (listed in the metadata). */
  readonly authorizationServers: readonly string[];
  /** How tokens are checked: `{ jwt }`, `{ introspection }`, or a function. */
  readonly verify: { readonly jwt: JwtVerification } | { readonly introspection: IntrospectionVerification } | TokenVerifier;
  /** Listed as `scopes_supported`. Default: the union of `requiredScopes` and `methodScopes`. */
  readonly scopesSupported?: readonly string[];
  /** Scopes every request needs. Default none. */
  readonly requiredScopes?: readonly string[];
  /** Scopes one JSON-RPC method needs besides (`{ 'tools/call': ['mcp:tools'] }`). Default none. */
  readonly methodScopes?: Readonly<Record<string, readonly string[]>>;
  /** More metadata fields (`resource_name`, `resource_documentation`, …). Default none. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Allow http to loopback hosts for JWKS, metadata and introspection (tests). Default false. */
  readonly allowLoopbackHttp?: boolean;
  /** The fetch used for metadata and introspection. Default globalThis.fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * What the MCP HTTP handler asks of an authorization (the `authorization` option of McpHttpOptions): the
 * metadata document, the check of each request (`{ auth }`, the verified token, when it may proceed) and the
 * 403 for a token that lacks an item's scopes.
 */
export type ResourceAuthorization = Required<HttpAuthorization>;

export interface ProtectedResource extends ResourceAuthorization {
  /** Where the metadata document is served (path-based: `/.well-known/oauth-protected-resource/mcp`). */
  readonly metadataUrl: string;
  /** The metadata document (RFC 9728 §2). */
  readonly document: Readonly<Record<string, unknown>>;
  /** Checks an Authorization header value for `method`: the token's info, or an AuthError ('invalid-token', 'insufficient-scope'). */
  authenticate(authorization: string | undefined, method?: string): Promise<TokenInfo>;
}

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** A one-line reason for a JWT that does not verify (what `error_description` says). */
function jwtFailure(err: unknown): AuthError {
  if (err instanceof joseErrors.JWTExpired) return new AuthError('invalid-token', 'the token has expired (exp)');
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const claim =
      err.claim === 'aud' ? 'is for another audience (aud)' : err.claim === 'iss' ? 'is from another issuer (iss)' : `fails its ${err.claim} claim`;
    return new AuthError('invalid-token', `the token ${claim}`);
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return new AuthError('invalid-token', 'the token signature does not verify (tampered or foreign)');
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return new AuthError('invalid-token', 'the token is signed with a key the authorization server does not publish');
  return new AuthError('invalid-token', `the token is not a valid JWT: ${(err as Error).message}`);
}

/**
 * A TokenVerifier for JWT access tokens from `config.issuer` meant for `audience` (also what A2A's
 * `a2aAuthenticate` takes as its bearer verifier).
 */
export function jwtVerifier(
  config: JwtVerification,
  audience: string,
  options: Pick<ProtectedResourceOptions, 'fetch' | 'allowLoopbackHttp'> = {},
): TokenVerifier {
  const resource = audience;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keys = async () => {
    if (jwks) return jwks;
    let uri = config.jwksUri;
    if (!uri) {
      const as = await discoverAuthorizationServer(config.issuer, {
        fetch: options.fetch ?? fetch,
        allowLoopbackHttp: options.allowLoopbackHttp === true,
      });
      uri = as?.jwks_uri;
      if (!uri) throw new AuthError('configuration', `authorization server ${config.issuer} publishes no jwks_uri: set verify.jwt.jwksUri`);
    }
    jwks = createRemoteJWKSet(new URL(uri));
    return jwks;
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keys(), {
        issuer: config.issuer,
        audience: resource,
        algorithms: [...(config.algorithms ?? ASYMMETRIC)],
        clockTolerance: config.clockToleranceSec ?? 5,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      if (err instanceof AuthError) throw err;
      throw jwtFailure(err);
    }
    const clientId =
      typeof payload['client_id'] === 'string' ? payload['client_id'] : typeof payload['azp'] === 'string' ? payload['azp'] : undefined;
    return {
      scopes: scopeList(typeof payload['scope'] === 'string' ? payload['scope'] : undefined),
      ...(payload.sub ? { subject: payload.sub } : {}),
      ...(clientId ? { clientId } : {}),
      ...(payload.exp ? { expiresAt: payload.exp } : {}),
      claims: payload,
    };
  };
}

function introspectionVerifier(config: IntrospectionVerification, resource: string, options: ProtectedResourceOptions): TokenVerifier {
  const as: oauth.AuthorizationServer = { issuer: config.issuer ?? new URL(config.endpoint).origin, introspection_endpoint: config.endpoint };
  const client: oauth.Client = { client_id: config.clientId };
  const http = httpOptions({ fetch: options.fetch ?? ((i, n) => fetch(i, n)), allowLoopbackHttp: options.allowLoopbackHttp === true });
  return async (token) => {
    let info: oauth.IntrospectionResponse;
    try {
      const res = await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(config.clientSecret), token, http);
      info = await oauth.processIntrospectionResponse(as, client, res);
    } catch (err) {
      throw new AuthError('configuration', `introspection endpoint ${config.endpoint}: ${(err as Error).message}`, { cause: err });
    }
    if (!info.active) throw new AuthError('invalid-token', 'the token is not active (introspection)');
    const audience = info.aud === undefined ? undefined : Array.isArray(info.aud) ? info.aud : [info.aud];
    if (audience && !audience.includes(resource)) throw new AuthError('invalid-token', 'the token is for another audience (aud)');
    if (typeof info.exp === 'number' && info.exp * 1000 < Date.now()) throw new AuthError('invalid-token', 'the token has expired (exp)');
    return {
      scopes: scopeList(info.scope),
      ...(info.sub ? { subject: info.sub } : {}),
      ...(info.client_id ? { clientId: info.client_id } : {}),
      ...(typeof info.exp === 'number' ? { expiresAt: info.exp } : {}),
      claims: info,
    };
  };
}

/** The bearer token of an Authorization header (RFC 6750 §2.1), else undefined. */
function bearerToken(authorization: string | undefined): string | undefined {
  const challenge = /^Bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization ?? '');
  return challenge?.[1];
}

/** Makes this server a protected resource: its metadata document, its challenges, its token checks. */
export function protectedResource(options: ProtectedResourceOptions): ProtectedResource {
  const resource = new URL(options.resource);
  if (resource.hash || resource.search)
    throw new AuthError('configuration', `resource ${options.resource} must have no query or fragment (RFC 8707 §2)`);
  const metadataPath = `/.well-known/oauth-protected-resource${resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '')}`;
  const metadataUrl = `${resource.origin}${metadataPath}`;
  const required = options.requiredScopes ?? [];
  const scopesSupported = options.scopesSupported ?? [...new Set([...required, ...Object.values(options.methodScopes ?? {}).flat()])];
  const document = {
    ...options.metadata,
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    ...(scopesSupported.length ? { scopes_supported: scopesSupported } : {}),
    bearer_methods_supported: ['header'],
  };
  const body = JSON.stringify(document);
  const verify: TokenVerifier =
    typeof options.verify === 'function'
      ? options.verify
      : 'jwt' in options.verify
        ? jwtVerifier(options.verify.jwt, options.resource, options)
        : introspectionVerifier(options.verify.introspection, options.resource, options);
  const scopesFor = (method: string | undefined) => [...new Set([...required, ...((method && options.methodScopes?.[method]) || [])])];

  const verified = async (authorization: string | undefined, method?: string): Promise<AuthInfo> => {
    const token = bearerToken(authorization);
    if (!token)
      throw new AuthError('invalid-token', authorization === undefined ? 'no access token' : 'the Authorization header is not a bearer token');
    const info = await verify(token);
    const missing = scopesFor(method).filter((s) => !info.scopes.includes(s));
    if (missing.length) throw new AuthError('insufficient-scope', `${method ?? 'this request'} needs scope ${missing.join(' ')}`);
    return authInfo(token, info, options.resource);
  };
  const authenticate = async (authorization: string | undefined, method?: string): Promise<TokenInfo> => {
    const { scopes, subject, clientId, expiresAt, claims } = await verified(authorization, method);
    return {
      scopes,
      claims,
      ...(subject !== undefined ? { subject } : {}),
      ...(clientId !== undefined ? { clientId } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  };

  return {
    metadataUrl,
    document,
    authenticate,
    serve(req, res) {
      const q = req.target.indexOf('?');
      if ((q < 0 ? req.target : req.target.slice(0, q)) !== metadataPath || req.method !== 'GET') return false;
      sendJson(res, 200, body, { 'cache-control': 'max-age=300' });
      return true;
    },
    async check(req, method) {
      try {
        return { auth: await verified(req.headerValue('authorization'), method) };
      } catch (err) {
        if (!(err instanceof AuthError) || (err.check !== 'invalid-token' && err.check !== 'insufficient-scope')) throw err;
        const scope = scopesFor(method);
        const insufficient = err.check === 'insufficient-scope';
        // RFC 6750 §3.1: no error code when the request had no token at all.
        const noToken = req.headerValue('authorization') === undefined;
        const challenge = formatChallenge('Bearer', {
          resource_metadata: metadataUrl,
          ...(scope.length ? { scope: scope.join(' ') } : {}),
          ...(noToken ? {} : { error: insufficient ? 'insufficient_scope' : 'invalid_token', error_description: err.message }),
        });
        return {
          status: insufficient ? 403 : 401,
          headers: { 'www-authenticate': challenge },
          body: JSON.stringify({ error: insufficient ? 'insufficient_scope' : 'invalid_token', error_description: err.message }),
        };
      }
    },
    refuseScopes(_req, scopes, method) {
      // Every scope the request needs (RFC 6750 §3.1, "the scope necessary to access the requested resource"):
      // those of every request and of its method, and the item's.
      return scopeRefusal([...new Set([...scopesFor(method), ...scopes])], method, metadataUrl);
    },
  };
}
