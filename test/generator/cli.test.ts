/**
 * The wiregen command line: --help everywhere, validate's output and exit codes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/project.ts';
import { userProject } from '../spec/project.ts';

describe('wiregen --help', () => {
  it.each([[['--help']], [['generate', '--help']], [['validate', '--help']]])('%j prints usage and exits 0', async (argv) => {
    const { code, out } = await runCli(argv);
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/^(wiregen: |Usage: wiregen )/);
  });

  it.each([[['init', '--help']], [['serve', '--help']], [['init', '-h']]])('%j prints the usage of the command and exits 0', async (argv) => {
    const { code, out, err } = await runCli(argv);
    expect([code, err]).toEqual([0, []]);
    expect(out.join('\n')).toMatch(new RegExp(`^Usage: wiregen ${argv[0]} `));
  });

  it('the top-level help lists every command, and serve as MCP and A2A, stdio and HTTP', async () => {
    const help = (await runCli(['--help'])).out.join('\n');
    for (const command of ['init', 'generate', 'validate', 'serve']) expect(help).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const serve = help.split('\n').find((l) => l.startsWith('  serve'))!;
    expect(serve).not.toContain('(stdio)');
    expect(serve).toMatch(/--stdio/);
    expect(serve).toMatch(/--http/);
    expect(serve).toMatch(/A2A/);
  });

  it('an unknown command: one line with the nearest command, or the commands; exit 2', async () => {
    expect(await runCli(['servee'])).toEqual({ code: 2, out: [], err: ['wiregen: unknown command "servee"; did you mean serve? (wiregen --help)'] });
    expect(await runCli(['frobnicate'])).toEqual({
      code: 2,
      out: [],
      err: [
        'wiregen: unknown command "frobnicate"; the commands are init, generate, validate, serve, golden, a2a-conformance, pin, diff (wiregen --help)',
      ],
    });
  });

  // Every command of `wiregen --help`, with a typo of one of its flags.
  it.each([
    [['init', '--agnet'], 'wiregen init: unknown option --agnet; did you mean --agent? (wiregen init --help)'],
    [['generate', '--chek'], 'wiregen generate: unknown option --chek; did you mean --check? (wiregen generate --help)'],
    [['validate', '--hepl'], 'wiregen validate: unknown option --hepl; did you mean --help? (wiregen validate --help)'],
    [['serve', 'golden', '--htp', '0'], 'wiregen serve: unknown option --htp; did you mean --http? (wiregen serve --help)'],
    [['serve', 'golden', '--http', '0', '--notif'], 'wiregen serve: unknown option --notif; did you mean --notifications? (wiregen serve --help)'],
    [
      ['golden', 'check', 'corpus', '--ur', 'http://x', '--', 'x'],
      'wiregen golden: unknown option --ur; did you mean --url? (wiregen golden --help)',
    ],
    [['pin', 'mcp-x', '--form', 'dir'], 'wiregen pin: unknown option --form; did you mean --from? (wiregen pin --help)'],
    [['diff', '--againts', 'HEAD'], 'wiregen diff: unknown option --againts; did you mean --against? (wiregen diff --help)'],
    [['init', '--zzz'], 'wiregen init: unknown option --zzz; its options are --agent, --target, --help (wiregen init --help)'],
    [['serve', 'golden', '--http'], 'wiregen serve: --http needs a value (wiregen serve --help)'],
    [['generate', '--check=yes'], 'wiregen generate: --check takes no value (wiregen generate --help)'],
    [['generate', 'stray'], 'wiregen generate: unexpected argument "stray" (wiregen generate --help)'],
  ])('%j: one line, exit 2', async (argv, line) => {
    expect(await runCli(argv)).toEqual({ code: 2, out: [], err: [line] });
  });
});

describe('wiregen validate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-validate-'));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  const good = write('good.json', {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'add',
      arguments: { a: 1 },
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  });
  const bad = write('bad.json', { jsonrpc: '2.0', id: true, method: 'tools/call', params: { name: 7, _meta: {} } });
  const notJson = write('broken.json', '{"jsonrpc": "2.0",\n "id": }');

  it('prints valid files and exits 0', async () => {
    const { code, out } = await runCli(['validate', 'mcp@2026-07-28', 'CallToolRequest', good]);
    expect(code).toBe(0);
    expect(out).toEqual([`${good}: valid CallToolRequest`]);
  });

  it('prints each error with its JSON pointer and exits 1', async () => {
    const { code, out } = await runCli(['validate', 'mcp@2026-07-28', 'CallToolRequest', good, bad]);
    expect(code).toBe(1);
    expect(out).toEqual([
      `${good}: valid CallToolRequest`,
      `${bad} /id: must be string or integer`,
      `${bad} /params/_meta: missing required property "io.modelcontextprotocol/clientCapabilities"`,
      `${bad} /params/_meta: missing required property "io.modelcontextprotocol/protocolVersion"`,
      `${bad} /params/name: must be string`,
    ]);
  });

  it('a file that is not JSON is named with its line and column, exit 2', async () => {
    const { code, out } = await runCli(['validate', 'a2a@1.0', 'Task', notJson]);
    expect(code).toBe(2);
    expect(out).toEqual([`${notJson}:2:8: not valid JSON: unexpected "}"`]);
  });
});

describe('wiregen validate in a project of its own', () => {
  it('uses the validators of the installed @wiregen/<pin> package (no generated/ there)', async () => {
    // A package as npm installs it: its ./validators export, here one validator that says what it was given.
    const project = userProject({
      'node_modules/@wiregen/mcp-2026-07-28/package.json': JSON.stringify({
        name: '@wiregen/mcp-2026-07-28',
        type: 'module',
        exports: { './validators': './validators.js' },
      }),
      'node_modules/@wiregen/mcp-2026-07-28/validators.js': `export function CallToolRequest(data) {
  CallToolRequest.errors = data.ok === true ? null : [{ instancePath: '/ok', keyword: 'type', params: { type: 'boolean' }, message: 'must be boolean' }];
  return data.ok === true;
}
`,
      'good.json': '{ "ok": true }',
      'bad.json': '{ "ok": "yes" }',
    });
    try {
      expect(await project.cli(['validate', 'mcp@2026-07-28', 'CallToolRequest', 'good.json', 'bad.json'])).toEqual({
        code: 1,
        out: ['good.json: valid CallToolRequest', 'bad.json /ok: must be boolean'],
        err: [],
      });
    } finally {
      project.dispose();
    }
  });
});

describe('wiregen generate --only <sample>', () => {
  it('generates one repository spec through the same path and compares it with generated/samples/<name>/', async () => {
    const { code, out, err } = await runCli(['generate', '--only', 'golden', '--only', 'research-agent', '--check']);
    expect([code, err]).toEqual([0, []]);
    expect(out.filter((l) => !l.startsWith('samples/'))).toEqual([
      expect.stringMatching(/^generated\/ is up to date: 0 package\(s\), 3 files checked in /),
    ]);
  });

  it('a name that is neither a pin nor a repository spec', async () => {
    const { code, err } = await runCli(['generate', '--only', 'nope']);
    expect([code, err]).toEqual([
      2,
      [
        'schemas/samples: no pin or sample nope (samples: conformance, golden-extended, golden, recorded-server, acts-agent, code-reviewer, deployer, research-agent, test-runner; pins: mcp-2024-11-05, mcp-2025-03-26, mcp-2025-06-18, mcp-2025-11-25, mcp-2026-07-28, mcp-ext-tasks, a2a-1.0)',
      ],
    ]);
  });
});
