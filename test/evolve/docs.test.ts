/**
 * docs/bumping-a-schema.md documents every rule `wiregen diff` reports, and the commands it shows parse.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../generator/evolve/findings.ts';
import { ROOT, runCli } from '../helpers/project.ts';

const doc = readFileSync(join(ROOT, 'docs/bumping-a-schema.md'), 'utf8');

describe('docs/bumping-a-schema.md', () => {
  it('names every rule id, and no other', () => {
    const table = doc.slice(doc.indexOf('| rule | class |'));
    const named = new Set([...table.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!));
    expect([...named].sort()).toEqual(Object.keys(RULES).sort());
  });

  it.each([['pin'], ['diff']])('wiregen %s --help exists and lists the options the document uses', async (command) => {
    const { code, out } = await runCli([command, '--help']);
    expect(code).toBe(0);
    const used = [...doc.matchAll(new RegExp(`wiregen\\.mjs ${command} [^\\n]*`, 'g'))].flatMap((m) =>
      [...m[0].matchAll(/--[a-z]+/g)].map((o) => o[0]),
    );
    expect(used.length).toBeGreaterThan(0);
    for (const option of used) expect(out.join('\n'), option).toContain(option);
  });
});
