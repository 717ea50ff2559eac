/**
 * `wiregen golden check` against a server that is not ours: the official MCP SDK's server-everything over
 * stdio, with the small hand-written corpus of test/golden/everything/ (test/golden/README.md). The corpus
 * passes, and a copy with one expectation changed fails on that case with a diff naming the JSON pointer.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GOLDEN_DIR } from '../helpers/golden.ts';
import { ROOT, runCli } from '../helpers/project.ts';

const require = createRequire(import.meta.url);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const SERVER = ['--', process.execPath, EVERYTHING, 'stdio'];
const scratch = mkdtempSync(join(tmpdir(), 'wiregen-everything-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('wiregen golden check against server-everything (stdio)', () => {
  it('the hand-written corpus passes', async () => {
    const { code, out, err } = await runCli(['golden', 'check', join(GOLDEN_DIR, 'everything'), '--verbose', ...SERVER], ROOT);
    expect(err).toEqual([]);
    expect(out.at(-1)).toBe('6 cases: 6 passed, 0 failed');
    expect(code).toBe(0);
  }, 120_000);

  it('a changed expectation is a difference: exit 1, the pointer, both values', async () => {
    const dir = join(scratch, 'changed');
    cpSync(join(GOLDEN_DIR, 'everything'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'legacy', 'tools-call-get-sum.response.json'),
      '{"id":3,"jsonrpc":"2.0","result":{"content":[{"text":"The sum of 2 and 3 is 6.","type":"text"}]}}\n',
    );
    const { code, out } = await runCli(['golden', 'check', dir, '--only', 'legacy/tools-call-get-sum', ...SERVER], ROOT);
    expect(out).toEqual([
      'FAIL legacy/tools-call-get-sum',
      '    /result/content/0/text: value differs: expected "The sum of 2 and 3 is 6.", got "The sum of 2 and 3 is 5."',
      '1 cases: 0 passed, 1 failed',
    ]);
    expect(code).toBe(1);
  }, 120_000);
});
