/**
 * Bad input to `wiregen generate --spec` and `wiregen serve`: one line per problem naming the file, line,
 * column and JSON pointer (or the flag or target), exit code 2, no stack trace, nothing written.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CALC, position, userProject, type UserProject } from './project.ts';

let project: UserProject;
afterEach(() => project?.dispose());

const PINS = 'mcp-2024-11-05, mcp-2025-03-26, mcp-2025-06-18, mcp-2025-11-25, mcp-2026-07-28, a2a-1.0';

/** Runs generate on `spec` (as server.yaml); expects exit 2 and nothing written; returns the error lines. */
async function failGenerate(spec: string, extra: string[] = []): Promise<string[]> {
  project?.dispose();
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

/** The behaviours module of a served spec, with `add` only. */
const PARTIAL = `import { createServer } from './generated/index.js';
export default createServer({ tools: { add: ({ a, b }) => ({ sum: a + b }) } });
`;

describe('bad input to serve (the wiregen process)', () => {
  /** Runs `wiregen serve …` in a fresh project; expects exit 2 and one stderr line per problem, no stack. */
  async function failServe(files: Record<string, string>, argv: string[]): Promise<string[]> {
    project?.dispose();
    project = userProject(files, { nodeModules: true });
    if (files['server.yaml']) expect((await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated'])).code).toBe(0);
    const { code, stdout, stderr } = await project.spawn(['serve', ...argv]);
    expect(stdout).toBe('');
    expect(code).toBe(2);
    expect(stderr).not.toMatch(/\n\s+at /);
    return stderr.trimEnd().split('\n');
  }

  it('a behaviour missing: the lines createServer reports, each naming where the spec declares it', async () => {
    const spec = `${CALC}main: ./src/server.ts\n`;
    const err = await failServe({ 'server.yaml': spec, 'src/server.ts': PARTIAL }, ['server.yaml', '--stdio']);
    expect(err).toEqual([
      `server.yaml:${position(spec, 'name: shout')} /tools/1: tool "shout" has no behaviour: behaviours.tools["shout"] is not a function`,
      `server.yaml:${position(spec, '{ uri:')} /resources/0: resource "docs://readme" has no behaviour: behaviours.resources["docs://readme"] is not a function`,
      `server.yaml:${position(spec, '{ uriTemplate:')} /resourceTemplates/0: resource template "docs://page/{n}" has no behaviour: behaviours.resourceTemplates["docs://page/{n}"] is not a function`,
      `server.yaml:${position(spec, 'name: greet')} /prompts/0: prompt "greet" has no behaviour: behaviours.prompts["greet"] is not a function`,
    ]);
  });

  it('a spec without main, and a main that does not exist', async () => {
    expect(await failServe({ 'server.yaml': CALC }, ['server.yaml', '--stdio'])).toEqual([
      'server.yaml: names no module to serve: add `main: ./src/server.ts` (the module whose default export createServer or createAgent made)',
    ]);
    const spec = `${CALC}main: ./src/missing.ts\n`;
    expect(await failServe({ 'server.yaml': spec }, ['server.yaml', '--stdio'])).toEqual([
      `server.yaml:${position(spec, './src/missing.ts')} /main: ./src/missing.ts does not exist`,
    ]);
  });

  it('a module whose default export is not a server', async () => {
    expect(await failServe({ 'thing.mjs': 'export default { hello: 1 };\n' }, ['thing.mjs', '--http', '0'])).toEqual([
      'thing.mjs: its default export is not a server: export what a generated createServer or createAgent returns (or an McpServer or A2aServer)',
    ]);
  });

  it('an unknown target', async () => {
    expect(await failServe({}, ['nope', '--stdio'])).toEqual(['wiregen serve: unknown target "nope": not a file, and no samples/nope.ts here']);
    expect(await failServe({}, ['./nope.yaml', '--stdio'])).toEqual(['wiregen serve: unknown target "./nope.yaml": no such file']);
  });
});

describe("bad input to serve, in this repository's root", () => {
  const project = { cli: (argv: string[]) => import('../helpers/project.ts').then(({ runCli }) => runCli(argv)) };
  it.each([
    [['golden', '--stdio', '--http', '0'], 'wiregen serve: give --stdio or --http <port>, not both'],
    [['golden'], 'wiregen serve: give --stdio or --http <port>'],
    [['--stdio'], 'wiregen serve: name what to serve: a spec file, a module or a sample (wiregen serve --help)'],
    [['golden', 'extra', '--stdio'], 'wiregen serve: one target at a time; also given: extra'],
    [['golden', '--http', 'abc'], 'wiregen serve: --http "abc" is not a port: give an integer from 0 to 65535'],
    [['golden', '--http', '65536'], 'wiregen serve: --http "65536" is not a port: give an integer from 0 to 65535'],
    [['golden', '--stdio', '--max-line-bytes', '0'], 'wiregen serve: --max-line-bytes "0" is not a positive integer'],
    [['golden', '--http', '0', '--parse-errors'], 'wiregen serve: --parse-errors is for --stdio'],
    [
      ['nope', '--stdio'],
      'wiregen serve: unknown target "nope": not a file, and no samples/nope.ts here (samples: acts-agent, code-reviewer, conformance, deployer, golden, recorded-server, research-agent, test-runner)',
    ],
    [['golden', '--stdio', '--handlers', 'nope'], 'wiregen serve: samples/golden.ts has no handler set "nope" (sets: base, extended)'],
    [['research-agent', '--stdio'], 'wiregen serve: research-agent is an A2A agent: serve it over HTTP with --http <port>'],
    [
      ['research-agent', '--http', '0', '--notifications'],
      'wiregen serve: --notifications is for MCP servers; samples/research-agent.ts is an A2A agent',
    ],
  ])('%j', async (argv, line) => {
    expect(await project.cli(['serve', ...argv])).toEqual({ code: 2, out: [], err: [line] });
  });
});
