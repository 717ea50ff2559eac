/**
 * @module test/bench/cold-runtimes — the short version of the bench's cold start by runtime
 * (bench/cold-runtimes/): one start each, no warm-up, of ours and the official SDK v2 on Node, Bun, Deno and
 * workerd (miniflare on Node 22), and of the hello floor (on workerd also ours with only 2026-07-28 bundled). Each server must give the bench's request the right
 * answer (`add` 1 + 2 is 3 as text and as structuredContent, the bench's own check), or its row says why it
 * did not; a runtime whose binary is not installed is skipped with the reason in the test's name. No time is
 * asserted (speed numbers belong to `npm run bench`).
 */
import { describe, expect, test } from 'vitest';
import { measure, PART } from '../../bench/cold-runtimes/index.ts';
import { findRuntime } from '../../bench/lib/runtimes.ts';

const runtimes = (['bun', 'deno', 'workerd'] as const).map((name) => findRuntime(name));

describe('cold start by runtime, one start each', () => {
  test('on Node: ours and SDK v2 answer, one paired ratio', { timeout: 60_000 }, async () => {
    const rows = await measure({ rounds: 1, log: () => {}, runtimes: ['node'], quick: true });
    expect(rows.map((r) => [r.part, r.value === null ? r.note : 'measured'])).toEqual([
      [PART, 'measured'],
      [PART, 'measured'],
    ]);
    expect(rows[0]!.ratio).toBeGreaterThan(0);
    expect(rows[0]!.subject).toMatch(/^ours, node, /);
    expect(rows[1]!.subject).toMatch(/^SDK v2 2\.4\.0, node, /);
  });

  for (const found of runtimes) {
    const skipped = found.binary ? '' : ` (skipped: ${found.reason})`;
    test.skipIf(!found.binary)(`on ${found.label}: ours, SDK v2 and the hello floor answer${skipped}`, { timeout: 120_000 }, async () => {
      const rows = await measure({ rounds: 1, log: () => {}, runtimes: [found.name], quick: true });
      // A row without a value carries the reason (the server's last lines): shown when the test fails.
      const started = rows.filter((r) => !r.subject.includes('above the hello floor'));
      const kinds = ['ours', 'SDK v2 2.4.0', ...(found.name === 'workerd' ? ['ours, 2026-07-28 only bundled'] : []), 'hello handler (the floor)'];
      expect(started.map((r) => (r.value === null ? `${r.subject}: ${r.note}` : 'measured'))).toEqual(kinds.map(() => 'measured'));
      expect(started.map((r) => r.subject.slice(0, r.subject.indexOf(`, ${found.name}`)))).toEqual(kinds);
      expect(started[0]!.ratio).toBeGreaterThan(0);
      expect(rows.filter((r) => r.subject.includes('above the hello floor')).map((r) => r.subject)).toEqual([
        `ours, ${found.name}, above the hello floor`,
        `SDK v2 2.4.0, ${found.name}, above the hello floor`,
      ]);
    });
  }
});
