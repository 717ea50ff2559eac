/**
 * @module auth/metadata — finding who authorizes a protected MCP server
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#authorization-server-discovery):
 * its Protected Resource Metadata (RFC 9728: the `resource_metadata` URL of the 401's challenge, then the
 * path-based and root well-known URLs), then the authorization server's metadata (RFC 8414 and OpenID Connect
 * Discovery, the well-known URLs in the order the specification lists, each document's `issuer` compared
 * with the issuer identifier as a plain string). A server with no resource metadata at all is the 2025-03-26
 * arrangement: the authorization server is the server's origin, with default endpoints when it has no metadata
 * either (https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#2-3-3-fallbacks-for-servers-without-metadata-discovery).
 */
import { processDiscoveryResponse, type AuthorizationServer } from 'oauth4webapi';
import { AuthError, requireSecureUrl } from './errors.ts';

/** Protected Resource Metadata (RFC 9728 §2), the fields a client uses. */
export interface ResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly [k: string]: unknown;
}

export interface DiscoveryOptions {
  readonly fetch: typeof fetch;
  readonly allowLoopbackHttp: boolean;
  readonly signal?: AbortSignal;
}

/** The canonical URI of an MCP server (RFC 8707 §2; the MCP specification's canonical server URI): no fragment, no query. */
export function canonicalResource(url: URL): string {
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * Whether the metadata's `resource` covers `server`: same origin, and its path a whole-segment prefix of the
 * server's (the root resource covers every path; `/mcp` covers `/mcp` and `/mcp/x`, not `/mcpx`).
 */
export function resourceCovers(resource: string, server: URL): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.origin !== server.origin || r.hash) return false;
  const prefix = r.pathname.replace(/\/$/, '');
  return prefix === '' || server.pathname === prefix || server.pathname.startsWith(`${prefix}/`);
}

async function getJson(url: URL, options: DiscoveryOptions): Promise<Response | undefined> {
  const res = await options.fetch(url.href, {
    headers: { accept: 'application/json' },
    redirect: 'manual',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (res.status === 200) return res;
  await res.body?.cancel().catch(() => undefined);
  return undefined;
}

/** The well-known URLs of RFC 9728 §3.1 for `server`, path-based first, after the challenge's own URL. */
export function resourceMetadataUrls(server: URL, fromChallenge: string | undefined): URL[] {
  const urls: URL[] = [];
  if (fromChallenge) urls.push(new URL(fromChallenge, server));
  if (server.pathname !== '/') urls.push(new URL(`/.well-known/oauth-protected-resource${server.pathname.replace(/\/$/, '')}`, server));
  urls.push(new URL('/.well-known/oauth-protected-resource', server));
  return urls;
}

/**
 * The server's Protected Resource Metadata, from the first URL that has one; undefined when none does (a
 * 2025-03-26 server). A document whose `resource` does not cover `server` is refused ('resource-mismatch'):
 * the client must not authorize for another resource.
 */
export async function discoverResource(
  server: URL,
  fromChallenge: string | undefined,
  options: DiscoveryOptions,
): Promise<ResourceMetadata | undefined> {
  for (const url of resourceMetadataUrls(server, fromChallenge)) {
    requireSecureUrl(url, 'resource metadata URL', options.allowLoopbackHttp);
    const res = await getJson(url, options);
    if (!res) continue;
    let doc: unknown;
    try {
      doc = await res.json();
    } catch (err) {
      if (err instanceof AuthError) throw err;
      throw new AuthError('resource-metadata', `resource metadata ${url.href} is not JSON`);
    }
    if (doc === null || typeof doc !== 'object' || typeof (doc as ResourceMetadata).resource !== 'string')
      throw new AuthError('resource-metadata', `resource metadata ${url.href}: "resource" is missing`);
    const metadata = doc as ResourceMetadata;
    if (!resourceCovers(metadata.resource, server))
      throw new AuthError(
        'resource-mismatch',
        `resource metadata ${url.href}: "resource" ${metadata.resource} is not the server ${canonicalResource(server)}`,
      );
    return metadata;
  }
  return undefined;
}

/**
 * The metadata URLs to try for `issuer`, in the order of the MCP specification: with a path, RFC 8414 path
 * insertion, OpenID Connect path insertion, then OpenID Connect path appending; without one, RFC 8414 then
 * OpenID Connect. The root URLs are never tried for an issuer with a path (they belong to another issuer).
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  if (path === '') return [new URL('/.well-known/oauth-authorization-server', issuer), new URL('/.well-known/openid-configuration', issuer)];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer),
    new URL(`/.well-known/openid-configuration${path}`, issuer),
    new URL(`${path}/.well-known/openid-configuration`, issuer),
  ];
}

/**
 * The authorization server's metadata for `issuer` (a string as the resource metadata lists it). The
 * document's `issuer` must be that string exactly (RFC 8414 §3.3; no normalization), else 'issuer-mismatch'
 * and none of its endpoints is used. Undefined when no well-known URL has a document.
 */
export async function discoverAuthorizationServer(issuer: string, options: DiscoveryOptions): Promise<AuthorizationServer | undefined> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new AuthError('resource-metadata', `authorization server ${JSON.stringify(issuer)} is not a URL`);
  }
  requireSecureUrl(issuerUrl, 'authorization server', options.allowLoopbackHttp);
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const res = await getJson(url, options);
    if (!res) continue;
    const copy = res.clone();
    const body = (await copy.json().catch((err: unknown) => {
      if (err instanceof AuthError) throw err;
      return undefined;
    })) as { issuer?: unknown } | undefined;
    if (body?.issuer !== issuer)
      throw new AuthError('issuer-mismatch', `authorization server metadata ${url.href}: "issuer" ${JSON.stringify(body?.issuer)} is not ${issuer}`);
    let as: AuthorizationServer;
    try {
      as = await processDiscoveryResponse(issuerUrl, res);
    } catch (err) {
      const limit = err instanceof AuthError ? err : (err as { cause?: unknown }).cause;
      if (limit instanceof AuthError) throw limit;
      throw new AuthError('metadata-not-found', `authorization server metadata ${url.href}: ${(err as Error).message}`, { cause: err });
    }
    for (const field of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
      const endpoint = as[field];
      if (typeof endpoint === 'string') requireSecureUrl(new URL(endpoint), `${url.href} ${field}`, options.allowLoopbackHttp);
    }
    return as;
  }
  return undefined;
}

/**
 * The 2025-03-26 fallback for a server with no metadata at all: the authorization base URL is the server's
 * origin, its endpoints /authorize, /token and /register.
 */
export function defaultEndpoints(origin: string): AuthorizationServer {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
  };
}
