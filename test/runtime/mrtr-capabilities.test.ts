/**
 * The client-capability check of 2026-07-28 input requests (runtime/mcp/stateless/mrtr.ts): an input_required result
 * may only ask for what the request's declared clientCapabilities support; otherwise -32021 names every
 * missing capability, merged into one object.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { SamplingMessage } from '@wiregen/mcp-2026-07-28';
import type { InputRequest } from '../../runtime/mcp/server/types.ts';
import { CAPS, mcpPair, SERVER_INFO, withMeta } from '../helpers/mcp-pair.ts';

const FORM: InputRequest = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object', properties: {} } },
};
/** elicitationId is the handshake era's (2025-11-25 ElicitRequestURLParams); 2026-07-28 has none, so it is added untyped. */
const URL_PARAMS = { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' } as const;
const URL_MODE: InputRequest = { method: 'elicitation/create', params: URL_PARAMS };
const MESSAGES: SamplingMessage[] = [{ role: 'user', content: { type: 'text', text: 'Hi' } }];
const SAMPLING: InputRequest = { method: 'sampling/createMessage', params: { messages: MESSAGES, maxTokens: 10 } };
const SAMPLING_TOOLS: InputRequest = {
  method: 'sampling/createMessage',
  params: { messages: MESSAGES, maxTokens: 10, tools: [{ name: 'x', inputSchema: { type: 'object' } }] },
};
const SAMPLING_CONTEXT: InputRequest = {
  method: 'sampling/createMessage',
  params: { messages: MESSAGES, maxTokens: 10, includeContext: 'thisServer' },
};
const ROOTS: InputRequest = { method: 'roots/list' };

/** The tools/call answer of a handler asking for `requests` under `capabilities`. */
async function answer(requests: Record<string, InputRequest>, capabilities: JsonObject): Promise<JsonObject> {
  const pair = mcpPair({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: {}, stateless: { tools: {} } },
    handlers: {
      'tools/call': async (_params, ctx) => {
        await ctx.inputs(requests);
        return { content: [] };
      },
    },
  });
  const { response } = await pair.request('tools/call', withMeta({ name: 't' }, { [CAPS]: capabilities }));
  await pair.close();
  return response;
}

const missing = (requiredCapabilities: JsonObject) => ({
  code: -32021,
  message: 'Missing required client capability',
  data: { requiredCapabilities },
});

describe('client capabilities for input requests', () => {
  const refused: [string, { requests: Record<string, InputRequest>; capabilities: JsonObject; want: unknown }][] = [
    ['sampling without sampling', { requests: { s: SAMPLING }, capabilities: {}, want: missing({ sampling: {} }) }],
    ['form elicitation without elicitation', { requests: { e: FORM }, capabilities: {}, want: missing({ elicitation: {} }) }],
    ['url elicitation without elicitation', { requests: { e: URL_MODE }, capabilities: {}, want: missing({ elicitation: { url: {} } }) }],
    [
      'url elicitation with form only',
      { requests: { e: URL_MODE }, capabilities: { elicitation: { form: {} } }, want: missing({ elicitation: { url: {} } }) },
    ],
    [
      'url elicitation with an empty elicitation',
      { requests: { e: URL_MODE }, capabilities: { elicitation: {} }, want: missing({ elicitation: { url: {} } }) },
    ],
    [
      'form elicitation with url only',
      { requests: { e: FORM }, capabilities: { elicitation: { url: {} } }, want: missing({ elicitation: { form: {} } }) },
    ],
    ['sampling with tools, without sampling', { requests: { s: SAMPLING_TOOLS }, capabilities: {}, want: missing({ sampling: { tools: {} } }) }],
    [
      'sampling with tools, with plain sampling',
      { requests: { s: SAMPLING_TOOLS }, capabilities: { sampling: {} }, want: missing({ sampling: { tools: {} } }) },
    ],
    ['sampling with context', { requests: { s: SAMPLING_CONTEXT }, capabilities: { sampling: {} }, want: missing({ sampling: { context: {} } }) }],
    ['roots without roots', { requests: { r: ROOTS }, capabilities: {}, want: missing({ roots: {} }) }],
    [
      'several at once, merged',
      {
        requests: { s: SAMPLING_TOOLS, e: URL_MODE, r: ROOTS },
        capabilities: {},
        want: missing({ sampling: { tools: {} }, elicitation: { url: {} }, roots: {} }),
      },
    ],
    [
      'only what is missing',
      { requests: { s: SAMPLING, c: SAMPLING_CONTEXT, e: FORM }, capabilities: { elicitation: {} }, want: missing({ sampling: { context: {} } }) },
    ],
  ];
  it.each(refused)('refuses %s with -32021', async (_name, { requests, capabilities, want }) => {
    expect((await answer(requests, capabilities))['error']).toEqual(want);
  });

  const allowed: [string, { requests: Record<string, InputRequest>; capabilities: JsonObject }][] = [
    ['form elicitation with an empty elicitation', { requests: { e: FORM }, capabilities: { elicitation: {} } }],
    ['form elicitation with form', { requests: { e: FORM }, capabilities: { elicitation: { form: {} } } }],
    ['url elicitation with url', { requests: { e: URL_MODE }, capabilities: { elicitation: { url: {} } } }],
    ['sampling with sampling', { requests: { s: SAMPLING }, capabilities: { sampling: {} } }],
    ['sampling with tools, with sampling.tools', { requests: { s: SAMPLING_TOOLS }, capabilities: { sampling: { tools: {} } } }],
    ['roots with roots', { requests: { r: ROOTS }, capabilities: { roots: {} } }],
  ];
  it.each(allowed)('allows %s', async (_name, { requests, capabilities }) => {
    expect((await answer(requests, capabilities))['result']).toMatchObject({ resultType: 'input_required', inputRequests: requests });
  });
});
