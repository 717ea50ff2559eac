/**
 * UriTemplateVariables (runtime/mcp/catalog/uri-template.ts): the type of what a match of a template yields, which the
 * code-first builder gives a template's reader. Compiled by `npm run typecheck`.
 */
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import type { UriTemplateVariables } from '../../runtime/mcp/catalog/uri-template.ts';
import { type Equal, expectType } from './equal.ts';

// Simple, reserved, label and path-segment variables are required strings; exploded ones lists.
expectType<Equal<UriTemplateVariables<'notes://{id}'>, { id: string }>>(true);
expectType<Equal<UriTemplateVariables<'files://{+path}{.ext}'>, { path: string; ext: string }>>(true);
expectType<Equal<UriTemplateVariables<'repo://{owner}{/segments*}'>, { owner: string; segments: string[] }>>(true);
expectType<Equal<UriTemplateVariables<'x://{a,b:3}'>, { a: string; b: string }>>(true);
// Fragment, path-parameter and query variables are optional.
expectType<Equal<UriTemplateVariables<'notes://search{?q,limit}{&tag*}'>, { q?: string; limit?: string; tag?: string[] }>>(true);
expectType<Equal<UriTemplateVariables<'x://a{;lang}{#section}'>, { lang?: string; section?: string }>>(true);
// A variable both required and optional is required.
expectType<Equal<UriTemplateVariables<'x://{id}{?id}'>, { id: string }>>(true);
// No expressions: no variables.
expectType<Equal<keyof UriTemplateVariables<'x://plain'>, never>>(true);

// The code-first builder gives a template's reader the same variables.
mcpServer({ name: 'w', version: '1' })
  .resource('notes://{folder}/{id}{?rev,tag*}', {}, (vars) => {
    expectType<Equal<typeof vars, { folder: string; id: string; rev?: string; tag?: string[] }>>(true);
    return vars.id;
  })
  // @ts-expect-error a query variable may be absent
  .resource('notes://search{?q}', {}, ({ q }) => q.trim());
