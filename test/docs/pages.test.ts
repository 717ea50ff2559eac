/**
 * @module test/docs/pages — the README as a path and the docs/ pages it links to: the README stays short and
 * leaves the repository's scripts to docs/contributing.md, each page opens with what it covers, every relative
 * link resolves (file and heading), and every ```ts block is one the consumer test compiles (test/consumer/,
 * which builds and runs them from the tarballs; here, what can be checked without them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { docBlocks, docPages, withoutModuleComment } from '../consumer/harness.ts';
import { ROOT, runCli } from '../helpers/project.ts';

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and spaces dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The page's text outside fenced code, where links and headings are. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '');
}

describe('the README', () => {
  const readme = read('README.md');

  it('is read in five minutes: at most 250 lines', () => {
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(250);
  });

  it('shows user commands only: the repository scripts are on docs/contributing.md', () => {
    expect(readme).not.toMatch(/npm run (conformance|a2a-kit|bench|fuzz|scale)\b/);
    const contributing = read('docs/contributing.md');
    for (const script of ['conformance', 'a2a-kit', 'fuzz', 'scale', 'bench']) expect(contributing).toContain(`npm run ${script}`);
  });

  it('shows examples/mcp-server/src/server.ts as it is, and the code-first and handlers ways as files the consumer test runs', () => {
    const blocks = docBlocks().filter((b) => b.at.startsWith('README.md:'));
    const spec = blocks.find((b) => b.file === 'src/server.ts');
    expect(spec?.code.slice(spec.code.indexOf('\n') + 1)).toBe(withoutModuleComment(read('examples/mcp-server/src/server.ts')));
    expect(blocks.map((b) => b.file)).toEqual(expect.arrayContaining(['src/code-first.ts', 'src/handlers.ts']));
  });

  it('shows a part of examples/mcp-server/server.yaml as it is: the forecast tool and the resource template', () => {
    type Spec = { tools: { name: string; description?: string }[]; resourceTemplates: { description?: string }[] };
    const shown = parse(/```yaml\n([\s\S]*?)```/.exec(readme)![1]!) as Spec;
    const example = parse(read('examples/mcp-server/server.yaml')) as Spec;
    const { description: _tool, ...forecast } = example.tools.find((t) => t.name === 'forecast')!;
    const { description: _template, ...template } = example.resourceTemplates[0]!;
    expect(shown).toEqual({ tools: [forecast], resourceTemplates: [template] });
  });
});

describe('the docs/ pages', () => {
  it.each(docPages().filter((p) => p !== 'README.md'))('%s opens with its title and a paragraph saying what it covers', (page) => {
    const [title, blank, first] = read(page).split('\n');
    expect(title).toMatch(/^# \S/);
    expect(blank).toBe('');
    expect(first).toMatch(/^[A-Za-z`[]/);
  });

  it.each(docPages())('%s: every relative link names a file that exists, and a heading it has', (page) => {
    const links = [...prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) {
      const [path, hash] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : normalize(join(dirname(page), path));
      expect(existsSync(join(ROOT, target)), `${page}: ${link}`).toBe(true);
      if (hash === undefined) continue;
      const headings = [...prose(read(target)).matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]!));
      expect(headings, `${page}: ${link}`).toContain(hash);
    }
  });

  it('every ```ts block is compiled by the consumer test (a block left out says why, and there are very few)', () => {
    const blocks = docBlocks();
    expect(blocks.length).toBeGreaterThan(10);
    const left = blocks.filter((b) => b.notCompiled !== undefined);
    for (const b of left) expect(b.notCompiled!.split(' ').length, b.at).toBeGreaterThanOrEqual(3);
    expect(left.length).toBeLessThanOrEqual(2);
    // Two blocks writing one file would hide one of them.
    const files = blocks.map((b) => `${b.kind}:${b.file}`);
    expect(new Set(files).size).toBe(files.length);
  });

  it('docs/commands.md names commands that exist, with options their --help lists', async () => {
    const rows = read('docs/commands.md')
      .split('\n')
      .filter((l) => l.startsWith('| `wiregen '));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const command = /^\| `wiregen ([a-z0-9-]+)/.exec(row)![1]!;
      const { code, out } = await runCli([command, '--help']);
      expect(code, row).toBe(0);
      for (const option of new Set(row.match(/--[a-z][a-z-]*/g) ?? [])) expect(out.join('\n'), `${command} ${option}`).toContain(option);
    }
  });

  it('docs/conformance.md holds the markers npm run conformance writes between', () => {
    const page = read('docs/conformance.md');
    expect(page).toContain('<!-- conformance:begin (written by npm run conformance; do not edit) -->');
    expect(page).toContain('<!-- conformance:end -->');
  });
});
