/**
 * Input files nested deeper than the input limit end in one line naming the file and the limit (exit 2),
 * not in a stack overflow of the parser, the error locator or the validators. Cases are ours.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkYamlNesting, MAX_NESTING } from '../../generator/load/depth.ts';
import { parseJson } from '../../generator/load/json.ts';
import { readYaml } from '../../generator/load/yaml.ts';
import { runCli } from '../helpers/project.ts';

const dir = mkdtempSync(join(tmpdir(), 'wiregen-depth-'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const LIMIT = `nested deeper than ${MAX_NESTING} levels (the limit for input files)`;

describe('wiregen validate on deeply nested files', () => {
  it.each([
    ['100,000 unclosed [', '['.repeat(100_000)],
    ['100,000 closed [', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['100,000 objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
  ])('%s: one line naming the file and the limit, exit 2', async (_, text) => {
    const file = write('deep.json', text);
    const { code, out, err } = await runCli(['validate', 'mcp@2026-07-28', 'CallToolRequest', file]);
    expect({ code, out, err }).toEqual({ code: 2, out: [`${file}:1:${text[0] === '[' ? 257 : 1 + 5 * 256}: ${LIMIT}`], err: [] });
  });

  it('nesting at the limit is parsed; brackets inside strings do not count', () => {
    expect(parseJson(`${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}`, 'x.json')).toBeInstanceOf(Array);
    expect(parseJson(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[' }), 'x.json')).toEqual({ a: '['.repeat(1000), b: '\\"[[[' });
  });
});

describe('YAML inputs', () => {
  it.each([
    ['100,000 flow [', `a: ${'['.repeat(100_000)}`],
    ['100,000 compact - entries', `${'- '.repeat(100_000)}x\n`],
    ['300 indented levels', Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')],
  ])('%s: refused with the file and the limit', (_, text) => {
    const file = write('deep.yaml', text);
    expect(() => readYaml(file, 'deep.yaml')).toThrow(new RegExp(`^deep\\.yaml:\\d+:\\d+: ${LIMIT.replace(/[()]/g, '\\$&')}$`));
  });

  it('ordinary YAML with brackets and quotes in scalars passes', () => {
    const text = ['title: see [the spec', "quote: 'it''s [ok'", 'list: [a, [b, {c: d}]]  # [not counted', 'seq:', '  - - x', '    - "[["'].join('\n');
    expect(() => checkYamlNesting(text, 'ok.yaml', 4)).not.toThrow();
    expect(() => checkYamlNesting(text, 'ok.yaml', 3)).toThrow('nested deeper than 3 levels');
  });
});
