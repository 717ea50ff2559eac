/**
 * @module mcp/catalog/scopes — the OAuth scopes a catalog's items require (`requiredScopes` of a tool,
 * resource, resource template or prompt, in a spec file or in code), as the `McpServerOptions.requiredScopes`
 * hook the Streamable HTTP handler asks before it dispatches a request: a token that lacks one is answered
 * 403 `insufficient_scope` naming them
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling).
 *
 * Listing is not filtered: tools/list, resources/list, resources/templates/list and prompts/list show every
 * item to every caller. The specification has a list depend on no token, and a client learns what it lacks
 * from the 403 of the call and steps up from there (its scope challenge handling); a list that changed with
 * the token could not be cached with `cacheScope: public` either.
 */
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { McpServerOptions } from '../server/types.ts';
import type { CatalogSpec } from './types.ts';
import { matchTemplate } from './uri-template.ts';

/** What an item may declare besides its listing (a spec-only field: never sent in a list). */
export interface Scoped {
  /** Scopes a token needs to call, read or get the item (checked over Streamable HTTP; stdio has no token). */
  readonly requiredScopes?: readonly string[];
}

type ScopeHook = NonNullable<McpServerOptions['requiredScopes']>;

/** `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )` (RFC 6749 §3.3). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

const SECTIONS = [
  ['tools', 'name', 'tool'],
  ['resources', 'uri', 'resource'],
  ['resourceTemplates', 'uriTemplate', 'resource template'],
  ['prompts', 'name', 'prompt'],
] as const;

const scopesOf = (item: JsonObject): readonly string[] | undefined => {
  const scopes = item['requiredScopes'] as readonly string[] | undefined;
  return scopes?.length ? scopes : undefined;
};

/** The item without its `requiredScopes`: what its list shows. */
export function withoutScopes<T extends JsonObject>(item: T): T {
  if (!('requiredScopes' in item)) return item;
  const { requiredScopes: _, ...wire } = item;
  return wire as T;
}

/** One line per malformed `requiredScopes` (not a list of RFC 6749 scope-tokens), naming the item and pointer. */
export function scopeProblems(spec: CatalogSpec): string[] {
  const problems: string[] = [];
  for (const [section, key, kind] of SECTIONS)
    for (const item of (spec[section] ?? []) as readonly JsonObject[]) {
      const scopes = item['requiredScopes'];
      if (scopes === undefined) continue;
      if (!Array.isArray(scopes)) problems.push(`${kind} ${String(item[key])}: /requiredScopes: must be an array of scope strings`);
      else
        scopes.forEach((s, i) => {
          if (typeof s !== 'string' || !SCOPE_TOKEN.test(s))
            problems.push(`${kind} ${String(item[key])}: /requiredScopes/${i}: ${JSON.stringify(s)} is not an OAuth scope (RFC 6749 §3.3)`);
        });
    }
  return problems;
}

/**
 * The hook of a catalog whose items declare scopes (undefined when none does): tools/call by `name`,
 * prompts/get by `name`, resources/read by `uri` (the resource of that URI, else the first template matching
 * it, as resources/read serves it), and completion/complete by its `ref` (the prompt's or template's: a
 * completion reveals values of their arguments).
 */
export function catalogScopes(spec: CatalogSpec): ScopeHook | undefined {
  const byKey = (items: readonly JsonObject[] | undefined, key: string) =>
    new Map((items ?? []).flatMap((i) => (scopesOf(i) ? [[String(i[key]), scopesOf(i)!] as const] : [])));
  const tools = byKey(spec.tools, 'name');
  const prompts = byKey(spec.prompts, 'name');
  const resources = byKey(spec.resources, 'uri');
  const templates = byKey(spec.resourceTemplates, 'uriTemplate');
  if (!tools.size && !prompts.size && !resources.size && !templates.size) return undefined;
  const listed = new Set((spec.resources ?? []).map((r) => r.uri));
  const templateList = (spec.resourceTemplates ?? []).map((t) => t.uriTemplate);
  const forUri = (uri: unknown) => {
    if (typeof uri !== 'string') return undefined;
    if (listed.has(uri)) return resources.get(uri);
    const template = templateList.find((t) => matchTemplate(t, uri) !== undefined);
    return template === undefined ? undefined : templates.get(template);
  };
  const name = (params: JsonObject) => (typeof params['name'] === 'string' ? params['name'] : '');
  return (method, params) => {
    switch (method) {
      case 'tools/call':
        return tools.get(name(params));
      case 'prompts/get':
        return prompts.get(name(params));
      case 'resources/read':
        return forUri(params['uri']);
      case 'completion/complete': {
        const ref = (params['ref'] ?? {}) as JsonObject;
        if (ref['type'] === 'ref/prompt') return prompts.get(name(ref));
        return typeof ref['uri'] === 'string' ? (templates.get(ref['uri']) ?? resources.get(ref['uri'])) : undefined;
      }
      default:
        return undefined;
    }
  };
}

/** Both hooks' scopes, for one request (either may be absent). */
export function unionScopes(a: ScopeHook | undefined, b: ScopeHook | undefined): ScopeHook | undefined {
  if (!a || !b) return a ?? b;
  return (method, params) => {
    const both = [...(a(method, params) ?? []), ...(b(method, params) ?? [])];
    return both.length ? [...new Set(both)] : undefined;
  };
}
