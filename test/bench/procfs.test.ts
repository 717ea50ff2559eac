/**
 * @module test/bench/procfs — the bench's reading of the machine's steal time (bench/lib/procfs.ts), which marks
 * and re-runs the parts another tenant's load disturbed (bench/run.ts --max-steal).
 */
import { describe, expect, test } from 'vitest';
import { machineTicks, stealPercent } from '../../bench/lib/procfs.ts';

describe('steal time', () => {
  test('is read from /proc/stat: the steal ticks are a part of all the ticks, and both only grow', async () => {
    const a = machineTicks()!;
    expect(a.total).toBeGreaterThan(0);
    expect(a.steal).toBeGreaterThanOrEqual(0);
    expect(a.steal).toBeLessThanOrEqual(a.total);
    const spin = Date.now() + 50;
    while (Date.now() < spin);
    const b = machineTicks()!;
    expect(b.total).toBeGreaterThan(a.total);
    expect(b.steal).toBeGreaterThanOrEqual(a.steal);
    const pct = stealPercent(a, b)!;
    expect(pct).toBeGreaterThanOrEqual(0);
    expect(pct).toBeLessThanOrEqual(100);
  });

  test('is the share of the ticks between two readings, undefined without a reading or an interval', () => {
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1400, steal: 110 })).toBe(25);
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1000, steal: 10 })).toBeUndefined();
    expect(stealPercent(undefined, { total: 1000, steal: 10 })).toBeUndefined();
  });
});
