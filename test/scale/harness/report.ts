/**
 * @module test/scale/harness/report — what a scale run (run.ts) found, and how it is printed: one summary
 * line (the counts that must hold, and how long recovery took), then a line of details; `passed` says whether
 * the run held its bounds.
 */
import type { DuringFault, FaultKind } from './faults.ts';

/** The longest a request sent while the database was away may take to be answered (an error is an answer). */
export const OUTAGE_ANSWER_BOUND_MS = 5000;

export interface ScaleResult {
  readonly instances: number;
  readonly fault: FaultKind;
  /** How long the fault lasted (ms): the database away, or the two terminations; 0 for a kill. */
  readonly outageMs: number;
  readonly tasks: number;
  readonly completed: number;
  readonly canceled: number;
  /** Tasks an instance stopped running (killed), failed by the instance adopting them (an agent without resume). */
  readonly failedAfterKill: number;
  /** Tasks resumed and completed by an instance that took them up (adopted, or its own after the database came back). */
  readonly resumedAfterKill: number;
  /** Tasks failed by the agent itself (FAILED without the adoption's status message). */
  readonly failed: number;
  readonly waitingForInput: number;
  readonly lost: number;
  readonly lostIds: readonly string[];
  readonly pushes: number;
  readonly duplicatePushes: number;
  /** Of the duplicates, those whose first copy arrived after the fault was over: none may (one in flight at it is re-sent). */
  readonly duplicatesAfterFault: number;
  /** Tasks with a webhook whose terminal state never reached it. */
  readonly missingFinalPushes: number;
  /** Leases and outbox entries still in the database at the end (all tasks ended or waiting). */
  readonly leftover: number;
  readonly mcpRoundsAcrossInstances: number;
  readonly mcpFailures: number;
  readonly requests: number;
  readonly clientErrors: number;
  readonly killed: readonly number[];
  /** Live agent instances that, after the fault, followed a task running on another one to its end (their LISTEN back). */
  readonly followedAcross: { readonly followed: number; readonly of: number };
  /** Instance processes that exited without being killed by the run. */
  readonly exited: number;
  /** Requests sent while the fault lasted (database faults). */
  readonly duringFault: { readonly a2a: DuringFault; readonly mcp: DuringFault } | undefined;
  /** From the database back (the kill) to the first task sent afterwards completing through each agent instance, ms (undefined: none did). */
  readonly firstCompletedMs: readonly (number | undefined)[];
  /** From the database back (the kill) to no lease, outbox entry or running task older than it left, ms. */
  readonly drainedMs: number | undefined;
  readonly seconds: number;
}

const secs = (ms: number | undefined) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);

/** The one summary line of a scale run. */
export function summaryLine(r: ScaleResult): string {
  const fault = r.fault === 'kill' ? 'kill' : `${r.fault} (${secs(r.outageMs)})`;
  return (
    `fault: ${fault}, instances: ${r.instances}, tasks: ${r.tasks}, completed: ${r.completed}, lost: ${r.lost}, ` +
    `duplicate pushes: ${r.duplicatePushes}, mcp rounds across instances: ${r.mcpRoundsAcrossInstances}, ` +
    `recovery: first task completed through each instance ${r.firstCompletedMs.map(secs).join('/')}, drained ${secs(r.drainedMs)}`
  );
}

const during = (name: string, d: DuringFault) => `${name} ${d.answers} answered (${d.errors} errors, slowest ${d.slowestMs} ms)`;

/** What else the run saw, on a second line. */
export function detailLine(r: ScaleResult): string {
  return (
    `canceled: ${r.canceled}, resumed and completed by an instance taking them up: ${r.resumedAfterKill}, ` +
    `failed as their instance was killed: ${r.failedAfterKill}, failed otherwise: ${r.failed}, waiting for input: ${r.waitingForInput}, ` +
    `pushes: ${r.pushes} (duplicates first received after the fault: ${r.duplicatesAfterFault}, tasks missing their final push: ${r.missingFinalPushes}), ` +
    `leases and outbox entries left: ${r.leftover}, mcp failures: ${r.mcpFailures}, ` +
    `requests: ${r.requests} (answered with an error or cut by the fault: ${r.clientErrors}), ` +
    (r.duringFault ? `during the fault: ${during('a2a', r.duringFault.a2a)}, ${during('mcp', r.duringFault.mcp)}, ` : '') +
    `agents following another's task after the fault: ${r.followedAcross.followed} of ${r.followedAcross.of}, ` +
    `killed pids: ${r.killed.join(' ') || 'none'}, instances exited: ${r.exited}, ${r.seconds.toFixed(1)} s`
  );
}

/** Why the run failed its bounds, one reason a line; empty when it held them. */
export function failures(r: ScaleResult): string[] {
  const out: string[] = [];
  if (r.lost) out.push(`${r.lost} tasks lost: ${r.lostIds.join(' ')}`);
  if (r.missingFinalPushes) out.push(`${r.missingFinalPushes} tasks missing their final push`);
  if (r.duplicatesAfterFault) out.push(`${r.duplicatesAfterFault} pushes first received after the fault arrived again`);
  if (r.leftover) out.push(`${r.leftover} leases or outbox entries left`);
  if (r.exited) out.push(`${r.exited} instances exited`);
  const { followed, of } = r.followedAcross;
  if (followed < of) out.push(`${of - followed} of ${of} agent instances did not follow a task running on another after the fault`);
  if (r.drainedMs === undefined) out.push('leases, outbox and running tasks older than the fault never drained');
  for (const [name, d] of Object.entries(r.duringFault ?? {}))
    if (d.slowestMs > OUTAGE_ANSWER_BOUND_MS) out.push(`${name}: slowest answer during the fault ${d.slowestMs} ms > ${OUTAGE_ANSWER_BOUND_MS} ms`);
  return out;
}
