/**
 * wiregen/golden as a library: the counter server of ours (test/golden/counter/, a tool answering `count <n>`
 * for the n-th call a server instance has had; its corpus written by hand, every case expecting `count 1`)
 * played in process, over stdio and over Streamable HTTP. Isolated (the default) every case passes; shared,
 * the server's state carries from case to case and the three cases after the first fail.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpus, formatResults, type GoldenServer, recordCase } from 'wiregen/golden';
import { ROOT, runCli } from '../helpers/project.ts';
import { counterServer } from './counter/server.ts';

const CORPUS = 'test/golden/counter/corpus';
const MAIN = [process.execPath, '--import', 'tsx', 'test/golden/counter/main.ts'];
const SERVERS: Record<string, GoldenServer> = {
  'in process': counterServer,
  stdio: { command: MAIN },
  'Streamable HTTP': { url: 'http://127.0.0.1:$PORT/mcp', command: [...MAIN, '--port', '$PORT'] },
};

describe.each(Object.entries(SERVERS))('the counter corpus %s', (_, server) => {
  it('passes isolated: a server per case', async () => {
    const results = await checkCorpus({ corpus: CORPUS, server, cwd: ROOT });
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['legacy/increment-a', 'pass'],
      ['legacy/increment-b', 'pass'],
      ['modern/increment-c', 'pass'],
      ['modern/increment-d', 'pass'],
    ]);
    expect(results.every((r) => r.differences.length === 0)).toBe(true);
  });

  it('fails shared after the first case: the count carries over', async () => {
    const results = await checkCorpus({ corpus: CORPUS, server, cwd: ROOT, share: true });
    expect(results.map((r) => r.status)).toEqual(['pass', 'fail', 'fail', 'fail']);
    expect(results[1]!.differences).toEqual([
      {
        pointer: '/result/content/0/text',
        expected: 'count 1',
        actual: 'count 2',
        message: '/result/content/0/text: value differs: expected "count 1", got "count 2"',
      },
    ]);
    expect(formatResults(results)).toMatch(/4 cases: 1 passed, 3 failed$/);
  });
});

describe('wiregen golden check --shared', () => {
  it('plays every case on one process: the count carries over (isolated, the default, passes)', async () => {
    const cli = (more: string[]) => runCli(['golden', 'check', CORPUS, ...more, '--', ...MAIN], ROOT);
    expect(await cli([])).toMatchObject({ code: 0, out: ['4 cases: 4 passed, 0 failed'] });
    const shared = await cli(['--shared']);
    expect(shared.code).toBe(1);
    expect(shared.out.at(-1)).toBe('4 cases: 1 passed, 3 failed');
  });
});

describe('recordCase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-golden-record-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the request, the response and the manifest entry, then the case checks', async () => {
    const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'increment', arguments: {} } };
    const recorded = await recordCase({ corpus: dir, name: 'legacy/first', request, server: counterServer });
    expect(recorded.status).toBe('accepted');
    expect(JSON.parse(readFileSync(join(dir, 'legacy/first.response.json'), 'utf8')).result.content).toEqual([{ type: 'text', text: 'count 1' }]);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).cases).toEqual([
      { name: 'legacy/first', handlers: 'base', notifications: false, provenance: 'project' },
    ]);
    expect((await checkCorpus({ corpus: dir, server: counterServer })).map((r) => r.status)).toEqual(['pass']);
    await expect(recordCase({ corpus: dir, name: 'legacy/first', request, server: counterServer })).rejects.toThrow(/already listed/);
  });

  it('a case without a response file fails with the reason, not a difference', async () => {
    rmSync(join(dir, 'legacy/first.response.json'));
    const [result] = await checkCorpus({ corpus: dir, server: counterServer });
    expect(result).toMatchObject({ status: 'fail', differences: [] });
    expect(result!.failure).toMatch(/^no .*first\.response\.json: run with --accept/);
  });
});

describe('an in-process factory that throws', () => {
  it('fails each case with the reason; the others still run', async () => {
    let calls = 0;
    const results = await checkCorpus({
      corpus: CORPUS,
      cwd: ROOT,
      server: () => {
        if (++calls === 2) throw new Error('no database');
        return counterServer();
      },
      concurrency: 1,
    });
    expect(results.map((r) => r.status)).toEqual(['pass', 'fail', 'pass', 'pass']);
    expect(results[1]!.failure).toBe('the server could not be made: no database');
  });
});
