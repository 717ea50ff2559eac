/**
 * @module auth/registration — how the client identifies itself to an authorization server
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#client-registration-approaches),
 * in the specification's order: pre-registered credentials, a Client ID Metadata Document (its URL is the
 * client_id, where the server lists `client_id_metadata_document_supported`), then Dynamic Client Registration
 * (RFC 7591). A registration is kept per issuer and never presented to another authorization server. And how
 * it authenticates at the token endpoint: `client_secret_basic`, `client_secret_post`, `private_key_jwt`
 * (RFC 7523 §2.2) or `none`.
 */
import { importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import type { CryptoKey, JsonValue } from 'oauth4webapi';
import { AuthError, isLoopbackHost } from './errors.ts';
import { httpOptions } from './http-options.ts';
import type { AuthStore, StoredClient } from './store.ts';

/** Credentials issued out of band (a pre-registration). */
export interface ClientCredentials {
  readonly client_id: string;
  readonly client_secret?: string;
  /** Default: `private_key_jwt` with a `privateKey`, `client_secret_basic` (or `_post`, whichever the server lists) with a secret, else `none`. */
  readonly token_endpoint_auth_method?: string;
  /** For `private_key_jwt`: a CryptoKey, or a PKCS#8 PEM. */
  readonly privateKey?: CryptoKey | string;
  /** The JWS algorithm of a PEM `privateKey`. Default ES256. */
  readonly signingAlgorithm?: string;
}

/** Client metadata (RFC 7591 §2) sent at registration; the Client ID Metadata Document says the same. */
export interface ClientMetadata {
  readonly client_name?: string;
  readonly redirect_uris?: readonly string[];
  /** OpenID `application_type` (SEP-837). Default `native` for loopback or custom-scheme redirects, else `web`. */
  readonly application_type?: 'native' | 'web';
  readonly grant_types?: readonly string[];
  readonly token_endpoint_auth_method?: string;
  readonly scope?: string;
  readonly [k: string]: JsonValue | readonly string[] | undefined;
}

export interface RegistrationOptions {
  readonly store: AuthStore;
  readonly client?: ClientCredentials | ((issuer: string) => ClientCredentials | undefined) | undefined;
  readonly clientMetadataUrl?: string | undefined;
  readonly metadata: ClientMetadata;
  readonly fetch: typeof fetch;
  readonly allowLoopbackHttp: boolean;
  readonly signal?: AbortSignal | undefined;
}

/** The token endpoint auth methods the server takes (RFC 8414 §2: `client_secret_basic` when it says nothing). */
const methodsOf = (as: oauth.AuthorizationServer) => as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];

/** The method a client with a secret uses: basic, unless the server takes only post. */
function secretMethod(as: oauth.AuthorizationServer): string {
  const methods = methodsOf(as);
  return !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

/** The method a client registers with: the metadata's, else `none` (a public client) where allowed, else a secret method. */
function registrationMethod(as: oauth.AuthorizationServer, metadata: ClientMetadata): string {
  if (metadata.token_endpoint_auth_method) return metadata.token_endpoint_auth_method;
  const methods = methodsOf(as);
  return methods.includes('none') ? 'none' : secretMethod(as);
}

function applicationType(redirectUris: readonly string[] | undefined): 'native' | 'web' {
  const first = redirectUris?.[0];
  if (!first) return 'native';
  const url = new URL(first);
  return url.protocol !== 'https:' && (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) ? 'native' : 'web';
}

/** Who the client is at `as`: pre-registered, stored, CIMD, or newly registered (then stored). */
export async function clientFor(as: oauth.AuthorizationServer, options: RegistrationOptions, grantTypes: readonly string[]): Promise<StoredClient> {
  const pre = typeof options.client === 'function' ? options.client(as.issuer) : options.client;
  // Pre-registered credentials are kept as given (a privateKey may be a CryptoKey, not JSON): nothing stores them.
  if (pre) return pre as StoredClient;
  const stored = await options.store.getClient(as.issuer);
  if (stored) return stored;
  if (as['client_id_metadata_document_supported'] === true && options.clientMetadataUrl)
    return { client_id: options.clientMetadataUrl, token_endpoint_auth_method: 'none' };
  if (!as.registration_endpoint)
    throw new AuthError(
      'client-registration',
      `authorization server ${as.issuer} has no registration_endpoint${options.clientMetadataUrl ? ' and does not support Client ID Metadata Documents' : ''}: configure pre-registered client credentials`,
    );
  const method = registrationMethod(as, options.metadata);
  const metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {
    // ClientMetadata is JSON (its arrays readonly); oauth4webapi's type wants mutable JSON arrays.
    ...(options.metadata as oauth.JsonObject),
    redirect_uris: [...(options.metadata.redirect_uris ?? [])],
    application_type: options.metadata.application_type ?? applicationType(options.metadata.redirect_uris),
    grant_types: [...(options.metadata.grant_types ?? grantTypes)],
    token_endpoint_auth_method: method,
  };
  let res: Response;
  try {
    res = await oauth.dynamicClientRegistrationRequest(as, metadata, httpOptions(options));
  } catch (err) {
    throw new AuthError('client-registration', `registration endpoint ${as.registration_endpoint}: ${(err as Error).message}`, { cause: err });
  }
  const registered = await registrationResponse(as.registration_endpoint, res);
  const client: StoredClient = { token_endpoint_auth_method: method, ...registered };
  await options.store.setClient(as.issuer, client);
  return client;
}

/**
 * The registration response (RFC 7591 §3.2): 201 (or 200) with a JSON object holding a `client_id`. Read
 * here rather than by oauth4webapi, which also requires `client_secret_expires_at` next to a secret (§3.2.1
 * says REQUIRED, yet servers in use leave it out, the conformance runner's among them); nothing else is relaxed.
 */
async function registrationResponse(endpoint: string, res: Response): Promise<StoredClient> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const json = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (res.status !== 201 && res.status !== 200) {
    const error = typeof json?.['error'] === 'string' ? ` ${json['error']}` : '';
    throw new AuthError('client-registration', `registration endpoint ${endpoint}: HTTP ${res.status}${error}`);
  }
  if (!json || typeof json['client_id'] !== 'string' || json['client_id'] === '')
    throw new AuthError('client-registration', `registration endpoint ${endpoint}: the response has no client_id`);
  if (json['client_secret'] !== undefined && typeof json['client_secret'] !== 'string')
    throw new AuthError('client-registration', `registration endpoint ${endpoint}: client_secret is not a string`);
  // Checked above: an object with a string client_id (and a string client_secret, if any); the rest is JSON.
  return json as StoredClient;
}

/** application/x-www-form-urlencoded, as URLSearchParams writes it (WHATWG URL §5.2): `-._*` and alphanumerics kept. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * client_secret_basic (RFC 6749 §2.3.1): id and secret form-encoded, joined by a colon, base64. Written here
 * because oauth4webapi's encoder also escapes `-`, `.`, `_` and `*`, which servers that decode only base64
 * (the conformance runner's) then read as a different client_id.
 */
export function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${formEncode(client.client_id)}:${formEncode(secret)}`).toString('base64')}`);
  };
}

/** How `client` authenticates at `as`'s token endpoint. */
export async function clientAuthFor(as: oauth.AuthorizationServer, client: ClientCredentials): Promise<oauth.ClientAuth> {
  const method = client.token_endpoint_auth_method ?? (client.privateKey ? 'private_key_jwt' : client.client_secret ? secretMethod(as) : 'none');
  switch (method) {
    case 'none':
      return oauth.None();
    case 'client_secret_basic':
    case 'client_secret_post': {
      if (!client.client_secret) throw new AuthError('configuration', `client ${client.client_id}: ${method} needs a client_secret`);
      return method === 'client_secret_basic' ? clientSecretBasic(client.client_secret) : oauth.ClientSecretPost(client.client_secret);
    }
    case 'private_key_jwt': {
      const key = client.privateKey;
      if (!key) throw new AuthError('configuration', `client ${client.client_id}: private_key_jwt needs a privateKey`);
      try {
        return oauth.PrivateKeyJwt(typeof key === 'string' ? await importPKCS8(key, client.signingAlgorithm ?? 'ES256') : key);
      } catch (err) {
        throw new AuthError('configuration', `client ${client.client_id}: the privateKey does not import: ${(err as Error).message}`, { cause: err });
      }
    }
    default:
      throw new AuthError('configuration', `client ${client.client_id}: token_endpoint_auth_method ${method} is not supported`);
  }
}
