/**
 * @module mcp/http/admission — whether an HTTP request reaches the server, as its authorization says
 * (McpHttpOptions.authorization): its token checked, then the scopes the request needs
 * (McpServerOptions.requiredScopes: a tool's, a resource's, a prompt's); and who is calling, for its
 * context (RequestContext.auth). A token lacking a scope is answered 403 with a
 * `Bearer error="insufficient_scope", scope="…"` challenge (RFC 6750 §3.1;
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling);
 * `protectedResource` of @wiregen/runtime/auth adds its `resource_metadata`.
 */
import type { AuthInfo } from '../../auth/info.ts';
import { formatChallenge } from '../../auth/challenge.ts';
import { AuthError } from '../../auth/errors.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { HttpRequest } from '../../transports/exchange.ts';
import type { McpServerOptions } from '../server/types.ts';
import type { HttpAuthorization, HttpRefusal } from './options.ts';

/**
 * Refuses to serve a server that declares scopes without an authorization to check tokens: a requirement
 * nothing checks would let every caller in (as A2A refuses a card whose security nothing checks, a2a/security.ts).
 */
export function requireCheckable(options: McpServerOptions, authorization: HttpAuthorization | undefined): void {
  if (options.requiredScopes && !authorization)
    throw new AuthError(
      'configuration',
      'McpServerOptions.requiredScopes needs McpHttpOptions.authorization to check tokens (protectedResource of @wiregen/runtime/auth; wiregen serve --auth)',
    );
}

/**
 * The refusal of `req` (a POST's JSON-RPC `method` and `params`, when known), or who is calling (undefined
 * without authorization, or when it says none).
 */
export async function admission(
  authorization: HttpAuthorization | undefined,
  requiredScopes: McpServerOptions['requiredScopes'],
  req: HttpRequest,
  method: string | undefined,
  params: JsonObject | undefined,
): Promise<HttpRefusal | { readonly auth: AuthInfo | undefined }> {
  const verdict = await authorization?.check(req, method);
  if (verdict && 'status' in verdict) return verdict;
  const auth = verdict?.auth;
  const needed = method === undefined ? undefined : requiredScopes?.(method, params ?? {});
  if (method !== undefined && needed?.length && needed.some((s) => !auth?.scopes.includes(s)))
    return authorization?.refuseScopes?.(req, needed, method) ?? scopeRefusal(needed, method);
  return { auth };
}

/** 403 insufficient_scope naming `scopes`, every scope `method` needs (RFC 6750 §3.1: "the scope necessary"). */
export function scopeRefusal(scopes: readonly string[], method: string, resourceMetadata?: string): HttpRefusal {
  const description = `${method} needs scope ${scopes.join(' ')}`;
  return {
    status: 403,
    headers: {
      'www-authenticate': formatChallenge('Bearer', {
        error: 'insufficient_scope',
        scope: scopes.join(' '),
        ...(resourceMetadata !== undefined ? { resource_metadata: resourceMetadata } : {}),
        error_description: description,
      }),
    },
    body: JSON.stringify({ error: 'insufficient_scope', error_description: description }),
  };
}
