/**
 * @module acts/run/test — one test (§3.2, §4): its steps in order in a scope of its own (§4: tests share no
 * state), its closing `assertions`, and the result the report shows (§13.3). The first step that does not
 * hold ends the test (its later steps are reported `skip`); a problem of the runner or the network, not of
 * the answer, is `error` (§13.2: runner errors, not test failures).
 */
import type { Suite, Test } from '../format/model.ts';
import { UnresolvedVariableError } from '../check/vars.ts';
import type { Target } from '../wire/exchange.ts';
import { type FailureDetail, StepFailure, type StepResult, type TestResult, type Verdict } from './result.ts';
import { checkAssertion, runStep, type StepContext } from './step.ts';

export interface TestEnvironment {
  readonly target: Target | undefined;
  /** The runner's variables, above the document's (SUT_BASE_URL, webhookUrl, --var). */
  readonly variables: Readonly<Record<string, string>>;
  readonly parse?: StepContext['parse'];
}

const ms = (since: number) => Math.round(performance.now() - since);

/** What a thrown value means for the step: a failure (the agent's) or an error (the runner's, the network's). */
function classify(e: unknown, stepId: string): { result: Verdict; failure: FailureDetail } {
  if (e instanceof StepFailure) return { result: 'fail', failure: e.detail };
  if (e instanceof UnresolvedVariableError) return { result: 'fail', failure: { message: e.message, step_id: stepId } };
  const err = e as Error;
  if (err.name === 'TimeoutError') return { result: 'fail', failure: { message: `no answer within the timeout (${err.message})`, step_id: stepId } };
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return { result: 'error', failure: { message: `${err.message}${cause?.message ? `: ${cause.message}` : ''}`, step_id: stepId } };
}

/** Runs `test` of `suite`; `skip` is its precondition's reason, when it does not apply. */
export async function runTest(test: Test, suite: Suite, env: TestEnvironment, skip?: string): Promise<TestResult> {
  const base = { id: test.id, name: test.name, level: test.level };
  if (skip !== undefined) return { ...base, result: 'skip', duration_ms: 0, skip_reason: skip };
  const t0 = performance.now();
  const ctx: StepContext = {
    target: env.target ? { ...env.target, specVersion: suite.specVersion } : undefined,
    scope: { steps: new Map(), runner: env.variables, document: suite.variables, env: process.env },
    ...(env.parse ? { parse: env.parse } : {}),
  };
  const steps: StepResult[] = [];
  let outcome: { result: Verdict; failure?: FailureDetail } = { result: 'pass' };
  for (const step of test.steps) {
    if (outcome.result !== 'pass') {
      steps.push({ id: step.id, result: 'skip', duration_ms: 0 });
      continue;
    }
    const s0 = performance.now();
    try {
      await runStep(step, ctx);
      steps.push({ id: step.id, result: 'pass', duration_ms: ms(s0) });
    } catch (e) {
      outcome = classify(e, step.id);
      steps.push({ id: step.id, result: outcome.result, duration_ms: ms(s0), failure: outcome.failure! });
    }
  }
  if (outcome.result === 'pass')
    try {
      for (const [i, a] of (test.assertions ?? []).entries())
        checkAssertion(a, ctx, `assertions[${i}]`, `test assertions[${i}]${a.id ? ` (${a.id})` : ''}`);
    } catch (e) {
      outcome = classify(e, 'assertions');
    }
  return { ...base, result: outcome.result, duration_ms: ms(t0), ...(outcome.failure ? { failure: outcome.failure } : {}), steps };
}
