/**
 * @module test/consumer/golden.suite — golden tests as a user's project writes them: a stateful server of its own
 * (the counter of test/golden/counter/, as plain JavaScript on the packed runtime), the counter's corpus, and a
 * vitest file of three lines using `wiregen/golden/vitest`, run with the project's `npx vitest run` (vitest from
 * the npm cache, the repository's version). Every case gets a server of its own and passes, over stdio and in
 * process; that a shared server fails them is test/golden/library.test.ts's to show.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { installTarballs, type Packed } from './packages.ts';

/** The vitest the repository tests with, for the project to install from the npm cache. */
export const VITEST = `vitest@${(JSON.parse(readFileSync(join(ROOT, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }).version}`;

const COUNTER = `import { mcpServer } from '@wiregen/runtime/mcp';

export function counter() {
  let count = 0;
  return mcpServer({ name: 'counter', version: '1.0.0' }).tool('increment', { description: 'Counts its calls' }, () => \`count \${++count}\`);
}
`;

const TEST = `import { goldenSuite } from 'wiregen/golden/vitest';
import { counter } from './counter.mjs';

goldenSuite('golden', { command: ['node', 'main.mjs'] });
goldenSuite('golden', counter, { name: 'in process' });
`;

export function goldenSuite(packed: () => Packed): void {
  describe('golden tests in a project of its own, with wiregen/golden/vitest', () => {
    const root = mkdtempSync(join(tmpdir(), 'wiregen-consumer-golden-'));

    beforeAll(() => {
      installTarballs(root, packed(), [VITEST]);
      writeFileSync(join(root, 'counter.mjs'), COUNTER);
      writeFileSync(join(root, 'main.mjs'), "import { counter } from './counter.mjs';\n\nawait counter().serveStdio();\n");
      writeFileSync(join(root, 'golden.test.ts'), TEST);
      cpSync(join(ROOT, 'test/golden/counter/corpus'), join(root, 'golden'), { recursive: true });
    }, 300_000);

    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('npx vitest run: every case passes, a server per case, over stdio and in process', () => {
      const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
      const out = execFileSync(npx, ['vitest', 'run', '--reporter', 'verbose'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      expect(out.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+8 passed \(8\)/);
      expect(out).toContain('in process');
    });
  });
}
