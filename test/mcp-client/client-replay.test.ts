/**
 * Client-side replay: a scripted driver of our McpClient, given each recorded MCP session's
 * intent (intents.ts: mode, capabilities, calls, handler answers), runs against the real recorded server
 * (`wiregen serve recorded-server --stdio`) and must send the recorded client messages, compared as JSON
 * after renumbering ids and progress tokens in order of appearance.
 *
 * 16 of the 18 sessions are driven. raw_errors and raw_handshake are excluded: they are hand-written lines
 * (a line that is not JSON, a request before initialize, a 2026-07-28 request on a handshake connection…)
 * that no client produces by calling methods. raw_old_version (a client asking for 2024-11-05) is driven.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { McpClientError } from '../../runtime/mcp/client/client.ts';
import { compareClientMessages, driveIntent, type DriveResult } from '../helpers/client-replay.ts';
import { loadMcpSessions, sessionNamed } from '../helpers/recordings.ts';
import { HAND_WRITTEN, INTENTS } from './intents.ts';

const sessions = loadMcpSessions();
const tally = new Map<string, { matched: number; total: number }>();

describe('the intents', () => {
  it('cover every recorded session except the hand-written ones', () => {
    const driven = INTENTS.map((i) => i.session).sort();
    const expected = sessions
      .map((s) => s.name)
      .filter((n) => !(n in HAND_WRITTEN))
      .sort();
    expect(driven).toEqual(expected);
    expect(Object.keys(HAND_WRITTEN).sort()).toEqual(['raw_errors', 'raw_handshake']);
  });

  it('ask for progress exactly where the recording carries a progressToken', () => {
    for (const intent of INTENTS) {
      const recorded = sessionNamed(sessions, intent.session).messages.filter(
        (m) => m.from === 'client' && m.json && 'id' in m.json && 'method' in m.json,
      );
      const withToken = recorded.filter((m) => JSON.stringify(m.json).includes('"progressToken"')).length;
      expect(intent.calls.filter((c) => c.progress).length, intent.session).toBe(withToken);
    }
  });
});

describe.each(INTENTS.map((intent) => [intent.session, intent] as const))('client replay of %s (stdio)', (name, intent) => {
  let run: DriveResult;

  it('sends the recorded client messages', async () => {
    run = await driveIntent(intent, 'stdio');
    const comparison = compareClientMessages(sessionNamed(sessions, name), run.frames);
    tally.set(name, { matched: comparison.matched, total: comparison.total });
    expect(run.connectError, `connect() failed; stderr:\n${run.stderr}`).toBeUndefined();
    expect(comparison.mismatches, comparison.mismatches.join('\n')).toEqual([]);
    expect(comparison.matched).toBe(comparison.total);
  });

  it('gets the results and errors the recording shows, and the server exits 0', () => {
    expect(run, 'the first test of this session did not run').toBeDefined();
    expect(run.outcomes.length).toBe(intent.calls.length);
    for (const outcome of run.outcomes) {
      if (outcome.call.error === undefined) {
        expect(
          outcome.error,
          `${outcome.call.method} ${JSON.stringify(outcome.call.params)}: ${String(outcome.error)}; stderr:\n${run.stderr}`,
        ).toBeUndefined();
        continue;
      }
      expect(outcome.error).toBeInstanceOf(McpClientError);
      expect((outcome.error as McpClientError).code).toBe(outcome.call.error);
    }
    expect(run.exitCode).toBe(0);
  });
});

describe('client replay over an in-memory pair', () => {
  it('sends the same frames as over stdio for every session', async () => {
    for (const intent of INTENTS) {
      const memory = await driveIntent(intent, 'memory');
      const comparison = compareClientMessages(sessionNamed(sessions, intent.session), memory.frames);
      const stdio = tally.get(intent.session);
      if (stdio) expect(comparison.matched, intent.session).toBe(stdio.matched);
    }
  });
});

afterAll(() => {
  const matched = [...tally.values()].reduce((n, t) => n + t.matched, 0);
  const total = [...tally.values()].reduce((n, t) => n + t.total, 0);
  const lines = [...tally].map(([name, t]) => `  ${t.matched === t.total ? '✓' : '✗'} ${name}: ${t.matched}/${t.total}`);
  console.log(`client replay: ${matched}/${total} recorded client messages matched (${tally.size} sessions)\n${lines.join('\n')}`);
});
