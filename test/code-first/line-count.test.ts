/**
 * The notes server written the recommended way (examples/notes-server: code first, Zod) against the same server
 * written for the official SDK v2 as its guide writes one (test/sdk-compat/servers/notes.ts, which the SDK itself
 * runs in test/sdk-compat/): both formatted alike by prettier at several widths, ours is at most 70 lines at the
 * repository's width and at 120 columns, and fewer than the SDK's at every width.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { codeLines, NOTES_BUDGET } from './line-count.ts';

const OURS = readFileSync(join(ROOT, 'examples/notes-server/src/server.ts'), 'utf8');
const SDK = readFileSync(join(ROOT, 'test/sdk-compat/servers/notes.ts'), 'utf8');

async function lines(code: string, printWidth: number): Promise<number> {
  return codeLines(await format(code, { parser: 'typescript', printWidth, singleQuote: true, trailingComma: 'all', arrowParens: 'always' }));
}

describe('the notes server, in lines an author writes', () => {
  it.each([80, 100, 120, 150])('at %i columns: fewer than the same server for the official SDK', async (width) => {
    const [ours, sdk] = [await lines(OURS, width), await lines(SDK, width)];
    expect(ours).toBeLessThan(sdk);
    if (width >= 120) expect(ours).toBeLessThanOrEqual(NOTES_BUDGET);
  });

  it('both implement the same items', () => {
    for (const name of ["'add_note'", "'list_notes'", "'delete_note'", "'summarize'", "'note://{id}'", "'review_note'"]) {
      expect(OURS).toContain(name);
      expect(SDK).toContain(name);
    }
  });
});
