/**
 * Type-level tests of who is calling (runtime/auth/info.ts AuthInfo on MCP's RequestContext and A2A's
 * ExecutionContext) and of declared scopes (code-first `requiredScopes`, the McpServerOptions hook): compiled
 * by `tsc` in `npm run typecheck`, never run. Each `@ts-expect-error` line must fail to compile.
 */
import type { ExecutionContext } from '../../runtime/a2a/types.ts';
import type { AuthResult } from '../../runtime/a2a/http-options.ts';
import type { AuthInfo as FromAuth } from '../../runtime/auth/index.ts';
import type { AuthInfo as FromMcp } from '../../runtime/mcp/index.ts';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import type { McpServerOptions, RequestContext } from '../../runtime/mcp/server/types.ts';
import { expectType, type Equal } from './equal.ts';

// One AuthInfo, exported from both entries, on both contexts; optional (stdio, no authorization).
expectType<Equal<FromAuth, FromMcp>>(true);
expectType<Equal<RequestContext['auth'], FromAuth | undefined>>(true);
expectType<Equal<ExecutionContext['auth'], FromAuth | undefined>>(true);

// The fields a handler reads, named as the official SDK's AuthInfo names them where they mean the same.
export function reads(auth: FromAuth): [string, string | undefined, readonly string[], number | undefined, string | undefined] {
  return [auth.token, auth.clientId, auth.scopes, auth.expiresAt, auth.resource];
}

// Read-only: a handler cannot grant itself a scope.
export function grants(auth: FromAuth): void {
  // @ts-expect-error scopes is a readonly list
  auth.scopes.push('admin');
}

// An agent's own authenticate may say who is calling; a refusal carries no auth.
export const accepted: AuthResult = { ok: true, auth: { token: 't', scopes: [], audience: [], claims: {} } };
// @ts-expect-error a refusal has its challenge, not an auth
export const refused: AuthResult = { ok: false, auth: { token: 't', scopes: [], audience: [], claims: {} } };

// Code-first: requiredScopes on tools, resources, templates and prompts, a list of strings.
export const builder = mcpServer({ name: 'n', version: '1' })
  .tool('write', { requiredScopes: ['notes:write'] }, () => 'ok')
  .resource('notes://all', { requiredScopes: ['notes:read'] }, () => 'x')
  .resource('notes://{id}', { requiredScopes: ['notes:read'] }, ({ id }) => id)
  .prompt('p', { requiredScopes: ['notes:read'] }, () => 'x');
// @ts-expect-error requiredScopes is a list of scopes, not one string
export const oneString = mcpServer({ name: 'n', version: '1' }).tool('write', { requiredScopes: 'notes:write' }, () => 'ok');

// The hook of a handler-style server: the method and its params in, scopes (or none) out.
export const hook: McpServerOptions['requiredScopes'] = (method, params) => (method === 'tools/call' && params['name'] === 'x' ? ['s'] : undefined);
// @ts-expect-error the hook answers scopes, not a verdict
export const verdict: McpServerOptions['requiredScopes'] = () => true;
