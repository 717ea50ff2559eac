/**
 * The committed API reports (api/<package>.api.md) match the public surface of every workspace package's
 * entry points: a change to what a package exports, or to the type of something it exports, fails here with
 * the first differing lines and the command that accepts it (`npm run api -- --write`).
 */
import { describe, expect, it } from 'vitest';
import { compareReports } from '../../scripts/api-report/index.ts';
import { ROOT } from '../helpers/project.ts';

describe('API report', () => {
  it('api/ matches the exports of every workspace package', () => {
    const problems = compareReports(ROOT);
    if (problems) expect.fail(problems);
  });
});
