/**
 * @module acts/run/result — what running a test produces, in the shape of the report (§13.3): a result per
 * test and per step, and for a failure the step, the expectation, what came back and where.
 */
import type { Level } from '../format/model.ts';
import type { Mismatch } from '../check/match.ts';

export type Verdict = 'pass' | 'fail' | 'skip' | 'error';

/** §13.3 `failure-detail`. */
export interface FailureDetail {
  readonly message: string;
  readonly step_id?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly assertion_path?: string;
}

/** §13.3 `step-result`. */
export interface StepResult {
  readonly id: string;
  readonly result: Verdict;
  readonly duration_ms: number;
  readonly failure?: FailureDetail;
}

/** §13.3 `test-result`. */
export interface TestResult {
  readonly id: string;
  readonly name: string;
  readonly level: Level;
  readonly result: Verdict;
  readonly duration_ms: number;
  readonly skip_reason?: string;
  readonly failure?: FailureDetail;
  readonly steps?: readonly StepResult[];
  /** The corrections (format/errata.ts) this test ran under; not in §13.3. */
  readonly errata?: readonly string[];
}

/** A step (or assertion) failed: its mismatches, or a message alone. */
export class StepFailure extends Error {
  readonly detail: FailureDetail;
  constructor(detail: FailureDetail) {
    super(detail.message);
    this.name = 'StepFailure';
    this.detail = detail;
  }
}

/** The failure of a step from its mismatches: the first one's path, expectation and value, the count. */
export function failureOf(stepId: string, what: string, mismatches: readonly Mismatch[], context?: string): StepFailure {
  const first = mismatches[0]!;
  const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : '';
  return new StepFailure({
    message: `${what}: ${first.message}${more}${context ? `; ${context}` : ''}`,
    step_id: stepId,
    expected: first.expected,
    actual: first.actual,
    ...(first.path ? { assertion_path: first.path } : {}),
  });
}
