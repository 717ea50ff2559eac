/**
 * @module test/bench/idle — the idle-memory part (bench/idle) on a small count: the holder opens and holds 20
 * subscriptions/listen streams, sessions with their GET stream and bare sessions on ours, the SDK v2 and tmcp,
 * and the part yields well-formed rows (a smoke test: `npm run bench` itself is not part of `npm test`). Ours
 * runs from sources under tsx here; the bench runs it from the built packages.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { measureRows, WORKLOADS } from '../../bench/idle/index.ts';
import { SERVERS, type IdleServer } from '../../bench/idle/measure.ts';
import { BENCH, TSX } from '../../bench/lib/proc.ts';

const ours: IdleServer = {
  ...SERVERS[0]!,
  args: async (_mode, count) => [...TSX, '--expose-gc', join(BENCH, 'servers', 'wiregen-idle.ts'), '--max-streams', String(count + 256)],
};

test('holds streams and sessions on each server and yields well-formed rows', { timeout: 90_000 }, async () => {
  const rows = await measureRows({ count: 20, rounds: 1, settleMs: 100, log: () => {}, servers: [ours, ...SERVERS.slice(1)] });
  for (const w of WORKLOADS) {
    const of = rows.filter((r) => r.workload === w.label);
    for (const s of SERVERS)
      expect(of.some((r) => r.subject === s.label && r.metric === `anon KB per ${w.unit}` && Number.isFinite(r.value))).toBe(true);
    const vsV2 = of.find((r) => r.ratioLabel === 'SDK v2')!;
    expect(vsV2.metric).toBe(`KB per ${w.unit}`);
    expect(Number.isFinite(vsV2.ratio)).toBe(true);
    expect(of.find((r) => r.ratioLabel === 'tmcp')).toBeDefined();
    expect(Number.isFinite(of.find((r) => r.metric.startsWith('heap'))!.value)).toBe(true);
    if (w.targetId) expect(typeof vsV2.met).toBe('boolean');
  }
  expect(rows.filter((r) => r.targetId).map((r) => r.targetId)).toEqual(['idle-listen-kb', 'idle-session-kb']);
});
