/**
 * `wiregen golden init`: the starter corpus and vitest file, recorded and then checked against the counter
 * server of ours (in process), and the refusal to write over a file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpus } from 'wiregen/golden';
import { runCli } from '../helpers/project.ts';
import { counterServer } from './counter/server.ts';

describe('wiregen golden init', () => {
  const root = mkdtempSync(join(tmpdir(), 'wiregen-golden-init-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes a corpus of a tools/list per era and golden.test.ts, and says what to do next', async () => {
    const { code, out, err } = await runCli(['golden', 'init', 'wire', '--', 'node', 'build/server.js'], root);
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.slice(0, 4)).toEqual([
      'wrote wire/manifest.json',
      'wrote wire/legacy/tools-list.request.json',
      'wrote wire/modern/tools-list.request.json',
      'wrote golden.test.ts',
    ]);
    expect(out.join('\n')).toContain('npx wiregen golden check wire --accept -- node build/server.js');
    expect(readFileSync(join(root, 'golden.test.ts'), 'utf8')).toBe(
      "import { goldenSuite } from 'wiregen/golden/vitest';\n\n" +
        '// A server of its own per case; { url, command } for Streamable HTTP, or () => server in process.\n' +
        "goldenSuite('wire', { command: ['node', 'build/server.js'] });\n",
    );
  });

  it('the starter cases record from a server, then pass', async () => {
    const recorded = await checkCorpus({ corpus: 'wire', server: counterServer, cwd: root, accept: true });
    expect(recorded.map((r) => [r.name, r.status])).toEqual([
      ['legacy/tools-list', 'accepted'],
      ['modern/tools-list', 'accepted'],
    ]);
    const tools = JSON.parse(readFileSync(join(root, 'wire/modern/tools-list.response.json'), 'utf8')) as { result: { tools: { name: string }[] } };
    expect(tools.result.tools.map((t) => t.name)).toEqual(['increment']);
    expect((await checkCorpus({ corpus: 'wire', server: counterServer, cwd: root })).map((r) => r.status)).toEqual(['pass', 'pass']);
  });

  it('refuses to write over a file: exit 2, one line per file', async () => {
    const { code, err } = await runCli(['golden', 'init', 'wire'], root);
    expect(code).toBe(2);
    expect(err).toContain('golden.test.ts: exists already: golden init writes new files only');
  });

  it('is in --help', async () => {
    const { code, out } = await runCli(['golden', '--help']);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('wiregen golden init [corpus-dir]');
  });
});
