/**
 * Multi round-trip requests in 2026-07-28 (runtime/mcp/stateless/mrtr.ts, stateless.ts): ctx.input ends a round
 * with input_required; the retry carries inputResponses; ctx.keepState travels in a signed requestState that
 * a tampered, foreign or expired token cannot replace.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { RequestStateCodec } from '../../runtime/mcp/stateless/request-state.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { InputRequest, McpHandlers, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { mcpPair, SERVER_INFO, SERVER_INFO_KEY, withMeta, type McpPair } from '../helpers/mcp-pair.ts';

const CONFIRM: InputRequest<'elicitation/create'> = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Delete?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
};
const NAME: InputRequest<'elicitation/create'> = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};
const ACCEPT = { action: 'accept', content: { ok: true } };
const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const META = { [SERVER_INFO_KEY]: SERVER_INFO };
const SECRET = Buffer.alloc(32, 7);
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

const TOOLS: Record<string, NonNullable<McpHandlers['tools/call']>> = {
  /** One input. */
  confirm: async (_args, ctx) => text((await ctx.input('confirm', CONFIRM)).action),
  /** Two inputs asked for at once. */
  both: async (_args, ctx) => {
    const got = await ctx.inputs({ confirm: CONFIRM, name: NAME });
    return text(Object.keys(got).sort().join(','));
  },
  /** Keeps state on the first round and reports it on the second. */
  stateful: async (_args, ctx) => {
    if (ctx.state === undefined) ctx.keepState({ step: 1, seen: ['a'] });
    await ctx.input('confirm', CONFIRM);
    return text(JSON.stringify(ctx.state));
  },
};

function options(extra: Partial<McpServerOptions> = {}): McpServerOptions {
  return {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: {}, stateless: { tools: {}, resources: {} } },
    cache: { ttlMs: 1000, cacheScope: 'public' },
    requestStateSecret: SECRET,
    handlers: {
      'tools/call': (params, ctx) => TOOLS[params['name'] as string]!(params, ctx),
      'resources/read': async (params, ctx) => {
        await ctx.input('confirm', CONFIRM);
        return { contents: [{ uri: params['uri'], text: 'ok' }] };
      },
      'tools/list': async (_params, ctx) => {
        await ctx.input('confirm', CONFIRM);
        return { tools: [] };
      },
    },
    ...extra,
  };
}

const call = (pair: McpPair, params: JsonObject) => pair.request('tools/call', withMeta(params, CAPS)).then((a) => a.response);

describe('input_required rounds', () => {
  it('asks for one input without requestState, then completes on the retry', async () => {
    const pair = mcpPair(options());
    const first = await call(pair, { name: 'confirm' });
    expect(first['result']).toEqual({ resultType: 'input_required', inputRequests: { confirm: CONFIRM }, _meta: META });
    const second = await call(pair, { name: 'confirm', inputResponses: { confirm: ACCEPT } });
    expect(second['result']).toEqual({ ...text('accept'), resultType: 'complete', _meta: META });
    await pair.close();
  });

  it('ctx.inputs asks for every missing key at once, and only the missing ones on a partial retry', async () => {
    const pair = mcpPair(options());
    expect((await call(pair, { name: 'both' }))['result']).toEqual({
      resultType: 'input_required',
      inputRequests: { confirm: CONFIRM, name: NAME },
      _meta: META,
    });
    const partial = await call(pair, { name: 'both', inputResponses: { confirm: ACCEPT } });
    expect(partial['result']).toEqual({ resultType: 'input_required', inputRequests: { name: NAME }, _meta: META });
    const full = await call(pair, { name: 'both', inputResponses: { confirm: ACCEPT, name: { action: 'accept', content: { name: 'x' } } } });
    expect(full['result']).toEqual({ ...text('confirm,name'), resultType: 'complete', _meta: META });
    await pair.close();
  });

  it('carries kept state in requestState and gives it back as ctx.state', async () => {
    const pair = mcpPair(options());
    const first = (await call(pair, { name: 'stateful', arguments: { n: 1 } }))['result'] as JsonObject;
    expect(first).toEqual({
      resultType: 'input_required',
      inputRequests: { confirm: CONFIRM },
      requestState: expect.stringMatching(/^mrtr1\.[\w-]+\.[\w-]+$/),
      _meta: META,
    });
    const retry = { name: 'stateful', arguments: { n: 1 }, inputResponses: { confirm: ACCEPT }, requestState: first['requestState'] };
    expect((await call(pair, retry))['result']).toEqual({ ...text('{"step":1,"seen":["a"]}'), resultType: 'complete', _meta: META });
    await pair.close();
  });

  it('puts cache hints on a cacheable method only once it completes', async () => {
    const pair = mcpPair(options());
    const first = await pair.request('resources/read', withMeta({ uri: 'file:///a' }, CAPS));
    expect(first.response['result']).toEqual({ resultType: 'input_required', inputRequests: { confirm: CONFIRM }, _meta: META });
    const second = await pair.request('resources/read', withMeta({ uri: 'file:///a', inputResponses: { confirm: ACCEPT } }, CAPS));
    expect(second.response['result']).toEqual({
      contents: [{ uri: 'file:///a', text: 'ok' }],
      resultType: 'complete',
      ttlMs: 1000,
      cacheScope: 'public',
      _meta: META,
    });
    await pair.close();
  });

  it('refuses an inputResponse that is a valid result of another method', async () => {
    const pair = mcpPair(options());
    const response = await call(pair, { name: 'confirm', inputResponses: { confirm: { roots: [] } } });
    expect(response['error']).toEqual({ code: -32602, message: 'inputResponses.confirm is not a valid elicitation/create result' });
    await pair.close();
  });

  it('refuses an inputResponse that is no valid result at all', async () => {
    const pair = mcpPair(options());
    const response = await call(pair, { name: 'confirm', inputResponses: { confirm: { action: 'maybe' } } });
    // The value matches none of the InputResponse union's branches: the union is what the message names.
    expect(response['error']).toEqual({ code: -32602, message: 'Invalid params: /inputResponses/confirm must match a schema in anyOf' });
    await pair.close();
  });

  // Both handlers are wrong on purpose (tools/list may not answer input_required), so neither type-checks.
  const forbidden: [string, { handler: NonNullable<McpHandlers['tools/list']> }][] = [
    // @ts-expect-error ctx.input resolves to the client's answer, not a tools/list result
    ['ctx.input', { handler: async (_p, ctx) => ctx.input('confirm', CONFIRM) }],
    // @ts-expect-error an input_required value is no tools/list result
    ['an input_required value', { handler: () => ({ resultType: 'input_required', inputRequests: { confirm: CONFIRM } }) }],
  ];
  it.each(forbidden)('answers %s from tools/list (not inputRequired) with -32603', async (_name, { handler }) => {
    const pair = mcpPair(options({ handlers: { 'tools/list': handler } }));
    const { response } = await pair.request('tools/list', withMeta({}, CAPS));
    expect(response['error']).toEqual({ code: -32603, message: 'Input-required result is not permitted for this operation' });
    await pair.close();
  });
});

describe('requestState tokens', () => {
  const INVALID = { code: -32602, message: 'Invalid or expired request state' };
  /** The requestState the first round of `stateful` with `args` returns. */
  async function token(pair: McpPair, args: JsonObject): Promise<string> {
    return ((await call(pair, { name: 'stateful', arguments: args }))['result'] as JsonObject)['requestState'] as string;
  }

  const cases: [string, { retry: (t: string) => JsonObject }][] = [
    ['a tampered token', { retry: (t) => ({ name: 'stateful', arguments: { n: 1 }, requestState: `${t}-TAMPERED` }) }],
    ['a token from other arguments', { retry: (t) => ({ name: 'stateful', arguments: { n: 2 }, requestState: t }) }],
    ['a token from another tool', { retry: (t) => ({ name: 'confirm', arguments: { n: 1 }, requestState: t }) }],
    ['a token without arguments', { retry: (t) => ({ name: 'stateful', requestState: t }) }],
    ['garbage', { retry: () => ({ name: 'stateful', arguments: { n: 1 }, requestState: 'not-a-token' }) }],
  ];
  it.each(cases)('refuses %s with -32602', async (_name, { retry }) => {
    const pair = mcpPair(options());
    const t = await token(pair, { n: 1 });
    expect((await call(pair, { ...retry(t), inputResponses: { confirm: ACCEPT } }))['error']).toEqual(INVALID);
    await pair.close();
  });

  it('accepts a token signed with the same secret by another server instance', async () => {
    const pair = mcpPair(options());
    const t = await token(pair, { n: 1 });
    const other = mcpPair(options());
    const response = await call(other, { name: 'stateful', arguments: { n: 1 }, requestState: t, inputResponses: { confirm: ACCEPT } });
    expect(response['result']).toMatchObject({ resultType: 'complete' });
    await Promise.all([pair.close(), other.close()]);
  });

  it('refuses a token once its time to live has passed', async () => {
    let now = 1_700_000_000_000;
    const server = new McpServer({ ...options(), log: () => {} });
    Object.assign(server, { codec: new RequestStateCodec(SECRET, 60, () => now) });
    const pair = mcpPair(server);
    const t = await token(pair, { n: 1 });
    now += 60_000;
    const retry = { name: 'stateful', arguments: { n: 1 }, requestState: t, inputResponses: { confirm: ACCEPT } };
    expect((await call(pair, retry))['result']).toMatchObject({ resultType: 'complete' });
    now += 1_000;
    expect((await call(pair, retry))['error']).toEqual(INVALID);
    await pair.close();
  });
});
