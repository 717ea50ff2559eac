/**
 * Golden generator cases (test/generator-cases/README.md): each case's schema and manifest generated as a pin
 * of its own must equal the committed `expected/` package, file by file. `CASES_ACCEPT=1` writes a case's
 * expected package when it has none (never over one that exists: delete it first), to be checked by hand.
 * What each generated package does is tested by the case's own `run.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { acceptFiles, caseNames, caseSpec, expectedFiles, generateCase } from './harness.ts';

describe('golden generator cases: the generated package equals expected/', () => {
  for (const name of caseNames())
    it(`${name}: ${caseSpec(name).feature}`, async () => {
      const files = await generateCase(name);
      const expected = expectedFiles(name);
      if (expected.size === 0 && process.env['CASES_ACCEPT'] === '1') return acceptFiles(name, files);
      expect([...files.keys()].sort(), `${name}: the files of the package`).toEqual([...expected.keys()].sort());
      for (const [file, text] of files) expect(text, `${name}/expected/${file}`).toBe(expected.get(file));
    });
});
