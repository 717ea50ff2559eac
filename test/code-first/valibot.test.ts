/**
 * A code-first server whose schemas are Valibot's (runtime/mcp/catalog/standard/). Valibot 1.5 has no
 * `~standard.jsonSchema`, so the listing is `@valibot/to-json-schema`'s conversion
 * (https://valibot.dev/guides/json-schema/): `v.object` is `type: object` with `properties` and `required`
 * (an `optional` entry is not required; its default is `default`), `minLength`/`integer`/`description`
 * actions are their keywords, `picklist` is `enum`; `typeMode: 'input'` stops a pipeline at its first
 * transform. The tool gets Valibot's output; invalid values are answered with Valibot's messages.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { DefinitionError, mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { ask, elicitHandshake, elicitStateless, listings, textOf } from './calls.ts';

const $schema = 'https://json-schema.org/draft/2020-12/schema';

const Note = v.object({
  title: v.pipe(v.string(), v.minLength(1), v.description('The title')),
  tags: v.optional(v.array(v.string()), []),
  words: v.pipe(v.string(), v.transform(Number), v.integer()),
});
const Range = v.pipe(
  v.object({ from: v.number(), to: v.number() }),
  v.forward(
    v.partialCheck([['from'], ['to']], (r) => r.from <= r.to, 'from must not exceed to'),
    ['to'],
  ),
);
const Saved = v.object({ id: v.string(), size: v.pipe(v.number(), v.integer(), v.minValue(0)) });
const Rsvp = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.description('Your name')),
  guests: v.optional(v.pipe(v.number(), v.integer()), 0),
});

const notes = () =>
  mcpServer({ name: 'notes', version: '1.0.0' })
    .tool('save', { input: Note, output: Saved }, (note) => ({
      id: `${note.title}:${note.tags.length}:${note.words + 1}`,
      size: note.title === 'negative' ? -1 : note.title.length,
    }))
    .tool('span', { input: Range }, ({ from, to }) => to - from)
    .tool('rsvp', {}, async (_args, ctx) => {
      const answer = await ctx.elicit('Will you come?', Rsvp);
      return answer.action === 'accept' ? `${answer.content.name.toUpperCase()}+${answer.content.guests}` : answer.action;
    })
    .prompt(
      'summary',
      { arguments: v.object({ id: v.pipe(v.string(), v.description('The note id')), style: v.optional(v.picklist(['terse', 'long']), 'terse') }) },
      ({ id, style }) => `Summarise ${id} in a ${style} style`,
    );

const RSVP_FORM = {
  $schema,
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, description: 'Your name' }, guests: { type: 'integer', default: 0 } },
  required: ['name'],
};
const problems = (schema: v.GenericSchema, value: unknown) =>
  v
    .safeParse(schema, value)
    .issues!.map((i) => `/${(i.path ?? []).map((p) => String(p.key)).join('/')} ${i.message}`)
    .join('; ');

describe('a code-first server with Valibot schemas', () => {
  it("advertises @valibot/to-json-schema's conversion: input side for arguments, output side for structuredContent", async () => {
    const { tools } = await listings(notes());
    expect(tools[0]).toEqual({
      name: 'save',
      inputSchema: {
        $schema,
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1, description: 'The title' },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
          // The input side of string → transform → integer is the string.
          words: { type: 'string' },
        },
        required: ['title', 'words'],
      },
      outputSchema: {
        $schema,
        type: 'object',
        properties: { id: { type: 'string' }, size: { type: 'integer', minimum: 0 } },
        required: ['id', 'size'],
      },
    });
    // v.partialCheck is a refinement JSON Schema cannot say: the object is listed without it.
    expect(tools[1]!['inputSchema']).toEqual({
      $schema,
      type: 'object',
      properties: { from: { type: 'number' }, to: { type: 'number' } },
      required: ['from', 'to'],
    });
  });

  it("gives the function Valibot's output: defaults and transforms applied", async () => {
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: { title: 'Plan', words: '12' } });
    expect(response['result']).toMatchObject({ isError: false, structuredContent: { id: 'Plan:0:13', size: 4 } });
  });

  it("answers invalid arguments naming each JSON pointer with Valibot's message", async () => {
    const bad = { title: '', words: 'many', tags: ['a', 3] };
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: bad });
    expect(response['result']).toMatchObject({ isError: true });
    expect(textOf(response)).toBe(`Error executing tool save: invalid arguments: ${problems(Note, bad)}`);
    expect(problems(Note, bad)).toMatch(/^\/title .*; \/tags\/1 .*; \/words /);
  });

  it('checks a refinement (v.forward of a partialCheck)', async () => {
    expect(textOf(await ask(notes(), 'tools/call', { name: 'span', arguments: { from: 1, to: 3 } }))).toBe('2');
    const response = await ask(notes(), 'tools/call', { name: 'span', arguments: { from: 5, to: 3 } });
    expect(textOf(response)).toBe('Error executing tool span: invalid arguments: /to from must not exceed to');
  });

  it('checks the value against the output schema', async () => {
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: { title: 'negative', words: '1' } });
    expect(textOf(response)).toBe(`Error executing tool save: output does not match its outputSchema: ${problems(Saved, { id: 'x', size: -1 })}`);
  });

  it("lists a prompt's arguments from the object's entries and renders with Valibot's output", async () => {
    const { prompts } = await listings(notes());
    expect(prompts).toEqual([{ name: 'summary', arguments: [{ name: 'id', description: 'The note id', required: true }, { name: 'style' }] }]);
    const got = await ask(notes(), 'prompts/get', { name: 'summary', arguments: { id: '7' } });
    expect(got['result']).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise 7 in a terse style' } }] });
  });

  it('elicits a form in both eras', async () => {
    const handshake = await elicitHandshake(notes(), 'rsvp', { action: 'accept', content: { name: 'ada' } });
    expect(handshake.sent['params']).toEqual({ mode: 'form', message: 'Will you come?', requestedSchema: RSVP_FORM });
    expect(textOf(handshake.response)).toBe('ADA+0');
    const stateless = await elicitStateless(notes(), 'rsvp', { action: 'accept', content: { name: 'bo', guests: 2 } });
    expect(stateless.first['inputRequests']).toEqual({
      'elicit:1': { method: 'elicitation/create', params: { mode: 'form', message: 'Will you come?', requestedSchema: RSVP_FORM } },
    });
    expect(textOf(stateless.response)).toBe('BO+2');
  });

  it('refuses a schema JSON Schema cannot express: a DefinitionError naming the tool and why', async () => {
    const server = mcpServer({ name: 'n', version: '1' }).tool('when', { input: v.object({ at: v.date() }) }, ({ at }) => at.toISOString());
    const error = await server.definition().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).problems).toEqual([
      'tool when: /inputSchema: the valibot schema cannot be written as JSON Schema (input side): The "date" schema cannot be converted to JSON Schema.',
    ]);
  });
});
