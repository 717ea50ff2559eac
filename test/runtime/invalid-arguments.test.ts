/**
 * The one rule for arguments a tool's inputSchema rejects, on every way of writing a server: a tool execution
 * error (an `isError` result, https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling)
 * whose text names each JSON pointer and what was allowed: the enum's values, the constant, the property
 * that is not allowed, the limit. The validators are ajv's with allErrors (the generated sample validators and
 * the code-first ones alike), so this checks the message against ajv's own errors for the same schema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { describeSchemaErrors } from '../../runtime/mcp/server/errors.ts';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { handshake, mcpPair, withMeta } from '../helpers/mcp-pair.ts';

beforeAll(async () => {
  await Promise.all([requireRevision('2025-11-25'), requireRevision('2026-07-28')]);
});

const NOTE = {
  type: 'object',
  properties: {
    kind: { const: 'note' },
    unit: { enum: ['c', 'f'] },
    title: { type: 'string', minLength: 3, maxLength: 10 },
    stars: { type: 'integer', minimum: 1, maximum: 5 },
    day: { type: 'string', format: 'date' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
  },
  required: ['title'],
  additionalProperties: false,
} as const;

const cases: [string, JsonObject, string][] = [
  ['an enum names its values', { title: 'abc', unit: 'k' }, '/unit must be equal to one of the allowed values: "c", "f"'],
  ['a const names the constant', { title: 'abc', kind: 'task' }, '/kind must be equal to constant "note"'],
  ['a property that is not allowed is named', { title: 'abc', colour: 'red' }, '(root) must NOT have additional properties: "colour"'],
  ['a minimum names the limit', { title: 'abc', stars: 0 }, '/stars must be >= 1'],
  ['a maxLength names the limit', { title: 'a very long title' }, '/title must NOT have more than 10 characters'],
  ['a format names the format', { title: 'abc', day: '12/03/2025' }, '/day must match format "date"'],
  ['maxItems names the limit', { title: 'abc', tags: ['a', 'b', 'c'] }, '/tags must NOT have more than 2 items'],
  ['a missing property is named', {}, "(root) must have required property 'title'"],
  [
    'every error is listed, an anyOf with its branches',
    { title: 'ab', id: true },
    '/title must NOT have fewer than 3 characters; /id must be string; /id must be integer; /id must match a schema in anyOf',
  ],
];

describe('the message names the pointer and what was allowed', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // ajv-formats' "date", as the runtime's validators have it.
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  const validate = ajv.compile(NOTE);

  it.each(cases)('%s (ajv errors described)', (_name, args, want) => {
    expect(validate(args)).toBe(false);
    expect(describeSchemaErrors(validate.errors)).toBe(want);
  });

  it('an enum of many values lists the first 20 and counts the rest', () => {
    const many = ajv.compile({ enum: Array.from({ length: 25 }, (_, i) => i) });
    many(99);
    expect(describeSchemaErrors(many.errors)).toBe(
      `(root) must be equal to one of the allowed values: ${Array.from({ length: 20 }, (_, i) => i).join(', ')}, … (5 more)`,
    );
  });

  it('an if restating its then branch is left out', () => {
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test, never awaited
    const conditional = ajv.compile({ if: { required: ['a'] }, then: { required: ['b'] } });
    conditional({ a: 1 });
    expect(describeSchemaErrors(conditional.errors)).toBe("(root) must have required property 'b'");
  });
});

describe('a code-first tool answers so, in both eras', () => {
  const server = () =>
    mcpServer({ name: 'notes', version: '1' })
      .tool('add_note', { input: NOTE }, () => 'added')
      .build();

  it.each(cases)('%s', async (_name, args, want) => {
    const pair = mcpPair(await server());
    await handshake(pair);
    const legacy = await pair.request('tools/call', { name: 'add_note', arguments: args });
    expect(legacy.response['result']).toEqual({
      content: [{ type: 'text', text: `Error executing tool add_note: invalid arguments: ${want}` }],
      isError: true,
    });
    await pair.close();
    const modern = mcpPair(await server());
    const answer = await modern.request('tools/call', withMeta({ name: 'add_note', arguments: args }));
    expect(answer.response['result']).toMatchObject({
      content: [{ type: 'text', text: `Error executing tool add_note: invalid arguments: ${want}` }],
      isError: true,
    });
    await modern.close();
  });
});

describe('the handlers way', () => {
  it('has no tool schemas: arguments reach the handler, and only a request failing CallToolRequest is a protocol error', async () => {
    const seen: unknown[] = [];
    const pair = mcpPair(
      new McpServer({
        serverInfo: { name: 'h', version: '1' },
        capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
        handlers: {
          'tools/call': (params) => {
            seen.push(params.arguments);
            return { content: [{ type: 'text', text: 'ok' }] };
          },
        },
      }),
    );
    const call = async (params: JsonObject) => (await pair.request('tools/call', withMeta(params))).response;
    expect((await call({ name: 'add_note', arguments: { unit: 'k' } }))['result']).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(seen).toEqual([{ unit: 'k' }]);
    // arguments that are not an object fail the CallToolRequest schema: a malformed request (the 2025-11-25 tools page).
    expect((await call({ name: 'add_note', arguments: 'k' }))['error']).toEqual({
      code: -32602,
      message: 'Invalid params: /arguments must be object',
    });
    await pair.close();
  });
});
