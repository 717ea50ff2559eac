/**
 * The code-first builder in process (runtime/mcp/catalog/code-first.ts, code-first-compile.ts): resources, templates
 * and prompts served through the catalog; a value that fails the tool's output schema is an isError result;
 * what is wrong with a definition is one line naming the item and the JSON pointer, found once when the
 * definition is made (the schemas are compiled then, and only then); and ajv is never imported statically
 * by the runtime, so a server that does not use this path does not load it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { DefinitionError, mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import type { McpServer } from '../../runtime/mcp/server/server.ts';
import { mcpPair, SERVER_INFO_KEY, withMeta } from '../helpers/mcp-pair.ts';
import { ROOT } from '../helpers/project.ts';

const META = { _meta: { [SERVER_INFO_KEY]: { name: 'notes', version: '2.0.0' } } };
const complete = (result: JsonObject, cacheable = false) => ({
  ...result,
  resultType: 'complete',
  ...(cacheable ? { ttlMs: 0, cacheScope: 'private' } : {}),
  ...META,
});

const notes = () =>
  mcpServer({ name: 'notes', version: '2.0.0' })
    .resource('notes://index', { mimeType: 'text/plain' }, () => 'a, b')
    .resource('notes://note/{id}', { name: 'note', description: 'One note' }, ({ id }) => ({ text: `note ${id}`, mimeType: 'text/markdown' }))
    .prompt('summarise', { description: 'Summarise a note', arguments: [{ name: 'id', required: true }, { name: 'style' }] }, ({ id, style }) =>
      style ? `Summarise note ${id} in a ${style} style` : `Summarise note ${id}`,
    )
    // The value's type is given (the escape hatch), so a wrong value compiles: the output schema still checks it.
    .tool<{ n: number }, { double: number }>(
      'double',
      { input: { type: 'object', properties: { n: { type: 'number' } } }, output: { type: 'object', properties: { double: { type: 'number' } } } },
      ({ n }) => ({ double: n === 13 ? (String(n * 2) as unknown as number) : n * 2 }),
    );

describe('a code-first server', () => {
  it('serves resources, templates and prompts, and advertises what it has', async () => {
    const pair = mcpPair(await notes().build());
    const call = async (method: string, params: JsonObject) => (await pair.request(method, withMeta(params))).response;
    const { response: discovered } = await pair.request('server/discover', withMeta());
    expect((discovered['result'] as JsonObject)['capabilities']).toEqual({ prompts: {}, resources: {}, tools: {} });
    expect((await call('resources/list', {}))['result']).toEqual(
      complete({ resources: [{ uri: 'notes://index', name: 'notes://index', mimeType: 'text/plain' }] }, true),
    );
    expect((await call('resources/templates/list', {}))['result']).toEqual(
      complete({ resourceTemplates: [{ uriTemplate: 'notes://note/{id}', name: 'note', description: 'One note' }] }, true),
    );
    expect((await call('resources/read', { uri: 'notes://note/7' }))['result']).toEqual(
      complete({ contents: [{ uri: 'notes://note/7', mimeType: 'text/markdown', text: 'note 7' }] }, true),
    );
    expect((await call('prompts/get', { name: 'summarise', arguments: { id: '7', style: 'terse' } }))['result']).toEqual(
      complete({
        description: 'Summarise a note',
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise note 7 in a terse style' } }],
      }),
    );
    expect((await call('prompts/get', { name: 'summarise', arguments: {} }))['error']).toEqual({
      code: -32602,
      message: 'Missing required prompt arguments',
      data: { missing: ['id'] },
    });
    await pair.close();
  });

  it("checks a tool's value against its output schema: an isError result naming the pointer", async () => {
    const pair = mcpPair(await notes().build());
    const call = async (n: number) => (await pair.request('tools/call', withMeta({ name: 'double', arguments: { n } }))).response['result'];
    expect(await call(2)).toEqual(complete({ content: [{ type: 'text', text: '{"double":4}' }], isError: false, structuredContent: { double: 4 } }));
    expect(await call(13)).toEqual(
      complete({
        content: [{ type: 'text', text: 'Error executing tool double: output does not match its outputSchema: /double must be number' }],
        isError: true,
      }),
    );
    await pair.close();
  });

  it('answers bad arguments with an isError result by default, or -32602 with invalidArguments: error', async () => {
    const echo = (options: { invalidArguments?: 'error' }) =>
      mcpServer({ name: 'n', version: '1', ...options })
        .tool('echo', { input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ({ text }) => text)
        .build();
    const ask = async (server: Promise<McpServer>) => {
      const pair = mcpPair(await server);
      const { response } = await pair.request('tools/call', withMeta({ name: 'echo', arguments: { text: 5 } }));
      await pair.close();
      return response;
    };
    expect((await ask(echo({})))['result']).toMatchObject({
      content: [{ type: 'text', text: 'Error executing tool echo: invalid arguments: /text must be string' }],
      isError: true,
    });
    expect((await ask(echo({ invalidArguments: 'error' })))['error']).toEqual({
      code: -32602,
      message: 'Invalid arguments for tool echo: /text must be string',
    });
  });

  it('makes the definition once: the same validators for every server built from it', async () => {
    const builder = notes();
    const first = await builder.definition();
    expect(await builder.definition()).toBe(first);
    await builder.build();
    expect((await builder.definition()).validators['double']).toBe(first.validators['double']);
    expect(() => builder.tool('late', {}, () => 'x')).toThrow('tool late: the server is already built; add everything before definition()/build()');
  });
});

describe('a code-first definition that is wrong', () => {
  // Shapes the types refuse, written past them to reach the run-time checks.
  const untyped = (schema: unknown) => schema as { type: 'object' };
  const cases: [string, { build: () => Promise<unknown>; want: readonly string[] }][] = [
    [
      'a tool schema of a dialect other than 2020-12 and draft-07',
      {
        build: () =>
          mcpServer({ name: 'n', version: '1' })
            .tool('t', { input: { type: 'object', $schema: 'https://json-schema.org/draft/2019-09/schema' } }, () => 'x')
            .definition(),
        want: [
          'tool t: /inputSchema/$schema is "https://json-schema.org/draft/2019-09/schema"; tool schemas are JSON Schema 2020-12 (the default, https://json-schema.org/draft/2020-12/schema) or draft-07 (http://json-schema.org/draft-07/schema#)',
        ],
      },
    ],
    [
      'a nested schema with an unknown type',
      {
        build: () =>
          mcpServer({ name: 'n', version: '1' })
            .tool('t', { output: untyped({ type: 'object', properties: { a: { type: 'text' } } }) }, () => ({}))
            .definition(),
        want: [
          'tool t: /outputSchema/properties/a/type: not a valid JSON Schema 2020-12: must be equal to one of the allowed values: "array", "boolean", "integer", "null", "number", "object", "string"',
        ],
      },
    ],
    [
      'two problems in two tools, each named',
      {
        build: () =>
          mcpServer({ name: 'n', version: '1' })
            .tool('a', { input: untyped({ type: 'object', properties: { x: { type: 'strin' } } }) }, () => 'x')
            .tool('b', { input: untyped({ type: 'object', properties: { n: { minimum: 'zero' } } }) }, () => 'x')
            .definition(),
        want: [
          'tool a: /inputSchema/properties/x/type: not a valid JSON Schema 2020-12: must be equal to one of the allowed values: "array", "boolean", "integer", "null", "number", "object", "string"',
          'tool b: /inputSchema/properties/n/minimum: not a valid JSON Schema 2020-12: must be number',
        ],
      },
    ],
    [
      'a draft-07 schema its meta-schema rejects, and an unknown format beside it, each named',
      {
        build: () =>
          mcpServer({ name: 'n', version: '1' })
            .tool(
              't',
              {
                input: untyped({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { x: { type: 'strin' } } }),
                output: untyped({ type: 'object', properties: { at: { type: 'string', format: 'bogus' } } }),
              },
              () => ({}),
            )
            .definition(),
        want: [
          'tool t: /inputSchema/properties/x/type: not a valid JSON Schema draft-07: must be equal to one of the allowed values: "array", "boolean", "integer", "null", "number", "object", "string"',
          expect.stringMatching(
            /^tool t: \/outputSchema\/properties\/at\/format: unknown format "bogus" \(the formats are ajv-formats': date, time, /,
          ),
        ],
      },
    ],
    [
      'an input schema that is not an object schema',
      {
        build: () =>
          mcpServer({ name: 'n', version: '1' })
            .tool('t', { input: untyped({ type: 'string' }) }, () => 'x')
            .definition(),
        want: ['tool t: /inputSchema/type: not a valid MCP 2026-07-28 Tool: must be equal to constant "object"'],
      },
    ],
    [
      'a schema ajv cannot compile (a $ref to nowhere)',
      {
        build: () =>
          mcpServer({ name: 'n', version: '1' })
            .tool('t', { input: untyped({ type: 'object', properties: { x: { $ref: '#/$defs/nope' } } }) }, () => 'x')
            .definition(),
        want: ["tool t: /inputSchema is not a valid JSON Schema 2020-12: can't resolve reference #/$defs/nope from id #"],
      },
    ],
  ];
  it.each(cases)('%s is a DefinitionError, one line per problem naming the item and the pointer', async (_name, { build, want }) => {
    const error = await build().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).problems).toEqual(want);
    expect((error as DefinitionError).message).toBe((error as DefinitionError).problems.join('\n'));
  });

  it('the build rejects the same way', async () => {
    const built = mcpServer({ name: 'n', version: '1' })
      .tool('t', { input: untyped({ type: 'object', properties: { x: { type: 'strin' } } }) }, () => 'x')
      .build();
    await expect(built).rejects.toBeInstanceOf(DefinitionError);
  });

  it('a name used twice is a DefinitionError when it is added', () => {
    const builder = mcpServer({ name: 'n', version: '1' }).tool('t', {}, () => 'x');
    expect(() => builder.tool('t', {}, () => 'y')).toThrow(new DefinitionError(['tool t is defined twice']));
    expect(() => builder.tool('t', {}, () => 'y')).toThrow(DefinitionError);
    expect(() => builder.resource('a://b', {}, () => '').resource('a://b', {}, () => '')).toThrow(
      new DefinitionError(['resource a://b is defined twice']),
    );
  });
});

describe('ajv stays out of servers that do not use the code-first path', () => {
  it('no runtime module imports ajv statically (only the code-first path and the client, with import())', () => {
    const files = readdirSync(join(ROOT, 'runtime'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const staticImports = files.filter((f) =>
      /^import (?!type )[^;]*from '(ajv|ajv-formats)(\/[^']*)?';/m.test(readFileSync(join(ROOT, 'runtime', f), 'utf8')),
    );
    expect(staticImports).toEqual([]);
    const dynamic = files.filter((f) => /import\('ajv/.test(readFileSync(join(ROOT, 'runtime', f), 'utf8'))).sort();
    expect(dynamic).toEqual(['mcp/catalog/code-first-compile.ts', 'mcp/client/client.ts']);
  });
});
