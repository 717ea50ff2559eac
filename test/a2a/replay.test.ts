/**
 * Golden replay (issue 7 item 4): `wiregen serve research-agent --http 0` against the 8 sessions the official
 * A2A Python SDK's research agent recorded (seed 000, test/fixtures/recordings/a2a_sdk_exchanges.json), each
 * against a fresh process over real HTTP. Every one of the 56 messages must be equal as JSON with every UUID
 * renumbered in order of appearance and every timestamp blanked (test/helpers/a2a-replay.ts).
 *
 * The A2A-Version header (1.0) goes with every JSON-RPC request but one: a2a_errors' SendMessage (id 2), the
 * request the SDK answered with -32009 "A2A version '0.3' is not supported", which is what a request with no
 * header gets (§3.6.2). `sentWithoutVersion` decides this from the recorded answer.
 */
import { describe, expect, it } from 'vitest';
import { placeholdersInOrder } from '../helpers/a2a-renumber.ts';
import {
  A2A_RECORDED_MESSAGES,
  A2A_RECORDED_SESSIONS,
  loadA2aSessions,
  replayA2aSession,
  sentWithoutVersion,
} from '../helpers/a2a-replay.ts';

const sessions = loadA2aSessions();
/** Matched messages per session, filled by the per-session tests and read by the summary. */
const tally = new Map<string, number>();

describe('A2A research agent replays the official SDK recordings (seed 000)', () => {
  it(`the recording holds ${A2A_RECORDED_SESSIONS} sessions and ${A2A_RECORDED_MESSAGES} messages`, () => {
    expect(sessions).toHaveLength(A2A_RECORDED_SESSIONS);
    expect(sessions.reduce((n, s) => n + s.messages.length, 0)).toBe(A2A_RECORDED_MESSAGES);
  });

  it('the recording numbers UUIDs in order of first appearance with object keys sorted', () => {
    for (const session of sessions) {
      const order = placeholdersInOrder(session.messages.map((m) => m.json));
      expect(order, session.name).toEqual(order.map((_, i) => i + 1));
    }
    // In insertion order the task's `id` would come before `artifacts`: the numbering says sorted.
    const task = (sessions[0]!.messages[3]!.json['result'] as { task: Record<string, unknown> }).task;
    expect([task['artifacts'], task['contextId'], task['id']].map((v) => JSON.stringify(v).match(/<id-\d+>/)![0])).toEqual(['<id-2>', '<id-3>', '<id-4>']);
  });

  it('exactly one request goes without A2A-Version: the SendMessage of a2a_errors answered with -32009', () => {
    const without = sessions.flatMap((s) => s.messages.flatMap((m, i) => (m.from === 'orchestrator' && sentWithoutVersion(s, i) ? [`${s.name} #${i} ${String(m.json['method'])} id ${String(m.json['id'])}`] : [])));
    expect(without).toEqual(['a2a_errors #2 SendMessage id 2']);
  });

  for (const session of sessions) {
    it(`${session.name} (${session.messages.length} messages): ${session.description}`, async () => {
      const result = await replayA2aSession(session);
      tally.set(session.name, result.matched);
      if (result.failure) throw new Error(`${result.matched}/${session.messages.length} matched\n${result.failure}`);
      expect(result.matched).toBe(session.messages.length);
    });
  }

  it(`${A2A_RECORDED_MESSAGES}/${A2A_RECORDED_MESSAGES} recorded messages match`, async () => {
    // Sessions skipped by a test filter are replayed here, so the count is always over all of them.
    for (const session of sessions) if (!tally.has(session.name)) tally.set(session.name, (await replayA2aSession(session)).matched);
    const matched = [...tally.values()].reduce((a, b) => a + b, 0);
    const short = sessions.filter((s) => tally.get(s.name) !== s.messages.length).map((s) => `${s.name} ${tally.get(s.name)}/${s.messages.length}`);
    expect(short, `matched ${matched}/${A2A_RECORDED_MESSAGES}`).toEqual([]);
    expect(matched).toBe(A2A_RECORDED_MESSAGES);
  });
});
