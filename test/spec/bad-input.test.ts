/**
 * Bad input to `wiregen generate --spec`: one line per problem naming the file, line, column and JSON
 * pointer (or the flag), exit code 2, nothing written.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CALC, position, userProject, type UserProject } from './project.ts';

let project: UserProject;
afterEach(() => project?.dispose());

const PINS = 'mcp-2024-11-05, mcp-2025-03-26, mcp-2025-06-18, mcp-2025-11-25, mcp-2026-07-28, a2a-1.0';

/** Runs generate on `spec` (as server.yaml); expects exit 2 and nothing written; returns the error lines. */
async function failGenerate(spec: string, extra: string[] = []): Promise<string[]> {
  project = userProject({ 'server.yaml': spec });
  const { code, out, err } = await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated', ...extra]);
  expect(out).toEqual([]);
  expect(code).toBe(2);
  expect(existsSync(project.path('src'))).toBe(false);
  return err;
}

describe('bad input to generate --spec', () => {
  it('a tool schema that is not JSON Schema 2020-12', async () => {
    const spec = CALC.replace('a: { type: number }', 'a: { type: number, minimum: zero }');
    expect(await failGenerate(spec)).toEqual([
      `server.yaml:${position(spec, 'zero')} /tools/0/inputSchema/properties/a/minimum: not a valid JSON Schema 2020-12: must be number`,
    ]);
  });

  it('a tool name twice, and an item that is not a valid MCP object, reported together', async () => {
    const spec = CALC.replace('- name: shout', '- name: add').replace('uri: "docs://readme"', 'uri: 42');
    expect(await failGenerate(spec)).toEqual([
      `server.yaml:${position(spec, 'add', '- name: add\n    inputSchema: { type: object, properties: { text')} /tools/1/name: tool "add" is declared twice (first at /tools/0)`,
      `server.yaml:${position(spec, '42')} /resources/0/uri: not a valid MCP 2026-07-28 Resource: must be string`,
    ]);
  });

  it('a field the spec format does not know', async () => {
    const spec = CALC.replace('serverInfo:', 'serverinfo:');
    expect(await failGenerate(spec)).toEqual([
      `server.yaml:${position(spec, 'name: calc')} (root): missing required property "serverInfo"`,
      `server.yaml:${position(spec, 'name: calc')} (root): unknown property "serverinfo"`,
    ]);
  });

  it('an unknown pin', async () => {
    expect(await failGenerate(CALC, ['--pin', 'mcp-2099-01-01'])).toEqual([`--pin mcp-2099-01-01: unknown pin (pins: ${PINS})`]);
  });

  it('a pin of the other protocol', async () => {
    expect(await failGenerate(CALC, ['--pin', 'a2a-1.0'])).toEqual([
      'server.yaml: is an MCP server spec (it has no card), but --pin a2a-1.0 is an A2A pin (pins for it: mcp-2024-11-05, mcp-2025-03-26, mcp-2025-06-18, mcp-2025-11-25, mcp-2026-07-28)',
    ]);
  });

  it('a spec file that is not there, and --spec without --out', async () => {
    project = userProject();
    expect(await project.cli(['generate', '--spec', 'nope.yaml', '--out', 'gen'])).toEqual({
      code: 2,
      out: [],
      err: ['nope.yaml: cannot read: ENOENT'],
    });
    expect(await project.cli(['generate', '--spec', 'nope.yaml'])).toEqual({
      code: 2,
      out: [],
      err: ['wiregen generate: --spec needs --out <dir>, the folder its module is written into'],
    });
  });

  it('generate without --spec outside the wiregen repository', async () => {
    project = userProject({ 'server.yaml': CALC });
    expect(await project.cli(['generate'])).toEqual({
      code: 2,
      out: [],
      err: ['wiregen generate: no schemas/pins.json here: in a project of your own, give --spec <file> --out <dir>'],
    });
  });

  it('an --out folder holding files wiregen did not write is left alone', async () => {
    project = userProject({ 'server.yaml': CALC, 'src/server.ts': 'export {};\n' });
    const { code, err } = await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src']);
    expect([code, err]).toEqual([2, ['src: holds files wiregen did not write (server.ts); --out must be a folder of its own']]);
    expect(project.read('src/server.ts')).toBe('export {};\n');
  });
});
