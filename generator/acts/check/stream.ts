/**
 * @module acts/check/stream — `expect_stream` (§7) on the events of a streamed answer.
 *
 * Reading of the format: an event is matched as a view that holds both ways the suites write event
 * assertions: the StreamResponse as sent (`task`, `message`, `statusUpdate`, `artifactUpdate`), its payload
 * under §7's names (`status_update`, `artifact_update`), and the payload's own fields at the top (so
 * `final_event: {status: {state: …}}` reads the final status update's or task's state, and
 * `artifact: {exists: true}` an artifact update's artifact). A raw step's events are matched as sent.
 * `ordering: monotonic_state` fails exactly the transitions §7.1 calls illegal: any state to SUBMITTED, and a
 * terminal state to another state (a state may repeat); the other transitions are not checked.
 */
import type { ExpectStream } from '../format/model.ts';
import { type Mismatch, match, show } from './match.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const KINDS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;
const TERMINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];

/** The view of a StreamResponse that event assertions are matched against. */
export function eventView(event: unknown): unknown {
  if (!isObj(event)) return event;
  const kind = KINDS.find((k) => isObj(event[k]));
  if (!kind) return event;
  const payload = event[kind] as Obj;
  return {
    ...payload,
    ...event,
    ...(kind === 'statusUpdate' ? { status_update: payload } : {}),
    ...(kind === 'artifactUpdate' ? { artifact_update: payload } : {}),
  };
}

/** The task state an event carries (a Task's or a status update's), if any. */
export function stateOf(event: unknown): string | undefined {
  if (!isObj(event)) return undefined;
  const holder = isObj(event['task'])
    ? event['task']
    : isObj(event['statusUpdate'])
      ? event['statusUpdate']
      : isObj(event['result'])
        ? event['result']
        : event;
  const status = holder['status'];
  return isObj(status) && typeof status['state'] === 'string' ? status['state'] : undefined;
}

/** §7.1's illegal transitions among the states of `events`, as mismatches. */
export function orderingMismatches(events: readonly unknown[]): Mismatch[] {
  const out: Mismatch[] = [];
  let previous: string | undefined;
  events.forEach((e, i) => {
    const state = stateOf(e);
    if (state === undefined) return;
    if (previous !== undefined && state !== previous) {
      const why = TERMINAL.includes(previous)
        ? `terminal ${previous} is final`
        : state === 'TASK_STATE_SUBMITTED'
          ? 'SUBMITTED is only the initial state'
          : undefined;
      if (why)
        out.push({
          path: `events[${i}].status.state`,
          expected: `no transition from ${previous} to ${state}`,
          actual: state,
          message: `events[${i}]: ${previous} -> ${state} is an illegal transition (§7.1: ${why})`,
        });
    }
    previous = state;
  });
  return out;
}

const META = ['description', 'match', 'index'];

/** The mismatches of `events` against `expect` (none: it holds); `raw` events are matched as sent. */
export function checkStream(expect: ExpectStream, events: readonly unknown[], raw: boolean): Mismatch[] {
  const views = raw ? events : events.map(eventView);
  const out: Mismatch[] = [];
  const count = (expected: string, message: string) => out.push({ path: 'events', expected, actual: `${events.length} events`, message });
  if (expect.min_count !== undefined && events.length < expect.min_count)
    count(`at least ${expect.min_count} events`, `expected at least ${expect.min_count} events, got ${events.length}`);
  if (expect.max_count !== undefined && events.length > expect.max_count)
    count(`at most ${expect.max_count} events`, `expected at most ${expect.max_count} events, got ${events.length}`);
  if (expect.ordering === 'monotonic_state') out.push(...orderingMismatches(events));
  (expect.events ?? []).forEach((assertion, n) => {
    const body = Object.fromEntries(Object.entries(assertion).filter(([k]) => !META.includes(k)));
    const label = typeof assertion['description'] === 'string' ? ` (${assertion['description']})` : '';
    if (assertion['match'] === 'any_position') {
      if (!views.some((v) => match(v, body).length === 0))
        out.push({
          path: `events[*]`,
          expected: show(body),
          actual: `${events.length} events, none matching`,
          message: `no event matches expect_stream.events[${n}]${label}`,
        });
      return;
    }
    // exact_position (the default): `index`, else the assertion's own position in the list.
    const index = typeof assertion['index'] === 'number' ? assertion['index'] : n;
    if (index >= views.length) {
      out.push({
        path: `events[${index}]`,
        expected: show(body),
        actual: '(missing)',
        message: `events[${index}]${label}: the stream has ${views.length} events`,
      });
      return;
    }
    out.push(...match(views[index], body, `events[${index}]`));
  });
  if (expect.final_event !== undefined) {
    if (views.length === 0)
      out.push({ path: 'final_event', expected: show(expect.final_event), actual: '(no events)', message: 'final_event: the stream has no events' });
    else out.push(...match(views[views.length - 1], expect.final_event, `events[${views.length - 1}]`));
  }
  if (expect.each_event !== undefined) views.forEach((v, i) => out.push(...match(v, expect.each_event, `events[${i}]`)));
  return out;
}
