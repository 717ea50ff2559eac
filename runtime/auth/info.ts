/**
 * @module auth/info — who is calling: the verified access token as a handler sees it (MCP's
 * `RequestContext.auth`, A2A's `ExecutionContext.auth`). Plain JSON-ish data, named as the official
 * TypeScript SDK v2 names its `AuthInfo` (token, clientId, scopes, expiresAt, resource) where the meaning is
 * the same, plus the subject, the audience and every claim. Built from what the resource server verified
 * (resource-server.ts: a JWT's payload, or an introspection response, RFC 7662 §2.2).
 */
import type { TokenInfo } from './resource-server.ts';

/** A verified bearer token (RFC 6750) and what it says about the caller. */
export interface AuthInfo {
  /** The access token as presented (never logged by the runtime). */
  readonly token: string;
  /** `sub`: the resource owner (or the client, for a client-credentials token). */
  readonly subject?: string;
  /** `client_id` (RFC 9068 §2.2, RFC 7662 §2.2), else `azp`: the OAuth client the token was issued to. */
  readonly clientId?: string;
  /** The granted scopes (`scope`, RFC 6749 §3.3), in order. */
  readonly scopes: readonly string[];
  /** `aud`: the resources the token is meant for (one of them is this server's, or it was refused). */
  readonly audience: readonly string[];
  /** `exp`, in epoch seconds. */
  readonly expiresAt?: number;
  /** This server's resource identifier (RFC 8707), the one the token was checked for. */
  readonly resource?: string;
  /** Every claim: the JWT payload, or the introspection response. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** `aud` as a list (RFC 7519 §4.1.3: one string or an array of them). */
function audienceOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** The AuthInfo of `token`, verified as `info` for `resource`. */
export function authInfo(token: string, info: TokenInfo, resource?: string): AuthInfo {
  return {
    token,
    ...(info.subject !== undefined ? { subject: info.subject } : {}),
    ...(info.clientId !== undefined ? { clientId: info.clientId } : {}),
    scopes: [...info.scopes],
    audience: audienceOf(info.claims['aud']),
    ...(info.expiresAt !== undefined ? { expiresAt: info.expiresAt } : {}),
    ...(resource !== undefined ? { resource } : {}),
    claims: info.claims,
  };
}
