/**
 * The schema libraries are optional peers of @wiregen/runtime (runtime/package.json peerDependenciesMeta) and
 * never imported statically: a code-first server loads the library its schemas are written with, the
 * converter it needs (Valibot's @valibot/to-json-schema), and nothing else; ajv only when a schema is a JSON
 * Schema object (code-first-compile.ts). Each server runs in a child process under a resolve hook that
 * records every module specifier it resolves (test/fixtures/record-imports.mjs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';

const dir = mkdtempSync(join(tmpdir(), 'wiregen-loads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages of interest among what the child resolved: the schema libraries, their converters, ajv. */
const PACKAGES = ['zod', 'valibot', '@valibot/to-json-schema', 'arktype', '@ark/schema', 'ajv'];
const packageOf = (specifier: string) => PACKAGES.find((p) => specifier === p || specifier.startsWith(`${p}/`));

function loads(library: string): { answer: string; packages: string[] } {
  const file = join(dir, `${library}.txt`);
  const answer = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--import', './test/fixtures/record-imports.mjs', 'test/fixtures/code-first-loads.ts', library],
    { cwd: ROOT, env: { ...process.env, RECORD_IMPORTS: file }, encoding: 'utf8', timeout: 60_000 },
  ).trim();
  const specifiers = readFileSync(file, 'utf8').split('\n');
  return { answer, packages: [...new Set(specifiers.map(packageOf).filter((p) => p !== undefined))].sort() };
}

describe('which schema library a code-first server loads', () => {
  it.each([
    ['json', ['ajv']],
    ['zod', ['zod']],
    ['valibot', ['@valibot/to-json-schema', 'valibot']],
    ['arktype', ['@ark/schema', 'arktype']],
  ])('a server written with %s loads %j of them', (library, expected) => {
    const { answer, packages } = loads(library);
    expect(answer).toBe('42');
    expect(packages).toEqual(expected);
  });

  it('no runtime module imports a schema library statically', () => {
    const files = readdirSync(join(ROOT, 'runtime'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const named = files.filter((f) =>
      /^import (?!type )[^;]*from '(zod|valibot|arktype|@valibot\/[^']*|@ark\/[^']*)';/m.test(readFileSync(join(ROOT, 'runtime', f), 'utf8')),
    );
    expect(named).toEqual([]);
  });
});
