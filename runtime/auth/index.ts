/**
 * @module @wiregen/runtime/auth — authorization, loaded only by what uses it: an OAuth 2.1 client for
 * protected MCP servers (`OAuthClient`, given to `HttpChannel` as `auth`), the resource-server side for our
 * Streamable HTTP servers (`protectedResource`, given to the MCP HTTP options as `authorization`), and A2A
 * security schemes on both sides (`a2aClientAuth`, `a2aAuthenticate`). Built on oauth4webapi and jose.
 */
export { AuthError, type AuthCheck } from './errors.ts';
export type { AuthInfo } from './info.ts';
export { ID_JAG_TYPE, ID_TOKEN_TYPE, type AuthorizeCallback, type IdentityProvider } from './grants.ts';
export { AUTH_RESPONSE_LIMIT_DEFAULTS, type AuthResponseLimits } from './bounded-fetch.ts';
export { OAuthClient, type Grant, type OAuthClientOptions } from './oauth-client.ts';
export type { ClientCredentials, ClientMetadata } from './registration.ts';
export { MemoryAuthStore, type AuthStore, type StoredClient, type StoredGrant } from './store.ts';
export {
  jwtVerifier,
  protectedResource,
  type IntrospectionVerification,
  type JwtVerification,
  type ProtectedResource,
  type ProtectedResourceOptions,
  type ResourceAuthorization,
  type TokenInfo,
  type TokenVerifier,
} from './resource-server.ts';
export { a2aAuthenticate, a2aClientAuth, type A2aCredentials, type A2aVerifiers, type BearerGrant } from './a2a.ts';
