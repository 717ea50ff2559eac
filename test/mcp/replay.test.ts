/**
 * Golden replay: our MCP stdio server (`wiregen serve recorded-server --stdio`) against the 18 sessions the
 * official MCP Python SDK recorded (test/fixtures/recordings/mcp_sdk_exchanges.json). Each session
 * runs against a fresh process; every server line must equal the recorded one as JSON, with request ids and
 * progress tokens renumbered in order of appearance (test/helpers/replay.ts). What counts is the 78 server
 * messages, the ones our server writes; the 82 client messages are the recording's own, sent as recorded, and
 * are only checked to have all been sent. Then one test per finding of the recordings ("What the recordings
 * showed"), each naming the session and messages that show it.
 */
import { describe, expect, it } from 'vitest';
import {
  loadMcpSessions,
  MCP_RECORDED_CLIENT_MESSAGES,
  MCP_RECORDED_MESSAGES,
  MCP_RECORDED_SERVER_MESSAGES,
  recordedJson,
  sessionNamed,
  type RecordedSession,
} from '../helpers/recordings.ts';
import { replaySession, type ReplayResult } from '../helpers/replay.ts';

const sessions = loadMcpSessions();
const byName = (name: string) => sessionNamed(sessions, name);
const countFrom = (session: RecordedSession, side: 'client' | 'server') => session.messages.filter((m) => m.from === side).length;

/** Each session's full replay (compared), made once: by its own test, or else by the first test that needs it. */
const fullReplays = new Map<string, Promise<ReplayResult>>();
function fullReplay(session: RecordedSession): Promise<ReplayResult> {
  if (!fullReplays.has(session.name)) fullReplays.set(session.name, replaySession(session));
  return fullReplays.get(session.name)!;
}

/** Replies are read loosely: the assertions say what shape they must have. */
type Json = Record<string, any>;
const rec = (session: RecordedSession, index: number) => recordedJson(session, index) as Json;

/**
 * Plays only messages `indices` of a session, without comparing, so a finding's test can assert just the
 * finding. `at(i)` is what arrived for recorded message i (or throws the replay's failure if nothing did);
 * `end()` throws any failure left, such as output after the last message or a bad exit code.
 */
async function play(session: RecordedSession, indices: readonly number[]): Promise<Played> {
  return played(await replaySession(session, { compare: false, only: indices }));
}

interface Played {
  at(index: number): Json;
  end(): void;
}

/** `at` and `end` (see play) over a replay already made. */
function played(result: ReplayResult): Played {
  const fail = () => {
    if (result.failure) throw new Error(result.failure);
  };
  return {
    at(index) {
      const actual = result.steps.find((step) => step.index === index)?.actual;
      if (actual === undefined) fail();
      return actual as Json;
    },
    end: fail,
  };
}

describe('MCP stdio server replays the official SDK recordings (test/fixtures/recordings/)', () => {
  it(`the recording holds 18 sessions and ${MCP_RECORDED_MESSAGES} messages: ${MCP_RECORDED_SERVER_MESSAGES} from the server, ${MCP_RECORDED_CLIENT_MESSAGES} from the client`, () => {
    expect(sessions).toHaveLength(18);
    expect(sessions.reduce((n, s) => n + s.messages.length, 0)).toBe(MCP_RECORDED_MESSAGES);
    expect(sessions.reduce((n, s) => n + countFrom(s, 'server'), 0)).toBe(MCP_RECORDED_SERVER_MESSAGES);
    expect(sessions.reduce((n, s) => n + countFrom(s, 'client'), 0)).toBe(MCP_RECORDED_CLIENT_MESSAGES);
  });

  for (const session of sessions) {
    const [server, client] = [countFrom(session, 'server'), countFrom(session, 'client')];
    it(`${session.name} (${session.mode ?? 'no mode'}, ${server} server messages to match, ${client} client messages sent): ${session.description}`, async () => {
      const result = await fullReplay(session);
      if (result.failure) throw new Error(result.failure);
      expect(result.serverTotal).toBe(server);
      expect(result.serverMatched).toBe(server);
      expect(result.clientSent).toBe(client);
    });
  }

  it(`${MCP_RECORDED_SERVER_MESSAGES}/${MCP_RECORDED_SERVER_MESSAGES} recorded server messages match (and all ${MCP_RECORDED_CLIENT_MESSAGES} client messages were sent)`, async () => {
    // Sessions skipped by a test filter are replayed here, so the count is always over all of them.
    const results = await Promise.all(sessions.map(fullReplay));
    const matched = results.reduce((n, r) => n + r.serverMatched, 0);
    const sent = results.reduce((n, r) => n + r.clientSent, 0);
    const short = results.filter((r) => r.serverMatched !== r.serverTotal).map((r) => `${r.session} ${r.serverMatched}/${r.serverTotal}`);
    expect(`${matched}/${MCP_RECORDED_SERVER_MESSAGES}`, `short: ${short.join(', ')}`).toBe(
      `${MCP_RECORDED_SERVER_MESSAGES}/${MCP_RECORDED_SERVER_MESSAGES}`,
    );
    expect(sent, 'client messages sent').toBe(MCP_RECORDED_CLIENT_MESSAGES);
  });
});

describe('what the recordings showed (test/fixtures/recordings/), on our server', () => {
  it('a line that is not JSON gets no reply (raw_errors #0 → #2 answers c1)', async () => {
    const session = byName('raw_errors');
    expect(session.messages[0]!.raw).toBe('{not json');
    expect(rec(session, 2)['id']).toBe('c1'); // the SDK's first line out answers c1, not the raw line

    const { at, end } = await play(session, [0, 1, 2]);
    expect(at(2), 'the first reply must answer c1, not the line that is not JSON').toMatchObject({ id: 'c1' });
    expect(at(2)['error']?.code).not.toBe(-32700);
    end(); // and nothing else was written
  });

  it('a 2026-07-28 request on a handshake connection gets -32600 (raw_handshake #5 → #6)', async () => {
    const session = byName('raw_handshake');
    const discover = rec(session, 5);
    expect(discover['params']._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(rec(session, 6)).toMatchObject({ id: 'c3', error: { code: -32600 } });

    const { at, end } = await play(session, [0, 1, 2, 3, 4, 5, 6]);
    expect(at(3), 'initialize (#2) opens a handshake connection').toMatchObject({ id: 'c2', result: { protocolVersion: '2025-11-25' } });
    expect(at(6)).toMatchObject({ id: 'c3', error: { code: -32600 } });
    expect(at(6)).not.toHaveProperty('result');
    end();
  });

  it('after a tool result with structuredContent the client lists tools (legacy_elicit_accept #6 → #7, modern_sampling #3 → #4)', async () => {
    // The client behaviour, on the recording: in every client-driven session, a tools/call result with
    // structuredContent is followed by a tools/list, unless the session listed the tools before.
    const seen: string[] = [];
    for (const session of sessions.filter((s) => s.mode !== 'raw')) {
      const calls = new Set<unknown>();
      let listed = false;
      session.messages.forEach((m, i) => {
        const json = m.json ?? {};
        if (m.from === 'client' && json['method'] === 'tools/list') listed = true;
        if (m.from === 'client' && json['method'] === 'tools/call') calls.add(json['id']);
        const result = json['result'] as Json | undefined;
        if (m.from !== 'server' || !calls.has(json['id']) || !result || !('structuredContent' in result) || listed) return;
        const next = session.messages.slice(i + 1).find((n) => n.from === 'client' && n.json && 'id' in n.json);
        expect(next?.json?.['method'], `${session.name} #${i}`).toBe('tools/list');
        seen.push(`${session.name} #${i}`);
      });
    }
    expect(seen).toContain('legacy_elicit_accept #6');
    expect(seen).toContain('modern_sampling #3');

    // Our server answers that tools/list with the recorded tools (read off the sessions' full replays).
    for (const [name, call, list] of [
      ['legacy_elicit_accept', 6, 8],
      ['modern_sampling', 3, 5],
    ] as const) {
      const session = byName(name);
      const { at, end } = played(await fullReplay(session));
      expect(at(call)['result']?.structuredContent, `${name} #${call}`).toBeDefined();
      expect(at(list)['result']?.tools, `${name} #${list}`).toEqual(rec(session, list)['result'].tools);
      end();
    }
  });

  it('an unknown tool is a result with isError: true (legacy_errors #5 → #6, modern_errors #2 → #3)', async () => {
    for (const [name, indices, reply] of [
      ['legacy_errors', [0, 1, 2, 5, 6], 6],
      ['modern_errors', [2, 3], 3],
    ] as const) {
      const session = byName(name);
      expect(rec(session, reply - 1)['params']).toMatchObject({ name: 'nope' });
      expect(rec(session, reply)).toMatchObject({ result: { isError: true } });

      const { at, end } = await play(session, indices);
      expect(at(reply), name).not.toHaveProperty('error');
      expect(at(reply), name).toMatchObject({ result: { isError: true, content: [{ type: 'text', text: 'Unknown tool: nope' }] } });
      end();
    }
  });

  it('server/discover advertises listChanged: true while initialize reports false (auto_tour #1, legacy_tour #1)', async () => {
    const caps = (listChanged: boolean) => ({
      tools: { listChanged },
      prompts: { listChanged },
      resources: { listChanged },
    });
    expect(rec(byName('auto_tour'), 1)).toMatchObject({ result: { capabilities: caps(true) } });
    expect(rec(byName('legacy_tour'), 1)).toMatchObject({ result: { capabilities: caps(false) } });

    const discover = await play(byName('auto_tour'), [0, 1]);
    expect(discover.at(1), 'server/discover').toMatchObject({ result: { capabilities: caps(true) } });
    discover.end();
    const initialize = await play(byName('legacy_tour'), [0, 1]);
    expect(initialize.at(1), 'initialize').toMatchObject({ result: { capabilities: caps(false) } });
    initialize.end();
  });
});
