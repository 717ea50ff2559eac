/**
 * The wiregen command line: --help everywhere, validate's output and exit codes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/project.ts';

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

  it('an unknown command or option exits 2 with the usage', async () => {
    const a = await runCli(['frobnicate']);
    expect(a.code).toBe(2);
    expect(a.err[0]!.split('\n')[0]).toBe('wiregen: unknown command "frobnicate"');
    const b = await runCli(['generate', '--chek']);
    expect(b.code).toBe(2);
    expect(b.err[0]!.split('\n')[0]).toBe("wiregen generate: Unknown option '--chek'");
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

describe('wiregen generate --only <fixture>', () => {
  it('generates one repository spec through the same path and compares it with generated/fixtures/<name>/', async () => {
    const { code, out, err } = await runCli(['generate', '--only', 'golden', '--only', 'research-agent', '--check']);
    expect([code, err]).toEqual([0, []]);
    expect(out.filter((l) => !l.startsWith('fixtures/'))).toEqual([
      expect.stringMatching(/^generated\/ is up to date: 0 package\(s\), 3 files checked in /),
    ]);
  });

  it('a name that is neither a pin nor a repository spec', async () => {
    const { code, err } = await runCli(['generate', '--only', 'nope']);
    expect([code, err]).toEqual([
      2,
      [
        'schemas/fixtures: no pin or fixture nope (fixtures: conformance, fixture-server, golden-extended, golden, code-reviewer, deployer, research-agent, test-runner; pins: mcp-2024-11-05, mcp-2025-03-26, mcp-2025-06-18, mcp-2025-11-25, mcp-2026-07-28, mcp-ext-tasks, a2a-1.0)',
      ],
    ]);
  });
});
