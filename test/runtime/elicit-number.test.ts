/**
 * A form elicitation's answer is checked against the form the server asked with (runtime/mcp/stateless/elicit-answer.ts):
 * a number field's answer (`score: 95.5`, what the official SDKs send for `score: {type: number, default:
 * 95.5}`) is accepted in both eras although the pinned schema's ElicitResult lists no number among content
 * values; an answer that does not fit the form (a string for the number, a field the form lacks, a required
 * field missing) is refused as before, and every other answer keeps the schema's check.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { formContentProblem } from '../../runtime/mcp/server/elicit-answer.ts';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import type { InputRequest, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, SERVER_INFO, withMeta } from '../helpers/mcp-pair.ts';

const FORM = {
  type: 'object',
  properties: {
    score: { type: 'number', default: 95.5 },
    name: { type: 'string' },
    level: { type: 'string', enum: ['low', 'high'] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  },
  required: ['score'],
} as const;
const ASK: InputRequest<'elicitation/create'> = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Score?', requestedSchema: FORM as never }, // the form's generated type is a union of field types; FORM is one
};

function options(): McpServerOptions {
  return {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    requestStateSecret: Buffer.alloc(32, 3),
    handlers: {
      'tools/call': async (_params, ctx) => {
        const answer = await ctx.input('score', ASK);
        return { content: [{ type: 'text', text: JSON.stringify(answer.content ?? null) }] };
      },
    },
  };
}

// Both revisions loaded before the first request: their validators load lazily, slower than a frame's wait on a busy machine.
beforeAll(async () => {
  await Promise.all([requireRevision('2025-11-25'), requireRevision('2026-07-28')]);
}, 60_000);

const GOOD = { action: 'accept', content: { score: 95.5, name: 'x', level: 'high', tags: ['a'] } };
const BAD: [string, JsonObject][] = [
  ['a string for the number', { action: 'accept', content: { score: 'high' } }],
  ['a field the form lacks', { action: 'accept', content: { score: 1, other: 1 } }],
  ['the required field missing', { action: 'accept', content: { name: 'x' } }],
  ['an option the form does not offer', { action: 'accept', content: { score: 1, level: 'mid' } }],
  ['an action the schema lacks', { action: 'maybe', content: { score: 1 } }],
];

describe('handshake era: the client answers elicitation/create on the connection', () => {
  async function answered(answer: JsonObject): Promise<JsonObject> {
    const pair = mcpPair(options(), { responder: () => answer });
    await handshake(pair, '2025-11-25', { elicitation: {} });
    const { response } = await pair.request('tools/call', { name: 'ask', arguments: {} });
    await pair.close();
    return response;
  }

  it('accepts a number for a number field', async () => {
    expect((await answered(GOOD))['result']).toEqual({ content: [{ type: 'text', text: JSON.stringify(GOOD.content) }] });
  });

  it.each(BAD)('refuses %s (-32603)', async (_what, answer) => {
    const response = await answered(answer);
    expect(response['error']).toMatchObject({
      code: -32603,
      message: "The client's answer to elicitation/create does not match the 2025-11-25 schema",
    });
  });
});

describe('2026-07-28: the retry carries the answer in inputResponses', () => {
  async function retried(answer: JsonObject): Promise<JsonObject> {
    const pair = mcpPair(options());
    const caps = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const first = (await pair.request('tools/call', withMeta({ name: 'ask', arguments: {} }, caps))).response;
    expect((first['result'] as JsonObject)['resultType']).toBe('input_required');
    const { response } = await pair.request('tools/call', withMeta({ name: 'ask', arguments: {}, inputResponses: { score: answer } }, caps));
    await pair.close();
    return response;
  }

  it('accepts a number for a number field', async () => {
    expect((await retried(GOOD))['result']).toMatchObject({
      content: [{ type: 'text', text: JSON.stringify(GOOD.content) }],
      resultType: 'complete',
    });
  });

  it.each(BAD)('refuses %s (-32602)', async (_what, answer) => {
    expect((await retried(answer))['error']).toMatchObject({ code: -32602 });
  });
});

describe('formContentProblem', () => {
  it('names the field and what is wrong', () => {
    expect(formContentProblem(FORM, { score: 'x' })).toBe('content/score is not a number');
    expect(formContentProblem(FORM, { score: 1, tags: ['c'] })).toBe('content/tags holds a value that is not one of the options');
    expect(formContentProblem(FORM, {})).toBe('content/score is required by the form');
    expect(formContentProblem(FORM, { score: 2 })).toBeUndefined();
  });
});
