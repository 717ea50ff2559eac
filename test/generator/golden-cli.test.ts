/**
 * `wiregen golden check|record` (generator/commands/golden.ts, generator/golden/): the handler-set mapping
 * to server arguments, the legacy preamble, a readable diff per failing case with exit 1, `--accept` writing
 * only missing responses (never over one that exists), `record` capturing a new case, and bad input (exit 2,
 * one line naming the file or flag). The server is a small stdio script written here, whose answers the
 * expectations below are written from by hand.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/project.ts';

const scratch = mkdtempSync(join(tmpdir(), 'wiregen-golden-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A stdio MCP server in a few lines: initialize answers with the revision asked for; tools/call echo answers
 * `echo: <text>` (upper-cased with `--loud`); anything else is -32601. It exits when stdin closes.
 */
const SERVER = join(scratch, 'server.mjs');
writeFileSync(
  SERVER,
  `import { createInterface } from 'node:readline';
const loud = process.argv.includes('--loud');
let initialized = false;
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'notifications/initialized') return void (initialized = true);
  if (m.method === 'initialize')
    return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1' } } });
  if (m.method === 'tools/call' && initialized) {
    const text = 'echo: ' + m.params.arguments.text;
    return send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: loud ? text.toUpperCase() : text }] } });
  }
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`,
);
const COMMAND = ['--', process.execPath, SERVER];
const ECHO = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}';

/** A corpus directory: the manifest's cases and the files, `undefined` content leaving a file out. */
function corpus(name: string, cases: object[], files: Record<string, string>): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ cases }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe('wiregen golden check', () => {
  it('maps handler sets to server arguments, plays the preamble, and passes equal answers (key order aside)', async () => {
    const dir = corpus(
      'pass',
      [
        { name: 'legacy/echo', handlers: 'base' },
        { name: 'legacy/echo-loud', handlers: 'loud' },
      ],
      {
        'legacy/echo.request.json': `${ECHO}\n`,
        'legacy/echo.response.json': '{"result":{"content":[{"type":"text","text":"echo: hi"}]},"jsonrpc":"2.0","id":4}',
        'legacy/echo-loud.request.json': `${ECHO}\n`,
        'legacy/echo-loud.response.json': '{"id":4,"jsonrpc":"2.0","result":{"content":[{"text":"ECHO: HI","type":"text"}]}}',
      },
    );
    const { code, out } = await runCli(['golden', 'check', dir, '--exact', '--verbose', '--handlers', 'loud=--loud', ...COMMAND], ROOT);
    expect(out).toEqual(['pass legacy/echo', 'pass legacy/echo-loud', '2 cases: 2 passed, 0 failed']);
    expect(code).toBe(0);
  }, 60_000);

  it('a difference: exit 1 and one line per JSON pointer; a handler set with no arguments given cannot run', async () => {
    const dir = corpus('diff', [{ name: 'legacy/echo' }, { name: 'legacy/other', handlers: 'extended' }], {
      'legacy/echo.request.json': `${ECHO}\n`,
      'legacy/echo.response.json': '{"id":4,"jsonrpc":"2.0","result":{"content":[{"text":"echo: ho","type":"text"}],"isError":false}}',
      'legacy/other.request.json': `${ECHO}\n`,
      'legacy/other.response.json': '{}',
    });
    const { code, out } = await runCli(['golden', 'check', dir, ...COMMAND], ROOT);
    expect(out).toEqual([
      'FAIL legacy/echo',
      '    /result/content/0/text: value differs: expected "echo: ho", got "echo: hi"',
      '    /result/isError: missing member: expected false, got (absent)',
      'FAIL legacy/other',
      expect.stringMatching(/^ {4}cannot run: it needs .*extended/),
      '2 cases: 0 passed, 2 failed',
    ]);
    expect(code).toBe(1);
  }, 60_000);

  it('--accept writes only the missing response, never over an existing one', async () => {
    const wrong = '{"id":4,"jsonrpc":"2.0","result":{"content":[{"text":"wrong","type":"text"}]}}\n';
    const dir = corpus('accept', [{ name: 'legacy/new' }, { name: 'legacy/kept' }], {
      'legacy/new.request.json': `${ECHO}\n`,
      'legacy/kept.request.json': `${ECHO}\n`,
      'legacy/kept.response.json': wrong,
    });
    const { code, out } = await runCli(['golden', 'check', dir, '--accept', ...COMMAND], ROOT);
    expect(out[0]).toBe('accepted legacy/new');
    expect(out).toContain('FAIL legacy/kept');
    expect(out.at(-1)).toBe('2 cases: 0 passed, 1 failed, 1 accepted');
    expect(code).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'legacy/new.response.json'), 'utf8'))).toEqual({
      id: 4,
      jsonrpc: '2.0',
      result: { content: [{ text: 'echo: hi', type: 'text' }] },
    });
    expect(readFileSync(join(dir, 'legacy/kept.response.json'), 'utf8')).toBe(wrong);
    const again = await runCli(['golden', 'check', dir, '--only', 'legacy/new', ...COMMAND], ROOT);
    expect(again.code).toBe(0);
  }, 60_000);
});

describe('wiregen golden record', () => {
  it('writes the request, the response and the manifest entry (provenance project); refuses a case that exists', async () => {
    const dir = join(scratch, 'record');
    const { code } = await runCli(['golden', 'record', dir, 'legacy/echo', '--request', ECHO, ...COMMAND], ROOT);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'legacy/echo.request.json'), 'utf8')).toBe(`${ECHO}\n`);
    expect(JSON.parse(readFileSync(join(dir, 'legacy/echo.response.json'), 'utf8'))).toEqual({
      id: 4,
      jsonrpc: '2.0',
      result: { content: [{ text: 'echo: hi', type: 'text' }] },
    });
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toEqual({
      cases: [{ name: 'legacy/echo', handlers: 'base', notifications: false, provenance: 'project' }],
    });
    const twice = await runCli(['golden', 'record', dir, 'legacy/echo', '--request', ECHO, ...COMMAND], ROOT);
    expect(twice.code).toBe(2);
    expect(twice.err).toHaveLength(1);
    expect(twice.err[0]).toMatch(/manifest\.json.*already listed/);
    expect((await runCli(['golden', 'check', dir, ...COMMAND], ROOT)).code).toBe(0);
  }, 60_000);
});

describe('bad input to wiregen golden: exit 2, one line', () => {
  const cases: [string, string[], RegExp][] = [
    ['no server command', ['check', join(scratch, 'pass')], /give the server command after --, or --url/],
    ['no manifest', ['check', scratch, ...COMMAND], /manifest\.json: no manifest\.json in the corpus directory/],
    ['an unknown action', ['play', scratch, ...COMMAND], /say check, record or init/],
    ['a bad --url', ['check', scratch, '--url', 'ftp://x'], /--url "ftp:\/\/x" is not an http\(s\) URL/],
    ['a bad --parallel', ['check', join(scratch, 'pass'), '--parallel', '0', ...COMMAND], /--parallel "0" is not a positive integer/],
  ];
  for (const [what, args, message] of cases)
    it(what, async () => {
      const { code, err } = await runCli(['golden', ...args], ROOT);
      expect(code).toBe(2);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(message);
      expect(err[0]).not.toMatch(/\n|\bat .*\.ts:\d+/);
    });

  it('a manifest case of the wrong shape names the JSON pointer', async () => {
    const dir = corpus('bad-manifest', [{ name: 'legacy/echo', notifications: 'yes' }], { 'legacy/echo.request.json': `${ECHO}\n` });
    const { code, err } = await runCli(['golden', 'check', dir, ...COMMAND], ROOT);
    expect(code).toBe(2);
    expect(err).toEqual([expect.stringMatching(/manifest\.json.*\/cases\/0\/notifications.*true or false/)]);
    expect(existsSync(join(dir, 'legacy/echo.response.json'))).toBe(false);
  });
});
