/**
 * Comparing with a commit: `wiregen diff --against <git-ref>`, and the semantic summary `generate --check`
 * prints when generated/ is stale (what changed in the inputs since the commit that last wrote each package).
 * Runs in a throw-away git repository holding a copy of the project.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, runCli, type Project } from '../helpers/project.ts';

let project: Project;
let head: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: project.root, encoding: 'utf8' }).trim();

beforeAll(() => {
  project = copyProject({ generated: true });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'pinned and generated');
  head = git('rev-parse', 'HEAD');
  // A schema bump by hand: Tool gains a required `kind` and an optional `tags` (and the pin its new sha256).
  const schema = JSON.parse(project.read('schemas/mcp/2024-11-05/schema.json'));
  const tool = schema.definitions.Tool;
  tool.properties = { ...tool.properties, kind: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } };
  tool.required = [...tool.required, 'kind'];
  project.write('schemas/mcp/2024-11-05/schema.json', JSON.stringify(schema, null, 4));
  project.repin('mcp/2024-11-05/schema.json');
});
afterAll(() => project?.dispose());

describe('wiregen diff --against', () => {
  it('compares every pin of the working tree with the commit: the changed one has findings, exit 100', async () => {
    const { code, out } = await runCli(['diff', '--against', 'HEAD'], project.root);
    expect(code).toBe(100);
    // Every pin of pins.json, in its order; only the one changed above has findings.
    const ids = (JSON.parse(project.read('schemas/pins.json')) as { pins: { id: string }[] }).pins.map((p) => p.id);
    expect(out.filter((l) => !l.startsWith('  '))).toEqual(
      ids.map(
        (id) =>
          `${id}@HEAD → ${id}: ${id === 'mcp-2024-11-05' ? '1 wire-breaking, 0 source-breaking, 1 compatible' : '0 wire-breaking, 0 source-breaking, 0 compatible'}`,
      ),
    );
    expect(ids).toContain('mcp-2024-11-05');
    expect(out.filter((l) => l.startsWith('  ')).map((l) => l.trim().split(/ +/).slice(0, 2))).toEqual([
      ['wire-breaking', 'PROPERTY_ADDED_REQUIRED'],
      ['compatible', 'PROPERTY_ADDED'],
    ]);
  });

  it('only the pins named; --json', async () => {
    const { code, out } = await runCli(['diff', '--against', head.slice(0, 10), 'mcp-2024-11-05', '--json'], project.root);
    expect(code).toBe(100);
    const doc = JSON.parse(out.join('\n'));
    expect(doc.comparisons).toHaveLength(1);
    expect(doc.comparisons[0].findings.map((f: { subject: string; pointer: string }) => [f.subject, f.pointer])).toEqual([
      ['Tool.kind', '/definitions/Tool/properties/kind'],
      ['Tool.tags', '/definitions/Tool/properties/tags'],
    ]);
  });

  it('a ref that names no commit: one line, exit 2', async () => {
    expect(await runCli(['diff', '--against', 'no-such-branch'], project.root)).toMatchObject({
      code: 2,
      out: [],
      err: [`${project.root}: git ref "no-such-branch" names no commit`],
    });
  });
});

describe('generate --check', () => {
  it('prints what changed in the inputs before the stale files', async () => {
    const { code, out } = await runCli(['generate', '--check', '--only', 'mcp-2024-11-05'], project.root);
    expect(code).toBe(1);
    const stale = out.findIndex((l) => l.startsWith('generated/ is stale'));
    expect(out.slice(stale + 1, stale + 3)).toEqual([
      'What changed in the inputs since each stale package was last generated:',
      `  mcp-2024-11-05 (generated at ${head.slice(0, 7)}): 1 wire-breaking, 0 source-breaking, 1 compatible: PROPERTY_ADDED_REQUIRED Tool.kind; PROPERTY_ADDED Tool.tags`,
    ]);
    expect(out.slice(stale + 3)).toContainEqual('  generated/mcp-2024-11-05/types.ts');
  });
});

describe('a manifest-only change', () => {
  it('is compared too (pins.json does not hash manifests)', async () => {
    project.edit('schemas/manifest/mcp-2026-07-28.yaml', /( {2}prompts\/list:\n(?: {4}.*\n)*? {4}capability: )server\.prompts/, '$1server.tools');
    const { code, out } = await runCli(['diff', '--against', 'HEAD', 'mcp-2026-07-28'], project.root);
    expect(code).toBe(100);
    expect(out[0]).toBe('mcp-2026-07-28@HEAD → mcp-2026-07-28: 1 wire-breaking, 0 source-breaking, 0 compatible');
    expect(out[1]).toMatch(
      /^ {2}wire-breaking +METHOD_SAME_CAPABILITY +schemas\/manifest\/mcp-2026-07-28\.yaml:\d+:\d+ \/methods\/prompts~1list\/capability: "prompts\/list" is gated by server\.tools, was server\.prompts$/,
    );
  });
});
