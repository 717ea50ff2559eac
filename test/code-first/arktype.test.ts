/**
 * A code-first server whose schemas are ArkType's (runtime/mcp/catalog/standard/). ArkType 2.2 implements
 * `~standard.jsonSchema` (StandardJSONSchemaV1), so the listing is its conversion
 * (https://arktype.io/docs/json-schema): an object is `type: object` with `properties` and `required`
 * (`'key?'` and a defaulted key are optional), `string > 0` is `minLength: 1`, `number.integer` is
 * `type: integer`; a morph's input side is what it takes. The tool gets ArkType's output; invalid values are
 * answered with ArkType's messages.
 */
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { DefinitionError, mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { ask, elicitHandshake, elicitStateless, listings, textOf } from './calls.ts';

const $schema = 'https://json-schema.org/draft/2020-12/schema';

const Note = type({
  title: 'string > 0',
  'tags?': 'string[]',
  words: type('string').pipe((s) => s.length),
  count: 'number.integer = 1',
});
const Range = type({ from: 'number', to: 'number' }).narrow((r, ctx) => r.from <= r.to || ctx.reject({ path: ['to'], expected: 'at least from' }));
const Saved = type({ id: 'string', size: 'number.integer >= 0' });
const Rsvp = type({ name: 'string > 0', guests: 'number.integer = 0' });

const notes = () =>
  mcpServer({ name: 'notes', version: '1.0.0' })
    .tool('save', { input: Note, output: Saved }, (note) => ({
      id: `${note.title}:${note.tags?.length ?? 0}:${note.words}:${note.count}`,
      size: note.title === 'negative' ? -1 : note.title.length,
    }))
    .tool('span', { input: Range }, ({ from, to }) => to - from)
    .tool('rsvp', {}, async (_args, ctx) => {
      const answer = await ctx.elicit('Will you come?', Rsvp);
      return answer.action === 'accept' ? `${answer.content.name.toUpperCase()}+${answer.content.guests}` : answer.action;
    })
    .prompt(
      'summary',
      { arguments: type({ id: 'string', 'style?': "'terse' | 'long'" }) },
      ({ id, style }) => `Summarise ${id} in a ${style ?? 'terse'} style`,
    );

const RSVP_FORM = {
  $schema,
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, guests: { type: 'integer' } },
  required: ['name'],
};
const problems = (schema: { '~standard': { validate: (v: unknown) => unknown } }, value: unknown) => {
  const result = schema['~standard'].validate(value) as { issues: { path: PropertyKey[]; message: string }[] };
  return result.issues.map((i) => `/${i.path.map(String).join('/')} ${i.message}`).join('; ');
};

describe('a code-first server with ArkType schemas', () => {
  it("advertises ArkType's JSON Schema: input side for arguments, output side for structuredContent", async () => {
    const { tools } = await listings(notes());
    expect(tools[0]).toEqual({
      name: 'save',
      inputSchema: {
        $schema,
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          tags: { type: 'array', items: { type: 'string' } },
          words: { type: 'string' },
          count: { type: 'integer' },
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
    // .narrow() is a predicate JSON Schema cannot say: the object is listed without it.
    expect(tools[1]!['inputSchema']).toEqual({
      $schema,
      type: 'object',
      properties: { from: { type: 'number' }, to: { type: 'number' } },
      required: ['from', 'to'],
    });
  });

  it("gives the function ArkType's output: defaults and morphs applied", async () => {
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: { title: 'Plan', words: 'four' } });
    expect(response['result']).toMatchObject({ isError: false, structuredContent: { id: 'Plan:0:4:1', size: 4 } });
  });

  it("answers invalid arguments naming each JSON pointer with ArkType's message", async () => {
    const bad = { title: '', words: 5, tags: ['a', 3] };
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: bad });
    expect(textOf(response)).toBe(`Error executing tool save: invalid arguments: ${problems(Note, bad)}`);
    expect(
      problems(Note, bad)
        .split('; ')
        .map((l) => l.split(' ')[0])
        .sort(),
    ).toEqual(['/tags/1', '/title', '/words']);
  });

  it('checks a refinement (.narrow)', async () => {
    expect(textOf(await ask(notes(), 'tools/call', { name: 'span', arguments: { from: 1, to: 3 } }))).toBe('2');
    const response = await ask(notes(), 'tools/call', { name: 'span', arguments: { from: 5, to: 3 } });
    expect(textOf(response)).toBe(`Error executing tool span: invalid arguments: ${problems(Range, { from: 5, to: 3 })}`);
    expect(textOf(response)).toMatch(/^Error executing tool span: invalid arguments: \/to to must be at least from/);
  });

  it('checks the value against the output schema', async () => {
    const response = await ask(notes(), 'tools/call', { name: 'save', arguments: { title: 'negative', words: 'x' } });
    expect(textOf(response)).toBe(`Error executing tool save: output does not match its outputSchema: ${problems(Saved, { id: 'x', size: -1 })}`);
  });

  it("lists a prompt's arguments from the object's keys and renders with ArkType's output", async () => {
    const { prompts } = await listings(notes());
    expect(prompts).toEqual([{ name: 'summary', arguments: [{ name: 'id', required: true }, { name: 'style' }] }]);
    const got = await ask(notes(), 'prompts/get', { name: 'summary', arguments: { id: '7', style: 'long' } });
    expect(got['result']).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise 7 in a long style' } }] });
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

  it('refuses an output JSON Schema cannot express (a morph to an unknown value): a DefinitionError', async () => {
    const server = mcpServer({ name: 'n', version: '1' }).tool('out', { output: type('string').pipe((s) => ({ s })) }, () => 'x');
    const error = await server.definition().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    // https://arktype.io/docs/json-schema: a morph's output is unknown, which ArkType writes as no constraint.
    expect((error as DefinitionError).problems).toEqual([
      "tool out: /outputSchema: the arktype schema's output side is not an object (its JSON Schema is {}); a tool's arguments and value are objects",
    ]);
  });
});
