/**
 * Input in the handshake era (runtime/mcp/handshake/handshake.ts): ctx.input sends elicitation/create or
 * sampling/createMessage to the client with an id of the server's own and resolves with the client's
 * answer; an error answer rejects; a capability the client did not declare at initialize is -32021.
 */
import { describe, expect, it } from 'vitest';
import { JsonRpcError, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { InputRequest, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, SERVER_INFO, type Responder } from '../helpers/mcp-pair.ts';

const ELICIT: InputRequest = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
};
const SAMPLE: InputRequest = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 },
};
/** elicitationId is the handshake era's (2025-11-25 ElicitRequestURLParams); 2026-07-28 has none, so it is added untyped. */
const URL_PARAMS = { mode: 'url', message: 'Sign in', url: 'https://example.com/', elicitationId: 'e1' } as const;
const URL_MODE: InputRequest = { method: 'elicitation/create', params: URL_PARAMS };
/** Sampling with tools and context: two sub-capabilities of sampling at once. */
const SAMPLE_TOOLS: InputRequest = {
  method: 'sampling/createMessage',
  params: { ...SAMPLE.params, tools: [{ name: 't', inputSchema: { type: 'object' } }], includeContext: 'thisServer' },
};
const INPUTS: Record<string, InputRequest> = { elicit: ELICIT, sample: SAMPLE, url: URL_MODE, sampleTools: SAMPLE_TOOLS };

const OPTIONS: McpServerOptions = {
  serverInfo: SERVER_INFO,
  capabilities: { handshake: { tools: {} }, stateless: {} },
  handlers: {
    'tools/call': async (params, ctx) => {
      try {
        const answer = await ctx.input(params['name'] as string, INPUTS[params['name'] as string]!);
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      } catch (err) {
        if (!(err instanceof JsonRpcError) || err.code === -32021) throw err;
        return { content: [{ type: 'text', text: `refused: ${err.code} ${err.message}` }], isError: true };
      }
    },
  },
};

async function run(tool: string, capabilities: JsonObject, responder?: Responder) {
  const pair = mcpPair(OPTIONS, responder ? { responder } : {});
  await handshake(pair, '2025-11-25', capabilities);
  const answer = await pair.request('tools/call', { name: tool }, 'call');
  await pair.close();
  return { frames: pair.frames, response: answer.response };
}

describe('handshake-era input', () => {
  it('sends elicitation/create to the client and uses its answer', async () => {
    const { frames, response } = await run('elicit', { elicitation: {} }, () => ({ action: 'accept', content: { ok: true } }));
    expect(frames[1]).toEqual({ jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: ELICIT.params });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'call',
      result: { content: [{ type: 'text', text: '{"action":"accept","content":{"ok":true}}' }] },
    });
  });

  it('sends sampling/createMessage to the client and uses its answer', async () => {
    const sampled = { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm1' };
    const { frames, response } = await run('sample', { sampling: {} }, () => sampled);
    expect(frames[1]).toEqual({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: SAMPLE.params });
    expect(response['result']).toEqual({ content: [{ type: 'text', text: JSON.stringify(sampled) }] });
  });

  it('numbers its own requests independently of the client', async () => {
    const pair = mcpPair(OPTIONS, { responder: () => ({ action: 'decline' }) });
    await handshake(pair, '2025-11-25', { elicitation: {} });
    await pair.request('tools/call', { name: 'elicit' }, 1);
    await pair.request('tools/call', { name: 'elicit' }, 1);
    expect(pair.frames.filter((f) => f['method'] === 'elicitation/create').map((f) => f['id'])).toEqual([1, 2]);
    await pair.close();
  });

  it("rejects ctx.input with the client's error answer", async () => {
    const { response } = await run('elicit', { elicitation: {} }, () => {
      throw new JsonRpcError(-32000, 'User went away');
    });
    expect(response['result']).toEqual({ content: [{ type: 'text', text: 'refused: -32000 User went away' }], isError: true });
  });

  it('rejects ctx.input when the answer does not match the schema', async () => {
    const { response } = await run('elicit', { elicitation: {} }, () => ({ action: 'maybe' }));
    expect(response['result']).toEqual({
      content: [{ type: 'text', text: "refused: -32603 The client's answer to elicitation/create does not match the 2025-11-25 schema" }],
      isError: true,
    });
  });

  const missing: [string, { tool: string; capabilities: JsonObject; want: JsonObject }][] = [
    ['elicitation', { tool: 'elicit', capabilities: { sampling: {} }, want: { elicitation: {} } }],
    ['sampling', { tool: 'sample', capabilities: { elicitation: {} }, want: { sampling: {} } }],
    ['url-mode elicitation', { tool: 'url', capabilities: { elicitation: { form: {} } }, want: { elicitation: { url: {} } } }],
    // Both sub-capabilities named, merged (not the last one only).
    ['sampling tools and context', { tool: 'sampleTools', capabilities: { sampling: {} }, want: { sampling: { tools: {}, context: {} } } }],
  ];
  it.each(missing)('answers -32021 and sends nothing when the client lacks %s', async (_name, { tool, capabilities, want }) => {
    const { frames, response } = await run(tool, capabilities, () => ({}));
    expect(response['error']).toEqual({ code: -32021, message: 'Missing required client capability', data: { requiredCapabilities: want } });
    expect(frames.filter((f) => f['method'] === INPUTS[tool]!.method)).toEqual([]);
  });
});
