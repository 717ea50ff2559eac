/**
 * Every `format` ajv-formats knows, in a user's spec (`wiregen generate --spec`): the generated module
 * imports and runs (every one of its files), each format's validator gives ajv's verdict through the served
 * tool, in both dialects; the same tools written in code give the same verdicts; and a format ajv-formats
 * does not know is one line naming where it is, exit 2 (spec) or one thrown line (code-first), not a
 * warning that lets the schema through.
 */
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import ajvFormatsModule from 'ajv-formats/dist/formats.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import { position, userProject } from './project.ts';
import { ajvAccepts, callVerdict, codeFirstServer, generatedServer, type GeneratedServer, type ToolDef } from './tool-server.ts';
import type { McpPair } from '../helpers/mcp-pair.ts';

const FORMATS = Object.keys((ajvFormatsModule as unknown as { fullFormats: object }).fullFormats);
/** ajv-formats' number formats (`{ type: "number", validate }`); every other one checks strings. */
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

/** The formats ajv-formats accepts every value of their type for (annotations only). */
const ACCEPT_ALL = new Set(['password', 'binary', 'float', 'double']);

/** Strings (or numbers) each format is tried on: some it accepts, some it refuses (ajv decides which). */
const SAMPLES: Record<string, unknown[]> = {
  date: ['2026-02-28', '2024-02-29', '2026-02-29', '2026-13-01', '26-01-01'],
  time: ['12:30:00Z', '23:59:60Z', '12:30:00+01:00', '12:30:00', '25:00:00Z'],
  'date-time': ['2026-01-01T00:00:00Z', '2026-01-01 00:00:00+02:00', '2026-01-01T00:00:00', '2026-01-32T00:00:00Z'],
  'iso-time': ['12:30:00', '12:30:00.5Z', '12:60:00'],
  'iso-date-time': ['2026-01-01T00:00:00', '2026-01-01', '2026-01-01T24:00:00'],
  duration: ['P1D', 'PT1H30M', 'P1W', 'P', '1D'],
  uri: ['https://example.com/a?b#c', 'urn:isbn:0451450523', '/relative/path', 'http://exa mple.com'],
  'uri-reference': ['/relative/path', '#frag', 'https://example.com', '\\\\bad'],
  'uri-template': ['https://example.com/{id}', '/users{/id}{?q}', '/bad{'],
  url: ['https://example.com/x', 'ftp://example.com', 'example.com'],
  email: ['a@example.com', 'a.b+c@example.co.uk', 'not an email', '@example.com'],
  hostname: ['example.com', 'a-b.example', '-bad.example', 'x'.repeat(64)],
  ipv4: ['192.168.0.1', '256.0.0.1', '1.2.3'],
  ipv6: ['::1', '2001:db8::8a2e:370:7334', ':::1', '1.2.3.4'],
  regex: ['^a+$', '(unclosed', '[a-z]{2,}'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000', 'nope'],
  'json-pointer': ['/a/b', '', '/a~1b', 'a/b', '/a~2'],
  'json-pointer-uri-fragment': ['#/a/b', '#', '#/a%20b', '/a'],
  'relative-json-pointer': ['0', '1/a/b', '2#', '-1', 'a'],
  byte: ['aGVsbG8=', 'aGVsbG8', '', 'a===', '****'],
  int32: [0, 2147483647, 2147483648, -2147483649, 1.5],
  int64: [0, 9007199254740991, 1.5, -3],
  float: [1.5, 0, -1e30],
  double: [1.5, 0, 1e300],
  password: ['anything', ''],
  binary: ['anything', ''],
};

/** One tool per format and dialect: `{ v: <format> }`, `v` required. */
function formatTools(): ToolDef[] {
  const tools: ToolDef[] = [];
  for (const format of FORMATS)
    for (const draft07 of [false, true]) {
      const v = { type: NUMBER_FORMATS.has(format) ? 'number' : 'string', format };
      tools.push({
        name: `${format}${draft07 ? '-07' : ''}`,
        inputSchema: {
          ...(draft07 ? { $schema: 'http://json-schema.org/draft-07/schema#' } : {}),
          type: 'object',
          properties: { v },
          required: ['v'],
        },
      });
    }
  return tools;
}

describe('every format ajv-formats knows, in a spec and in code', () => {
  const tools = formatTools();
  let spec: GeneratedServer;
  let code: McpPair;
  beforeAll(async () => {
    // The strict type check of tool types is schema-parity's (every format is in its arbitraries).
    spec = await generatedServer('formats', tools, { typecheck: false });
    code = await codeFirstServer(tools);
  });
  afterAll(async () => {
    await spec?.dispose();
    await code?.close();
  });

  it('has a sample set for every format, so none goes untried', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...FORMATS].sort());
  });

  it('generates a module whose every file imports and runs', async () => {
    expect(spec.generateErr).toEqual([]);
    const files = readdirSync(spec.project.path('src/generated')).sort();
    expect(files).toEqual(['index.ts', 'validators.draft-07.ts', 'validators.ts']);
    for (const file of files) {
      const mod = (await import(pathToFileURL(spec.project.path(`src/generated/${file}`)).href)) as Record<string, unknown>;
      expect(Object.keys(mod).length, file).toBeGreaterThan(0);
      // Every validator a file exports runs (a module that only fails when a validator runs fails here too).
      for (const [name, value] of Object.entries(mod))
        if (/_input$/.test(name)) expect(typeof (value as (d: unknown) => boolean)({}), name).toBe('boolean');
    }
  });

  it.each(FORMATS)("%s: the spec server and the code-first server give ajv's verdict on each sample, in both dialects", async (format) => {
    const seen = new Set<boolean>();
    for (const tool of tools.filter((t) => t.name === format || t.name === `${format}-07`))
      for (const sample of SAMPLES[format]!) {
        const args = { v: sample };
        const want = ajvAccepts(tool.inputSchema, args) ? 'accepted' : 'rejected';
        seen.add(want === 'accepted');
        expect(await callVerdict(spec.pair, tool.name, args), `spec ${tool.name} ${JSON.stringify(sample)}`).toBe(want);
        expect(await callVerdict(code, tool.name, args), `code-first ${tool.name} ${JSON.stringify(sample)}`).toBe(want);
      }
    // Each format's samples include one it refuses, except those that accept every string (or number).
    expect([...seen].sort()).toEqual(ACCEPT_ALL.has(format) ? [true] : [false, true]);
  });
});

describe('a format ajv-formats does not know', () => {
  const spec = `name: notes
serverInfo: { name: notes, version: 0.1.0 }
capabilities:
  handshake: { tools: {} }
  stateless: { tools: {} }
tools:
  - name: add_note
    inputSchema:
      type: object
      properties:
        when: { type: string, format: bogus }
        list: { type: array, items: { type: string, format: dat } }
        ok: { type: string, format: date }
`;

  it('generate --spec: one line per unknown format naming its file, line, column and pointer; exit 2, nothing written', async () => {
    const project = userProject({ 'server.yaml': spec });
    try {
      const { code, out, err } = await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated']);
      const known = `(the formats are ajv-formats': ${FORMATS.join(', ')})`;
      expect({ code, out, err }).toEqual({
        code: 2,
        out: [],
        err: [
          `server.yaml:${position(spec, 'bogus')} /tools/0/inputSchema/properties/when/format: unknown format "bogus" ${known}`,
          `server.yaml:${position(spec, 'dat }')} /tools/0/inputSchema/properties/list/items/format: unknown format "dat" ${known}`,
        ],
      });
    } finally {
      project.dispose();
    }
  });

  it('code-first: the definition is refused in one line naming the tool and the pointer', async () => {
    const build = mcpServer({ name: 'n', version: '1' })
      .tool('t', { input: { type: 'object', properties: { when: { type: 'string', format: 'bogus' } } } }, () => 'x')
      .definition();
    await expect(build).rejects.toThrow(
      /^tool t: \/inputSchema\/properties\/when\/format: unknown format "bogus" \(the formats are ajv-formats': date, /,
    );
  });
});
