/**
 * A code-first server whose schemas are Zod 4's (runtime/mcp/catalog/standard/): the advertised
 * inputSchema/outputSchema are Zod's own JSON Schema conversion (https://zod.dev/json-schema: draft 2020-12,
 * `io: 'input'` leaves a field with a default out of `required` and shows the default, `io: 'output'` closes
 * objects, `.describe()` is `description`), the tool function gets Zod's parsed output (defaults, transforms,
 * coercion), invalid arguments are answered naming the JSON pointer with Zod's message, a refinement is
 * checked, the value returned is checked and made by the output schema, a prompt's arguments are the object's
 * properties, and ctx.elicit asks with the form's JSON Schema and returns Zod's output in both eras.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefinitionError, mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { ask, elicitHandshake, elicitStateless, listings, textOf } from './calls.ts';

const $schema = 'https://json-schema.org/draft/2020-12/schema';
/** Zod's bounds of a safe integer (z.int(): Number.MIN_SAFE_INTEGER..MAX_SAFE_INTEGER, https://zod.dev/api#numbers). */
const SAFE = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

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
const Rsvp = z.object({
  name: z.string().min(1).describe('Your name'),
  guests: z.number().int().default(0),
  diet: z.enum(['any', 'vegan']).optional(),
});

const notes = (invalidArguments?: 'error') =>
  mcpServer({ name: 'notes', version: '1.0.0', ...(invalidArguments ? { invalidArguments } : {}) })
    .tool('save', { description: 'Save a note', input: Note, output: Saved }, (note) => ({
      id: `${note.title}:${note.tags.length}:${note.words}:${note.shout ?? '-'}`,
      size: note.title === 'negative' ? -1 : note.title.length,
    }))
    .tool('span', { input: Range }, ({ from, to }) => to - from)
    .tool('rsvp', {}, async (_args, ctx) => {
      const answer = await ctx.elicit('Will you come?', Rsvp);
      return answer.action === 'accept' ? `${answer.content.name.toUpperCase()}+${answer.content.guests}` : answer.action;
    })
    .prompt(
      'summary',
      {
        description: 'Summary of a note',
        arguments: z.object({ id: z.string().describe('The note id'), style: z.enum(['terse', 'long']).default('terse') }),
      },
      ({ id, style }) => `Summarise ${id} in a ${style} style`,
    );

/** The form Zod's input side makes of Rsvp. */
const RSVP_FORM = {
  $schema,
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, description: 'Your name' },
    guests: { type: 'integer', ...SAFE, default: 0 },
    diet: { type: 'string', enum: ['any', 'vegan'] },
  },
  required: ['name'],
};

describe('a code-first server with Zod schemas', () => {
  it("advertises Zod's JSON Schema: the input side for arguments, the output side for structuredContent", async () => {
    const { tools } = await listings(notes());
    // z.coerce.number() takes a number in JSON Schema; an optional transform's input is the optional string.
    expect(tools[0]).toEqual({
      name: 'save',
      description: 'Save a note',
      inputSchema: {
        $schema,
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1, description: 'The title' },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
          words: { type: 'integer', ...SAFE },
          shout: { type: 'string' },
        },
        required: ['title', 'words'],
      },
      outputSchema: {
        $schema,
        type: 'object',
        properties: { id: { type: 'string' }, size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
        required: ['id', 'size'],
        additionalProperties: false,
      },
    });
    // A refinement is not JSON Schema: the object is listed without it.
    expect(tools[1]).toEqual({
      name: 'span',
      inputSchema: { $schema, type: 'object', properties: { from: { type: 'number' }, to: { type: 'number' } }, required: ['from', 'to'] },
    });
  });

  it("gives the function Zod's output: defaults, coercion and transforms applied", async () => {
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: { title: 'Plan', words: '12', shout: 'hey' } });
    expect(response['result']).toMatchObject({
      content: [{ type: 'text', text: '{"id":"Plan:0:12:HEY","size":4}' }],
      isError: false,
      structuredContent: { id: 'Plan:0:12:HEY', size: 4 },
    });
  });

  it("answers invalid arguments naming each JSON pointer with Zod's message, as a result or -32602", async () => {
    const bad = { title: '', words: 'many', tags: ['a', 3] };
    const reported = z.safeParse(Note, bad).error!.issues;
    expect(reported.map((i) => i.path.join('/'))).toEqual(['title', 'tags/1', 'words']);
    const expected = reported.map((i) => `/${i.path.join('/')} ${i.message}`).join('; ');
    const result = await ask(notes(), 'tools/call', { name: 'save', arguments: bad });
    expect(result['result']).toMatchObject({ isError: true });
    expect(textOf(result)).toBe(`Error executing tool save: invalid arguments: ${expected}`);
    expect((await ask(notes('error'), 'tools/call', { name: 'save', arguments: bad }))['error']).toEqual({
      code: -32602,
      message: `Invalid arguments for tool save: ${expected}`,
    });
  });

  it('checks a refinement', async () => {
    expect(textOf(await ask(notes(), 'tools/call', { name: 'span', arguments: { from: 1, to: 3 } }))).toBe('2');
    const response = await ask(notes(), 'tools/call', { name: 'span', arguments: { from: 5, to: 3 } });
    expect(response['result']).toMatchObject({ isError: true });
    expect(textOf(response)).toBe('Error executing tool span: invalid arguments: /to from must not exceed to');
  });

  it('checks the value against the output schema', async () => {
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: { title: 'negative', words: 1 } });
    expect(response['result']).toMatchObject({ isError: true });
    const message = z.safeParse(Saved, { id: 'x', size: -1 }).error!.issues[0]!.message;
    expect(textOf(response)).toBe(`Error executing tool save: output does not match its outputSchema: /size ${message}`);
  });

  it("lists a prompt's arguments from the object's properties and renders with Zod's output", async () => {
    const { prompts } = await listings(notes());
    expect(prompts).toEqual([
      {
        name: 'summary',
        description: 'Summary of a note',
        arguments: [{ name: 'id', description: 'The note id', required: true }, { name: 'style' }],
      },
    ]);
    const got = await ask(notes(), 'prompts/get', { name: 'summary', arguments: { id: '7' } });
    expect(got['result']).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise 7 in a terse style' } }] });
    const bad = await ask(notes(), 'prompts/get', { name: 'summary', arguments: { id: '7', style: 'loud' } });
    const message = z.safeParse(z.enum(['terse', 'long']), 'loud').error!.issues[0]!.message;
    expect(bad['error']).toEqual({ code: -32602, message: `Invalid arguments for prompt summary: /style ${message}` });
    expect((await ask(notes(), 'prompts/get', { name: 'summary', arguments: {} }))['error']).toEqual({
      code: -32602,
      message: 'Missing required prompt arguments',
      data: { missing: ['id'] },
    });
  });

  it("elicits a form in the handshake era: the client answers, the tool gets Zod's output", async () => {
    const { sent, response } = await elicitHandshake(notes(), 'rsvp', { action: 'accept', content: { name: 'ada' } });
    expect(sent['params']).toEqual({ mode: 'form', message: 'Will you come?', requestedSchema: RSVP_FORM });
    expect(textOf(response)).toBe('ADA+0');
    expect(textOf((await elicitHandshake(notes(), 'rsvp', { action: 'decline' })).response)).toBe('decline');
    // An answer the form's JSON Schema lets through but Zod does not (minLength is Zod's to check).
    const empty = await elicitHandshake(notes(), 'rsvp', { action: 'accept', content: { name: '' } });
    expect(empty.response['result']).toMatchObject({ isError: true });
    const message = z.safeParse(Rsvp, { name: '' }).error!.issues[0]!.message;
    expect(textOf(empty.response)).toBe(`elicit: the answer does not match the form: /name ${message}`);
  });

  it('elicits without `mode` from a 2025-06-18 client (form mode and its field came with 2025-11-25)', async () => {
    // https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation: params are message and requestedSchema.
    const { sent, response } = await elicitHandshake(notes(), 'rsvp', { action: 'accept', content: { name: 'cy' } }, '2025-06-18');
    expect(sent['params']).toEqual({ message: 'Will you come?', requestedSchema: RSVP_FORM });
    expect(textOf(response)).toBe('CY+0');
  });

  it('elicits a form in 2026-07-28: input_required, then the retry carries the answer', async () => {
    const { first, response } = await elicitStateless(notes(), 'rsvp', { action: 'accept', content: { name: 'bo', guests: 2 } });
    expect(first['resultType']).toBe('input_required');
    expect(first['inputRequests']).toEqual({
      'elicit:1': { method: 'elicitation/create', params: { mode: 'form', message: 'Will you come?', requestedSchema: RSVP_FORM } },
    });
    expect(textOf(response)).toBe('BO+2');
  });

  it('refuses a schema JSON Schema cannot express: a DefinitionError naming the tool and why', async () => {
    const server = mcpServer({ name: 'n', version: '1' })
      .tool('when', { input: z.object({ at: z.date() }) }, ({ at }) => at.toISOString())
      .tool('out', { output: z.object({ n: z.string().transform(Number) }) }, () => ({ n: '1' }))
      .prompt('p', { arguments: z.string() }, (s) => s);
    const error = await server.definition().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    // https://zod.dev/json-schema#unrepresentable: z.date() and a transform's output throw.
    expect((error as DefinitionError).problems).toEqual([
      'tool when: /inputSchema: the zod schema cannot be written as JSON Schema (input side): Date cannot be represented in JSON Schema',
      'tool out: /outputSchema: the zod schema cannot be written as JSON Schema (output side): Transforms cannot be represented in JSON Schema',
      'prompt p: /arguments: prompt arguments are an object\'s properties; this schema is "string"',
    ]);
  });

  it('refuses a form MCP does not allow: a nested object', async () => {
    const server = mcpServer({ name: 'n', version: '1' }).tool('nested', {}, async (_a, ctx) => {
      await ctx.elicit('Where?', z.object({ place: z.object({ city: z.string() }) }));
      return 'never';
    });
    const { response } = await elicitHandshake(server, 'nested', { action: 'cancel' });
    expect(textOf(response)).toMatch(/^elicit: \/requestedSchema\/properties\/place\/type: not a form MCP 2026-07-28 allows/);
  });
});
