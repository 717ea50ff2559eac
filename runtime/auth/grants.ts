/**
 * @module auth/grants — obtaining tokens at a token endpoint with oauth4webapi, one function per grant:
 * authorization code with PKCE S256, `state` and the RFC 9207 `iss` check (OAuth 2.1 §4.1); refresh (§4.3);
 * client credentials (§4.2); JWT bearer assertions (RFC 7523 §2.1); token exchange (RFC 8693); and the
 * identity assertion grant of Enterprise-Managed Authorization (an ID token exchanged at the enterprise IdP
 * for an ID-JAG, then the ID-JAG as a JWT bearer assertion:
 * https://modelcontextprotocol.io/extensions/auth/enterprise-managed-authorization). Every request carries
 * the RFC 8707 `resource`, and a DPoP proof when the client uses DPoP (RFC 9449 §5; a `use_dpop_nonce`
 * answer is retried once with the nonce, §8).
 */
import * as oauth from 'oauth4webapi';
import { AuthError } from './errors.ts';
import { httpOptions } from './http-options.ts';
import { clientSecretBasic } from './registration.ts';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** What every grant request needs: where, who, for what, and how requests are made. */
export interface GrantContext {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  /** The RFC 8707 resource indicator (MCP always sends one; an A2A agent's card asks for none). */
  readonly resource?: string | undefined;
  readonly scope?: string | undefined;
  readonly dpop?: oauth.DPoPHandle | undefined;
  readonly fetch: typeof fetch;
  readonly allowLoopbackHttp: boolean;
  readonly signal?: AbortSignal | undefined;
}

/** The interactive step: show `authorizationUrl` to the user; resolve with the URL the authorization server redirected back to. */
export type AuthorizeCallback = (
  authorizationUrl: URL,
  context: { readonly redirectUri: string; readonly signal?: AbortSignal | undefined },
) => Promise<URL | string>;

/** One-line description of a failed token request, naming the endpoint and the OAuth error (never a token). */
function tokenFailure(endpoint: string | undefined, err: unknown): AuthError {
  if (err instanceof AuthError) return err;
  // An answer past the client's limits (bounded-fetch.ts), as oauth4webapi passes it on.
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof AuthError) return cause;
  if (err instanceof oauth.ResponseBodyError)
    return new AuthError(
      'token-request',
      `token endpoint ${endpoint}: HTTP ${err.status} ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`,
      { cause: err },
    );
  return new AuthError('token-request', `token endpoint ${endpoint}: ${(err as Error).message}`, { cause: err });
}

/** Sends a token request and processes its answer; a `use_dpop_nonce` answer is sent again once with the nonce. */
async function exchange(ctx: GrantContext, send: () => Promise<Response>, process: (res: Response) => Promise<oauth.TokenEndpointResponse>) {
  try {
    try {
      return await process(await send());
    } catch (err) {
      if (!ctx.dpop || !oauth.isDPoPNonceError(err)) throw err;
      return await process(await send());
    }
  } catch (err) {
    throw tokenFailure(ctx.as.token_endpoint, err);
  }
}

const withResource = (ctx: GrantContext, extra: Record<string, string> = {}): Record<string, string> => ({
  ...extra,
  ...(ctx.scope ? { scope: ctx.scope } : {}),
  ...(ctx.resource ? { resource: ctx.resource } : {}),
});

function tokenOptions(ctx: GrantContext, parameters: Record<string, string>) {
  return { ...httpOptions(ctx), additionalParameters: parameters, ...(ctx.dpop ? { DPoP: ctx.dpop } : {}) };
}

/** Endpoints guessed for a server without metadata (2025-03-26) have no PKCE list to check. */
const FALLBACK = new WeakSet<oauth.AuthorizationServer>();
export function markFallback(as: oauth.AuthorizationServer): oauth.AuthorizationServer {
  FALLBACK.add(as);
  return as;
}

/** Maps oauth4webapi's authorization-response checks to the check they are (state, iss, an error answer). */
function callbackFailure(err: unknown): AuthError {
  if (err instanceof oauth.AuthorizationResponseError)
    return new AuthError('authorization-denied', `authorization response: ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`, {
      cause: err,
    });
  const message = (err as Error).message;
  if (/"iss"/.test(message)) return new AuthError('iss-mismatch', `authorization response: ${message} (RFC 9207)`, { cause: err });
  if (/"state"/.test(message)) return new AuthError('state-mismatch', `authorization response: ${message}`, { cause: err });
  return new AuthError('authorization-denied', `authorization response: ${message}`, { cause: err });
}

/**
 * Authorization code with PKCE S256: builds the authorization request, hands it to `authorize` (the user's
 * browser), checks the callback (`state`; `iss` compared with the metadata's issuer as a plain string), then
 * redeems the code.
 */
export async function authorizationCodeGrant(
  ctx: GrantContext,
  authorize: AuthorizeCallback,
  redirectUri: string,
): Promise<oauth.TokenEndpointResponse> {
  const { as, client } = ctx;
  // PKCE S256 is required; metadata that does not list it is refused (MCP authorization, "Authorization Code Protection").
  if (!FALLBACK.has(as) && !as.code_challenge_methods_supported?.includes('S256'))
    throw new AuthError('pkce-unsupported', `authorization server ${as.issuer}: code_challenge_methods_supported does not list S256`);
  if (!as.authorization_endpoint) throw new AuthError('metadata-not-found', `authorization server ${as.issuer} has no authorization_endpoint`);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (ctx.scope) url.searchParams.set('scope', ctx.scope);
  if (ctx.resource) url.searchParams.set('resource', ctx.resource);
  const returned = await authorize(url, { redirectUri, signal: ctx.signal });
  const callback = typeof returned === 'string' ? new URL(returned, redirectUri) : returned;
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback.searchParams, state);
  } catch (err) {
    throw callbackFailure(err);
  }
  const parameters = withResource({ ...ctx, scope: undefined });
  return exchange(
    ctx,
    () => oauth.authorizationCodeGrantRequest(as, client, ctx.clientAuth, params, redirectUri, verifier, tokenOptions(ctx, parameters)),
    (res) => oauth.processAuthorizationCodeResponse(as, client, res),
  );
}

/** A refresh token for a new access token (OAuth 2.1 §4.3), for the same resource. */
export function refreshGrant(ctx: GrantContext, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  return exchange(
    ctx,
    () => oauth.refreshTokenGrantRequest(ctx.as, ctx.client, ctx.clientAuth, refreshToken, tokenOptions(ctx, withResource(ctx))),
    (res) => oauth.processRefreshTokenResponse(ctx.as, ctx.client, res),
  );
}

/** Client credentials (OAuth 2.1 §4.2): the client acts on its own behalf. */
export function clientCredentialsGrant(ctx: GrantContext): Promise<oauth.TokenEndpointResponse> {
  const options = { ...httpOptions(ctx), ...(ctx.dpop ? { DPoP: ctx.dpop } : {}) };
  return exchange(
    ctx,
    () => oauth.clientCredentialsGrantRequest(ctx.as, ctx.client, ctx.clientAuth, withResource(ctx), options),
    (res) => oauth.processClientCredentialsResponse(ctx.as, ctx.client, res),
  );
}

/** Any grant by its type URI with its own parameters (RFC 7523 JWT bearer, RFC 8693 token exchange). */
export function genericGrant(
  ctx: GrantContext,
  grantType: string,
  parameters: Record<string, string>,
  recognizedTokenTypes?: oauth.RecognizedTokenTypes,
): Promise<oauth.TokenEndpointResponse> {
  const options = { ...httpOptions(ctx), ...(ctx.dpop ? { DPoP: ctx.dpop } : {}) };
  return exchange(
    ctx,
    () => oauth.genericTokenEndpointRequest(ctx.as, ctx.client, ctx.clientAuth, grantType, withResource(ctx, parameters), options),
    (res) => oauth.processGenericTokenEndpointResponse(ctx.as, ctx.client, res, recognizedTokenTypes ? { recognizedTokenTypes } : {}),
  );
}

/** The enterprise IdP of the identity assertion grant. */
export interface IdentityProvider {
  /** The IdP's token endpoint (where the ID token is exchanged for an ID-JAG). */
  readonly tokenEndpoint: string;
  /** The IdP's issuer identifier. Default the token endpoint's origin. */
  readonly issuer?: string;
  /** This client's id at the IdP. */
  readonly clientId: string;
  /** Its secret there (client_secret_basic), if it has one. */
  readonly clientSecret?: string;
}

/**
 * Enterprise-Managed Authorization: the user's ID token is exchanged at the IdP for an Identity Assertion
 * JWT Authorization Grant (RFC 8693 with `requested_token_type` id-jag, audience the authorization server,
 * resource the MCP server), which the authorization server takes as a JWT bearer assertion (RFC 7523).
 */
export async function identityAssertionGrant(ctx: GrantContext, idp: IdentityProvider, idToken: string): Promise<oauth.TokenEndpointResponse> {
  const idpServer: oauth.AuthorizationServer = { issuer: idp.issuer ?? new URL(idp.tokenEndpoint).origin, token_endpoint: idp.tokenEndpoint };
  const idpClient: oauth.Client = { client_id: idp.clientId };
  const jag = await genericGrant(
    { ...ctx, as: idpServer, client: idpClient, clientAuth: idp.clientSecret ? clientSecretBasic(idp.clientSecret) : oauth.None(), dpop: undefined },
    TOKEN_EXCHANGE,
    { requested_token_type: ID_JAG_TYPE, audience: ctx.as.issuer, subject_token: idToken, subject_token_type: ID_TOKEN_TYPE },
    // RFC 8693 §2.2.1: an issued token that is not an access token has token_type N_A.
    { n_a: () => undefined },
  );
  if (jag['issued_token_type'] !== ID_JAG_TYPE)
    throw new AuthError(
      'token-request',
      `token endpoint ${idp.tokenEndpoint}: issued_token_type is ${String(jag['issued_token_type'])}, not ${ID_JAG_TYPE}`,
    );
  return genericGrant(ctx, JWT_BEARER, { assertion: jag.access_token });
}
