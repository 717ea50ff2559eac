/**
 * Golden replay: `wiregen serve research-agent --http 0` against the 8 sessions the official
 * A2A Python SDK's research agent recorded (test/fixtures/recordings/a2a_sdk_exchanges.json), each
 * against a fresh process over real HTTP. Every one of the 30 messages the agent wrote (card answers, JSON-RPC
 * answers, SSE frames) must be equal as JSON with every UUID renumbered in order of appearance and every
 * timestamp blanked (test/helpers/a2a-replay.ts). The other 26 messages are the orchestrator's requests: they
 * are built from the recording, so they are checked (sent to the recorded path, renumbered back to the
 * recorded request) but not counted as matches.
 *
 * The A2A-Version header (1.0) goes with every JSON-RPC request but one: a2a_errors' SendMessage (id 2), the
 * request the SDK answered with -32009 "A2A version '0.3' is not supported", which is what a request with no
 * header gets (§3.6.2). `sentWithoutVersion` decides this from the recorded answer.
 */
import { describe, expect, it } from 'vitest';
import { placeholdersInOrder } from '../helpers/a2a-renumber.ts';
import {
  A2A_RECORDED_AGENT_MESSAGES,
  A2A_RECORDED_MESSAGES,
  A2A_RECORDED_REQUESTS,
  A2A_RECORDED_SESSIONS,
  loadA2aSessions,
  replayA2aSession,
  sentWithoutVersion,
  type A2aReplayResult,
  type A2aSession,
} from '../helpers/a2a-replay.ts';

const sessions = loadA2aSessions();
const countFrom = (session: A2aSession, from: 'agent' | 'orchestrator') => session.messages.filter((m) => m.from === from).length;
/** Each session's replay, filled by the per-session tests and read by the summary. */
const replays = new Map<string, A2aReplayResult>();

describe('A2A research agent replays the official SDK recordings (test/fixtures/recordings/)', () => {
  it(`the recording holds ${A2A_RECORDED_SESSIONS} sessions and ${A2A_RECORDED_MESSAGES} messages: ${A2A_RECORDED_AGENT_MESSAGES} from the agent, ${A2A_RECORDED_REQUESTS} requests`, () => {
    expect(sessions).toHaveLength(A2A_RECORDED_SESSIONS);
    expect(sessions.reduce((n, s) => n + s.messages.length, 0)).toBe(A2A_RECORDED_MESSAGES);
    expect(sessions.reduce((n, s) => n + countFrom(s, 'agent'), 0)).toBe(A2A_RECORDED_AGENT_MESSAGES);
    expect(sessions.reduce((n, s) => n + countFrom(s, 'orchestrator'), 0)).toBe(A2A_RECORDED_REQUESTS);
  });

  it('the recording numbers UUIDs in order of first appearance with object keys sorted', () => {
    for (const session of sessions) {
      const order = placeholdersInOrder(session.messages.map((m) => m.json));
      expect(order, session.name).toEqual(order.map((_, i) => i + 1));
    }
    // In insertion order the task's `id` would come before `artifacts`: the numbering says sorted.
    const task = (sessions[0]!.messages[3]!.json['result'] as { task: Record<string, unknown> }).task;
    expect([task['artifacts'], task['contextId'], task['id']].map((v) => JSON.stringify(v).match(/<id-\d+>/)![0])).toEqual([
      '<id-2>',
      '<id-3>',
      '<id-4>',
    ]);
  });

  it('exactly one request goes without A2A-Version: the SendMessage of a2a_errors answered with -32009', () => {
    const without = sessions.flatMap((s) =>
      s.messages.flatMap((m, i) =>
        m.from === 'orchestrator' && sentWithoutVersion(s, i) ? [`${s.name} #${i} ${String(m.json['method'])} id ${String(m.json['id'])}`] : [],
      ),
    );
    expect(without).toEqual(['a2a_errors #2 SendMessage id 2']);
  });

  for (const session of sessions) {
    const [agent, requests] = [countFrom(session, 'agent'), countFrom(session, 'orchestrator')];
    it(`${session.name} (${agent} agent messages to match, ${requests} requests sent): ${session.description}`, async () => {
      const result = await replayA2aSession(session);
      replays.set(session.name, result);
      if (result.failure)
        throw new Error(
          `${result.agentMatched}/${agent} agent messages matched, ${result.requestsMatched}/${requests} requests checked\n${result.failure}`,
        );
      expect([result.agentMatched, result.agentTotal]).toEqual([agent, agent]);
      expect([result.requestsMatched, result.requestsTotal]).toEqual([requests, requests]);
    });
  }

  it(`${A2A_RECORDED_AGENT_MESSAGES}/${A2A_RECORDED_AGENT_MESSAGES} recorded agent messages match (and all ${A2A_RECORDED_REQUESTS} requests check out)`, async () => {
    // Sessions skipped by a test filter are replayed here, so the count is always over all of them.
    for (const session of sessions) if (!replays.has(session.name)) replays.set(session.name, await replayA2aSession(session));
    const results = sessions.map((s) => [s.name, replays.get(s.name)!] as const);
    const matched = results.reduce((n, [, r]) => n + r.agentMatched, 0);
    const checked = results.reduce((n, [, r]) => n + r.requestsMatched, 0);
    const short = results.filter(([, r]) => r.agentMatched !== r.agentTotal).map(([name, r]) => `${name} ${r.agentMatched}/${r.agentTotal}`);
    expect(short, `matched ${matched}/${A2A_RECORDED_AGENT_MESSAGES}`).toEqual([]);
    expect(matched).toBe(A2A_RECORDED_AGENT_MESSAGES);
    expect(checked, 'requests checked').toBe(A2A_RECORDED_REQUESTS);
  });
});
