/**
 * Type-level tests of the typed server (runtime/mcp/server/types.ts, the generated handlers.ts): compiled by `tsc`
 * in `npm run typecheck`, never run. Each `@ts-expect-error` line must fail to compile (tsc reports an unused
 * one), so a type that got too loose breaks the build.
 */
import type { CallResult, ElicitResult, HandlerParams, HandlerResult, ServerHandlers } from '@wiregen/mcp-2026-07-28';
import type * as M24 from '@wiregen/mcp-2024-11-05';
import { catalogHandlers, type CatalogDefinition } from '../../runtime/mcp/catalog/catalog.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpHandlers, RequestContext } from '../../runtime/mcp/server/types.ts';
import { expectType, type Equal } from './equal.ts';

const SERVER = { serverInfo: { name: 's', version: '1' }, capabilities: { handshake: { tools: {} }, stateless: { tools: {} } } };

// The generated handlers, as they are, are the server's option: no cast.
const generated: ServerHandlers<RequestContext> = {
  // No resultType, ttlMs or cacheScope: the runtime adds them (2026-07-28) or the era has none.
  'tools/list': () => ({ tools: [{ name: 'add', inputSchema: { type: 'object' } }] }),
  'tools/call': async (params, ctx) => {
    // _meta is optional and partial in either era.
    const token = params._meta?.progressToken;
    const answer = await ctx.input('confirm', {
      method: 'elicitation/create',
      params: { mode: 'form', message: `Run ${params.name}?`, requestedSchema: { type: 'object', properties: {} } },
    });
    expectType<Equal<typeof answer, ElicitResult>>(true);
    return { content: [{ type: 'text', text: `${answer.action} ${String(token)}` }] };
  },
};
export const server = new McpServer({ ...SERVER, handlers: generated });

// A handler that returns the wrong shape does not compile.
export const wrongShape = new McpServer({
  ...SERVER,
  handlers: {
    // @ts-expect-error tools/list must answer its tools
    'tools/list': () => ({ tool: [] }),
  },
});
export const wrongContent = new McpServer({
  ...SERVER,
  handlers: {
    // @ts-expect-error a content block's type is one the schema defines
    'tools/call': () => ({ content: [{ type: 'txt', text: 'x' }] }),
  },
});
// Nor does one that reads params the schema does not define, or returns input_required where the manifest forbids it.
export const wrongParams: McpHandlers = {
  // @ts-expect-error tools/call params have no `tool` (the schema names it `name`)
  'tools/call': (params) => ({ content: [{ type: 'text', text: params.tool }] }),
  // @ts-expect-error tools/list is not inputRequired in the manifest
  'tools/list': () => ({ resultType: 'input_required', requestState: 's' }),
};
// tools/call may answer input_required (manifest inputRequired).
export const asking: McpHandlers = { 'tools/call': () => ({ resultType: 'input_required', requestState: 's' }) };
// A handler may still set the envelope itself (its cache hints are kept).
export const ownHints: McpHandlers = { 'tools/list': () => ({ tools: [], ttlMs: 60_000, cacheScope: 'public' }) };
// @ts-expect-error cacheScope is one of the schema's two values
export const badHints: McpHandlers = { 'tools/list': () => ({ tools: [], cacheScope: 'shared' }) };

// Era-neutral helpers: the envelope optional, the rest as the schema says.
expectType<Equal<HandlerParams<'tools/call'>['name'], string>>(true);
expectType<Equal<CallResult<'tools/list'>['ttlMs'], number | undefined>>(true);
expectType<
  Equal<CallResult<'tools/call'>['content'], HandlerResult<'tools/call'> extends infer R ? (R extends { content: infer C } ? C : never) : never>
>(true);
// @ts-expect-error a tools/list result still needs its tools
export const noTools: CallResult<'tools/list'> = { resultType: 'complete' };
// The handshake pins are era-neutral too (their envelope is `_meta`).
export const old: M24.HandlerResult<'tools/call'> = { content: [] };

// ctx.input is typed by method: its params are checked, its answer is the method's result.
export const inputs: McpHandlers = {
  'tools/call': async (_params, ctx) => {
    const roots = await ctx.input('roots', { method: 'roots/list' });
    const both = await ctx.inputs({
      roots: { method: 'roots/list' },
      sampled: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
    });
    // @ts-expect-error elicitation/create needs its message
    await ctx.input('bad', { method: 'elicitation/create', params: { mode: 'form' } });
    // @ts-expect-error tools/list is not a request the server asks of the client
    await ctx.input('bad', { method: 'tools/list' });
    return { content: [{ type: 'text', text: `${roots.roots.length} ${both.roots.roots.length} ${both.sampled.model}` }] };
  },
};

// The catalog's handlers are typed handlers.
declare const def: CatalogDefinition;
export const fromCatalog: ServerHandlers<RequestContext> = catalogHandlers(def);
