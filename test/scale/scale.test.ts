/**
 * @module test/scale/scale — the short scale run (test/scale/harness/run.ts; `npm run scale` is the long one):
 * real processes on a real PostgreSQL, one agent and one MCP instance SIGKILLed mid-run. Nothing is lost,
 * every task with a webhook gets its final push, a push arrives twice only when the killed instance had it
 * in flight, and MCP second rounds complete on another instance than the first.
 */
import { describe, expect, it } from 'vitest';
import { detailLine, runScale, summaryLine } from './harness/run.ts';

describe('scale run (short)', () => {
  it('three instances behind a round-robin client: kill one mid-run, nothing is lost', async () => {
    const result = await runScale({ seconds: 5, concurrency: 4, leaseMs: 1200 });
    process.stderr.write(`${summaryLine(result)}\n${detailLine(result)}\n`);
    expect(result.killed).toHaveLength(2);
    expect(result.tasks).toBeGreaterThan(10);
    expect(result.completed).toBeGreaterThan(0);
    expect(result.lostIds).toEqual([]);
    expect(result.missingFinalPushes).toBe(0);
    expect(result.duplicatesAfterFault).toBe(0);
    expect(result.mcpRoundsAcrossInstances).toBeGreaterThan(0);
    expect(result.followedAcross).toEqual({ followed: 2, of: 2 });
    expect(result.completed + result.canceled + result.failedAfterKill + result.waitingForInput).toBe(result.tasks);
  }, 180_000);
});
