/**
 * @module acts/run/step — one step of a test (§4): its request (abstract operation, raw request, client
 * payload or nothing for an assertion step), polling (`repeat`, §9), then its expectations (§6, §7), captures
 * (§8.2) and assertions (§5.5). A step that does not hold throws a StepFailure naming what it expected and
 * what came back.
 *
 * Reading of the format:
 * - `expect` whose keys are not only `status` and `body` is a body assertion as a whole (the shipped
 *   streaming suite writes `expect: {task: …}`).
 * - An abstract operation answered with an A2A error fails the step unless it has `expect_error` or its
 *   `expect` asserts the `error` field itself; its assertion root is then `{error: {type, code, message,
 *   data}}` (STREAM-SUB-003 writes `expect: {error: {exists: true}}`).
 * - `expect_error.error_type` (§6.2), or `code` as the shipped suites write it, is matched against the error's
 *   type name (`TaskNotFoundError`) unless the assertion holds a number, then against the JSON-RPC code.
 *   `details` (or `data`) is matched against JSON-RPC `error.data` or google.rpc.Status `details`.
 * - With `repeat`, the expectations are checked on the attempt where `until` held; `max_attempts` defaults to
 *   10, `delay_ms` to 1000 (§9).
 * - A streamed answer must end before `expect_stream.timeout_ms` (else the runner's timeout).
 */
import { type Mismatch, match, show } from '../check/match.ts';
import { checkNamed } from '../check/named.ts';
import { parsePath, valueAt } from '../check/paths.ts';
import { checkStream } from '../check/stream.ts';
import { holds, parseUntil, type Until } from '../check/until.ts';
import { interpolate, type Scope } from '../check/vars.ts';
import type { ExpectError, NamedAssertion, Step } from '../format/model.ts';
import { type AnsweredError, jsonRpcError, restError, TYPE_ALIASES } from '../wire/errors.ts';
import { type Outcome, runOperation, runRaw, type Target } from '../wire/exchange.ts';
import { failureOf, StepFailure } from './result.ts';

/** What a step runs with: the binding under test (none for client tests) and the test's scope. */
export interface StepContext {
  readonly target: Target | undefined;
  readonly scope: Scope & { readonly steps: Map<string, Record<string, unknown>> };
  /** Parses a client step's payload with the client under test (§10). */
  readonly parse?: (operation: string, payload: unknown) => Promise<unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(stepId: string, message: string, extra: { expected?: string; actual?: string } = {}): never {
  throw new StepFailure({ message, step_id: stepId, ...extra });
}

/** Whether an assertion holds a number anywhere (then a `code` is read as the JSON-RPC code). */
const hasNumber = (v: unknown): boolean =>
  typeof v === 'number' ? true : Array.isArray(v) ? v.some(hasNumber) : isObj(v) ? Object.values(v).some(hasNumber) : false;

/** §6.2 against the error an answer carried. */
function errorMismatches(expect: ExpectError, error: AnsweredError): Mismatch[] {
  const out: Mismatch[] = [];
  const typeAssertion = expect.error_type ?? expect.code;
  if (typeAssertion !== undefined) {
    if (hasNumber(typeAssertion)) out.push(...match(error.code, typeAssertion, 'error.code'));
    else {
      const alias = error.type ? Object.entries(TYPE_ALIASES).find(([, v]) => v === error.type)?.[0] : undefined;
      const asType = match(error.type, typeAssertion, 'error.type');
      if (asType.length > 0 && !(alias && match(alias, typeAssertion, 'error.type').length === 0))
        out.push(...asType.map((m) => ({ ...m, actual: `${m.actual} (code ${error.code ?? 'none'})` })));
    }
  }
  if (expect.message !== undefined) out.push(...match(error.message, expect.message, 'error.message'));
  const details = expect.details ?? expect.data;
  if (details !== undefined) out.push(...match(error.data, details, 'error.data'));
  return out;
}

/** The error a raw answer carries: a JSON-RPC error, or an HTTP error status. */
function rawError(outcome: Outcome): AnsweredError | undefined {
  if (isObj(outcome.body) && isObj(outcome.body['error']) && (outcome.body as { jsonrpc?: unknown }).jsonrpc === '2.0')
    return jsonRpcError(outcome.body['error']);
  return outcome.status >= 400 ? restError(outcome.status, outcome.body) : undefined;
}

const describeError = (e: AnsweredError) => `${e.type ?? `code ${e.code ?? 'none'}`}: ${typeof e.message === 'string' ? e.message : show(e.message)}`;

/**
 * `expect` split into its status and body assertions: `{status, body}` as §6.1 writes it; other keys beside
 * `status` are the body (CORE-MULTI-006: `{status: error, error: {exists: true}}`); without `status`, the
 * whole map is the body (STREAM-SUB-001: `{task: …}`).
 */
function expectParts(expect: Readonly<Record<string, unknown>>): { status?: unknown; body?: unknown } {
  const keys = Object.keys(expect);
  if (keys.every((k) => k === 'status' || k === 'body')) return expect;
  if ('body' in expect) return expect;
  const { status, ...body } = expect;
  return { ...(status !== undefined ? { status } : {}), body };
}

/** `status` against the answer; `status: error` (CORE-MULTI-006) holds of any error answer. */
function statusMismatches(outcome: Outcome, error: AnsweredError | undefined, status: unknown): Mismatch[] {
  if (status === 'error')
    return error
      ? []
      : [
          {
            path: 'status',
            expected: 'an error',
            actual: String(outcome.status),
            message: `status: expected an error, got HTTP ${outcome.status}: ${show(outcome.body)}`,
          },
        ];
  return match(outcome.status, status, 'status');
}

/**
 * The status an abstract operation's `expect.status` sees: a 2xx success is 200 (§4.2: the runner unwraps the
 * HTTP response; §6.1: 200 is success), so an HTTP+JSON create answered 201 Created is a success too.
 */
const abstractStatus = (outcome: Outcome): Outcome => (outcome.status >= 200 && outcome.status < 300 ? { ...outcome, status: 200 } : outcome);

async function request(step: Step, ctx: StepContext, streamTimeout: number | undefined): Promise<Outcome> {
  const target = ctx.target;
  if (!target) fail(step.id, 'a server step needs an agent (this run has none: --client)');
  const t = streamTimeout !== undefined ? { ...target, timeoutMs: streamTimeout } : target;
  if (step.kind === 'server') return runOperation(t, step.operation, interpolate(step.params, ctx.scope) as Record<string, unknown>);
  if (step.kind === 'raw') return runRaw(t, interpolate(step.raw, ctx.scope) as typeof step.raw);
  throw new Error('unreachable');
}

/** Runs `step`; resolves when it holds, throws StepFailure when it does not. */
export async function runStep(step: Step, ctx: StepContext): Promise<void> {
  if (step.delay_ms) await sleep(step.delay_ms);
  const record: Record<string, unknown> = {};
  if (step.kind === 'assertion') {
    const m = checkNamed(step.assertion, ctx.scope, `assertion ${step.id}`);
    if (m.length) throw failureOf(step.id, 'assertion', m);
    return;
  }
  if (step.kind === 'client') {
    if (!ctx.parse) fail(step.id, 'a client step needs the client runner (--client)');
    const payload = interpolate(step.client_response.wire_payload, ctx.scope);
    const parsed = await ctx.parse(step.client_response.operation, payload);
    record['response'] = parsed;
    ctx.scope.steps.set(step.id, record);
    const m = match(parsed, interpolate(step.expect_parsed, ctx.scope));
    if (m.length) throw failureOf(step.id, 'expect_parsed', m, `parsed: ${show(parsed)}`);
    await captureAndAssert(step, ctx, parsed, record);
    return;
  }
  const streamTimeout = step.expect_stream?.timeout_ms;
  let outcome = await request(step, ctx, streamTimeout);
  if (step.repeat) {
    const until = parseUntil(step.repeat.until) as Until;
    const max = step.repeat.max_attempts ?? 10;
    const delay = step.repeat.delay_ms ?? 1000;
    let attempt = 1;
    let state = holds(until, outcome.body);
    while (!state.ok && attempt < max) {
      const backoff = step.repeat.backoff === 'linear' ? attempt : step.repeat.backoff === 'exponential' ? 2 ** (attempt - 1) : 1;
      await sleep(delay * backoff);
      attempt++;
      outcome = await request(step, ctx, streamTimeout);
      state = holds(until, outcome.body);
    }
    if (!state.ok)
      fail(step.id, `repeat: "${step.repeat.until}" did not hold after ${attempt} attempts; last value ${show(state.actual)}`, {
        expected: step.repeat.until,
        actual: show(state.actual),
      });
  }
  record['response'] = outcome.body;
  ctx.scope.steps.set(step.id, record);
  const seen = `${outcome.request} answered ${outcome.status}: ${show(outcome.body)}`;
  const error = step.kind === 'raw' ? rawError(outcome) : outcome.error;
  if (step.expect_error) {
    if (!error)
      fail(step.id, `expected an error (${show(step.expect_error)}), but ${seen}`, { expected: show(step.expect_error), actual: show(outcome.body) });
    const m = errorMismatches(interpolate(step.expect_error, ctx.scope) as ExpectError, error);
    if (m.length) throw failureOf(step.id, 'expect_error', m, `got ${describeError(error)}`);
  }
  if (step.expect) {
    const { status, body } = expectParts(interpolate(step.expect, ctx.scope) as Record<string, unknown>);
    const assertsError = (isObj(body) && 'error' in body) || status === 'error';
    if (step.kind === 'server' && outcome.error && !assertsError)
      fail(step.id, `unexpected error ${describeError(outcome.error)} (${outcome.request}, HTTP ${outcome.status})`, {
        expected: show(body ?? status),
        actual: show(outcome.body),
      });
    const seenStatus = step.kind === 'server' ? abstractStatus(outcome) : outcome;
    const m = [
      ...(status !== undefined ? statusMismatches(seenStatus, error, status) : []),
      ...(body !== undefined ? match(outcome.body, body) : []),
    ];
    if (m.length) throw failureOf(step.id, 'expect', m, `${outcome.request} answered ${outcome.status}`);
  } else if (step.kind === 'server' && outcome.error && !step.expect_error && !step.expect_stream)
    fail(step.id, `unexpected error ${describeError(outcome.error)} (${outcome.request}, HTTP ${outcome.status})`, { actual: show(outcome.body) });
  if (step.expect_stream) {
    if (!outcome.events) {
      const why = error ? `an error: ${describeError(error)}` : `one answer, HTTP ${outcome.status}: ${show(outcome.body)}`;
      fail(step.id, `expected a stream of events, got ${why}`, { expected: 'a stream (text/event-stream)', actual: show(outcome.body) });
    }
    if (outcome.error && step.kind === 'server')
      fail(step.id, `the stream carried an error: ${describeError(outcome.error)} after ${outcome.events.length} events`, {
        actual: show(outcome.body),
      });
    const expect = interpolate(step.expect_stream, ctx.scope) as typeof step.expect_stream;
    const m = checkStream(expect, outcome.events, step.kind === 'raw');
    const tail = `events: ${show(outcome.events)}`;
    if (!outcome.closed)
      fail(
        step.id,
        `the stream did not end within ${streamTimeout ?? ctx.target!.timeoutMs} ms (${outcome.events.length} events so far)${m.length ? `; ${m[0]!.message}` : ''}`,
        {
          expected: 'the stream to end',
          actual: tail,
        },
      );
    if (m.length) throw failureOf(step.id, 'expect_stream', m, tail);
  }
  await captureAndAssert(step, ctx, outcome.body, record);
}

async function captureAndAssert(step: Step, ctx: StepContext, root: unknown, record: Record<string, unknown>): Promise<void> {
  for (const [name, path] of Object.entries(step.capture ?? {})) {
    const p = parsePath(path);
    if (typeof p === 'string') fail(step.id, `capture ${name}: ${p}`);
    const value = valueAt(root, p);
    if (value === undefined)
      fail(step.id, `capture ${name}: nothing at ${path} in ${show(root)}`, { expected: `a value at ${path}`, actual: show(root) });
    record[name] = value;
  }
  for (const [i, a] of (step.assertions ?? []).entries()) checkAssertion(a, ctx, step.id, `assertions[${i}]${a.id ? ` (${a.id})` : ''}`);
}

/** One named assertion (a step's or the test's); throws StepFailure. */
export function checkAssertion(a: NamedAssertion, ctx: StepContext, stepId: string, label: string): void {
  const m = checkNamed(a, ctx.scope, label);
  if (m.length) throw failureOf(stepId, label, m);
}
