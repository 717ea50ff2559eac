/**
 * @module test/scale/db-faults — the short scale runs with the database taken away mid-run (harness/faults.ts;
 * `npm run scale -- --fault pg-restart|pg-terminate` are the long ones): PostgreSQL stopped for 3 s and started
 * again on the same data directory, or every session of the database ended twice. Afterwards nothing is lost
 * or left running, every task with a webhook got its final push, no push first received after the fault
 * arrives twice, nothing is left in the outbox or leases, no instance exited, and every request sent while the
 * database was away was answered (an error is an answer) within the bound, not left hanging.
 */
import { describe, expect, it } from 'vitest';
import { postgresBinDir } from '../helpers/postgres.ts';
import { OUTAGE_ANSWER_BOUND_MS } from './harness/report.ts';
import { detailLine, runScale, summaryLine, type ScaleResult } from './harness/run.ts';

/** Why the runs cannot be made here (no PostgreSQL binaries), if so. */
const missing = (() => {
  try {
    postgresBinDir();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
})();

function expectRecovered(r: ScaleResult): void {
  process.stderr.write(`${summaryLine(r)}\n${detailLine(r)}\n`);
  expect(r.exited).toBe(0);
  expect(r.tasks).toBeGreaterThan(10);
  expect(r.lostIds).toEqual([]);
  expect(r.missingFinalPushes).toBe(0);
  expect(r.duplicatesAfterFault).toBe(0);
  expect(r.leftover).toBe(0);
  expect(r.drainedMs).toBeDefined();
  // Each agent instance hears the others again (its LISTEN connection is back): it follows a task another runs.
  expect(r.followedAcross).toEqual({ followed: 3, of: 3 });
  // Each agent instance completed a task sent through it after the database came back.
  expect(r.firstCompletedMs.every((ms) => ms !== undefined)).toBe(true);
  expect(r.duringFault!.a2a.slowestMs).toBeLessThanOrEqual(OUTAGE_ANSWER_BOUND_MS);
  expect(r.duringFault!.mcp.slowestMs).toBeLessThanOrEqual(OUTAGE_ANSWER_BOUND_MS);
  expect(r.completed + r.canceled + r.failed + r.failedAfterKill + r.waitingForInput).toBe(r.tasks);
}

describe.skipIf(missing !== undefined)(`scale run, the database taken away (short)${missing ? `: skipped, ${missing}` : ''}`, () => {
  it('PostgreSQL stopped for 3 s and started again: the instances reconnect and nothing is lost', async () => {
    const started = Date.now();
    const r = await runScale({ seconds: 4, concurrency: 4, leaseMs: 1200, fault: 'pg-restart', outageMs: 3000, afterFaultMs: 2500 });
    expectRecovered(r);
    expect(r.outageMs).toBeGreaterThanOrEqual(3000);
    // Requests were sent while it was down, and answered with errors rather than left hanging.
    expect(r.duringFault!.a2a.answers).toBeGreaterThan(0);
    expect(r.duringFault!.a2a.errors).toBeGreaterThan(0);
    expect(r.duringFault!.mcp.answers).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it('every session ended twice, a second apart: the instances reconnect and nothing is lost', async () => {
    const started = Date.now();
    const r = await runScale({ seconds: 4, concurrency: 4, leaseMs: 1200, fault: 'pg-terminate', afterFaultMs: 2000 });
    expectRecovered(r);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
