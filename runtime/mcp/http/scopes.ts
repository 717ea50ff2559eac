/**
 * @module mcp/http/scopes — the answer to a request whose access token lacks a scope the item it calls
 * requires (McpServerOptions.requiredScopes), when the HTTP authorization gives none of its own: 403 with a
 * `Bearer error="insufficient_scope", scope="…"` challenge (RFC 6750 §3.1;
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling).
 * `protectedResource` of @wiregen/runtime/auth answers with its `resource_metadata` besides.
 */
import { formatChallenge } from '../../auth/challenge.ts';
import type { HttpRefusal } from './options.ts';

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
