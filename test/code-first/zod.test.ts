/**
 * A code-first server whose tools are Zod 4 schemas (runtime/mcp/catalog/standard/): the advertised
 * inputSchema/outputSchema are Zod's own JSON Schema conversion (https://zod.dev/json-schema: `io: 'input'`
 * makes a field with a default optional, `.describe()` is `description`), the tool function gets Zod's parsed
 * output (defaults, transforms, coercion), invalid arguments are answered naming the JSON pointer with Zod's
 * message, a refinement is checked, and the value returned is checked and made by the output schema.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { DefinitionError, mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { mcpPair, withMeta } from '../helpers/mcp-pair.ts';

const Note = z.object({
  title: z.string().min(1).describe('The title'),
  tags: z.array(z.string()).default([]),
  words: z.coerce.number().int(),
  shout: z
    .string()
    .optional()
    .transform((s) => s?.toUpperCase()),
});
const Range = z.object({ from: z.number(), to: z.number() }).refine((r) => r.from <= r.to, { message: 'from must not exceed to', path: ['to'] });
const Saved = z.object({ id: z.string(), size: z.number().int().nonnegative() });

const notes = (invalidArguments?: 'error') =>
  mcpServer({ name: 'notes', version: '1.0.0', ...(invalidArguments ? { invalidArguments } : {}) })
    .tool('save', { description: 'Save a note', input: Note, output: Saved }, (note) => ({
      id: `${note.title}:${note.tags.length}:${note.words}:${note.shout ?? '-'}`,
      size: note.title === 'negative' ? -1 : note.title.length,
    }))
    .tool('span', { input: Range }, ({ from, to }) => to - from);

async function call(name: string, args: JsonObject, invalidArguments?: 'error'): Promise<JsonObject> {
  const pair = mcpPair(await notes(invalidArguments).build());
  const { response } = await pair.request('tools/call', withMeta({ name, arguments: args }));
  await pair.close();
  return response;
}
const text = (response: JsonObject) => ((response['result'] as JsonObject)['content'] as JsonObject[])[0]!['text'];

describe('a code-first server with Zod schemas', () => {
  it("advertises Zod's JSON Schema: the input side for arguments, the output side for structuredContent", async () => {
    const pair = mcpPair(await notes().build());
    const { response } = await pair.request('tools/list', withMeta());
    await pair.close();
    const [save, span] = (response['result'] as { tools: JsonObject[] }).tools;
    // https://zod.dev/json-schema: draft 2020-12 by default; io 'input' leaves a defaulted field out of
    // `required` and shows its default; z.coerce.number() accepts a number in JSON Schema; an optional
    // transform's input is the optional string.
    expect(save).toEqual({
      name: 'save',
      description: 'Save a note',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1, description: 'The title' },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
          words: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
          shout: { type: 'string' },
        },
        required: ['title', 'words'],
      },
      // io 'output': an object is closed (additionalProperties false) and every field without a default required.
      outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { id: { type: 'string' }, size: { type: 'integer', minimum: 0, maximum: 9007199254740991 } },
        required: ['id', 'size'],
        additionalProperties: false,
      },
    });
    expect(span!['inputSchema']).toMatchObject({ type: 'object', required: ['from', 'to'] });
  });

  it("gives the function Zod's output: defaults, coercion and transforms applied", async () => {
    const response = await call('save', { title: 'Plan', words: '12', shout: 'hey' });
    expect(response['result']).toMatchObject({
      content: [{ type: 'text', text: '{"id":"Plan:0:12:HEY","size":4}' }],
      isError: false,
      structuredContent: { id: 'Plan:0:12:HEY', size: 4 },
    });
  });

  it("answers invalid arguments naming each JSON pointer with Zod's message, as a result or -32602", async () => {
    const bad = { title: '', words: 'many', tags: ['a', 3] };
    const issues = z.safeParse(Note, bad).error!.issues;
    const expected = issues.map((i) => `/${i.path.join('/')} ${i.message}`).join('; ');
    expect(issues.map((i) => i.path.join('/'))).toEqual(['title', 'tags/1', 'words']);
    expect(text(await call('save', bad))).toBe(`Error executing tool save: invalid arguments: ${expected}`);
    expect((await call('save', bad, 'error'))['error']).toEqual({ code: -32602, message: `Invalid arguments for tool save: ${expected}` });
  });

  it('checks a refinement', async () => {
    expect(text(await call('span', { from: 1, to: 3 }))).toBe('2');
    const response = await call('span', { from: 5, to: 3 });
    expect(response['result']).toMatchObject({ isError: true });
    expect(text(response)).toBe('Error executing tool span: invalid arguments: /to from must not exceed to');
  });

  it('checks the value against the output schema', async () => {
    const response = await call('save', { title: 'negative', words: 1 });
    expect(response['result']).toMatchObject({ isError: true });
    expect(text(response)).toBe(
      `Error executing tool save: output does not match its outputSchema: /size ${z.safeParse(Saved, { id: 'x', size: -1 }).error!.issues[0]!.message}`,
    );
  });

  it('refuses a schema JSON Schema cannot express: a DefinitionError naming the tool and why', async () => {
    const server = mcpServer({ name: 'n', version: '1' }).tool('when', { input: z.object({ at: z.date() }) }, ({ at }) => at.toISOString());
    const error = await server.definition().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).problems).toEqual([
      'tool when: /inputSchema: the zod schema cannot be written as JSON Schema (input side): Date cannot be represented in JSON Schema',
    ]);
  });
});
