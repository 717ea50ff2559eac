/**
 * The replay harness itself, against a scripted stand-in server (test/fixtures/scripted-mcp-server.mjs)
 * that plays the recorded server side with its own request ids and reversed key order: every session
 * matches, and each kind of failure (a differing message, a silent or dead process, output after the last
 * message, a bad exit code) is reported naming the session and the message.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './project.ts';
import { loadMcpSessions, MCP_RECORDED_CLIENT_MESSAGES, MCP_RECORDED_SERVER_MESSAGES, sessionNamed } from './recordings.ts';
import { replaySession } from './replay.ts';

const sessions = loadMcpSessions();
const SCRIPTED = join(ROOT, 'test/fixtures/scripted-mcp-server.mjs');
const scripted = (name: string, ...flags: string[]) => ({ command: [process.execPath, SCRIPTED, name, ...flags], lineTimeoutMs: 5_000 });

describe('replay harness against a scripted server', () => {
  it(`matches all ${MCP_RECORDED_SERVER_MESSAGES} recorded server messages, sending the ${MCP_RECORDED_CLIENT_MESSAGES} client ones, when the server plays the recording`, async () => {
    let serverMatched = 0;
    let serverTotal = 0;
    let clientSent = 0;
    for (const session of sessions) {
      const result = await replaySession(session, scripted(session.name));
      expect(result.failure, session.name).toBeUndefined();
      expect(result.exit?.code).toBe(0);
      serverMatched += result.serverMatched;
      serverTotal += result.serverTotal;
      clientSent += result.clientSent;
    }
    expect(serverTotal).toBe(MCP_RECORDED_SERVER_MESSAGES);
    expect(serverMatched).toBe(MCP_RECORDED_SERVER_MESSAGES);
    expect(clientSent).toBe(MCP_RECORDED_CLIENT_MESSAGES);
  });

  it('sends the client reply with the id the server chose (101), not the recorded "s1"', async () => {
    const result = await replaySession(sessionNamed(sessions, 'legacy_elicit_accept'), scripted('legacy_elicit_accept'));
    expect(result.failure).toBeUndefined();
    expect(result.steps[4]!.actual).toMatchObject({ id: 101, method: 'elicitation/create' });
    expect(result.steps[5]!.actual).toMatchObject({ id: 101, result: { action: 'accept' } });
  });

  it('a differing server message fails naming the session, the index and the JSON pointer', async () => {
    const result = await replaySession(sessionNamed(sessions, 'legacy_tour'), scripted('legacy_tour', '--mutate', '6'));
    // #0–#5 went well: 4 client messages sent, 2 server messages matched.
    expect([result.serverMatched, result.clientSent]).toEqual([2, 4]);
    expect(result.failure).toMatch(/^session legacy_tour, message #6 \(server → client, response id "c3"\): server message differs/);
    expect(result.failure).toContain('at /mutated: unexpected member');
    expect(result.failure).toContain('scripted server: got'); // stderr is shown
  });

  it('plays only some messages when asked, keeping the recorded numbers', async () => {
    const prefix = await replaySession(sessionNamed(sessions, 'raw_errors'), { ...scripted('raw_errors'), only: [0, 1, 2] });
    expect(prefix.failure).toBeUndefined();
    expect(prefix.steps.map((s) => s.index)).toEqual([0, 1, 2]);
    expect([prefix.serverMatched, prefix.serverTotal, prefix.clientSent, prefix.total]).toEqual([1, 1, 2, 3]);
    // The scripted server cannot skip, so it answers #5 with #4's reply: the failure names #6.
    const skipping = await replaySession(sessionNamed(sessions, 'legacy_errors'), { ...scripted('legacy_errors'), only: [0, 1, 2, 5, 6] });
    expect(skipping.failure).toMatch(/^session legacy_errors, message #6 \(server → client, response id "c3"\)/);
  });

  it('output after the last recorded message fails', async () => {
    const result = await replaySession(sessionNamed(sessions, 'raw_old_version'), scripted('raw_old_version', '--trailing'));
    expect([result.serverMatched, result.serverTotal, result.clientSent]).toEqual([2, 2, 3]);
    expect(result.failure).toMatch(/after the last message: unexpected stdout: \{"jsonrpc":"2.0","method":"notifications\/message"/);
  });

  it('a non-zero exit code fails', async () => {
    const result = await replaySession(sessionNamed(sessions, 'raw_old_version'), scripted('raw_old_version', '--exit', '3'));
    expect(result.failure).toMatch(/exited with code 3 signal null, expected 0/);
  });

  it('a process that dies fails at once, showing its stderr', async () => {
    const command = [process.execPath, '-e', 'process.stderr.write("no such command: serve\\n"); process.exit(2)'];
    const started = Date.now();
    const result = await replaySession(sessionNamed(sessions, 'legacy_tour'), { command });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect([result.serverMatched, result.clientSent]).toEqual([0, 1]);
    expect(result.failure).toMatch(/^session legacy_tour, message #1 .*stdout ended before this message \(process exited with code 2, signal null\)/);
    expect(result.failure).toContain('no such command: serve');
  });

  it('a silent process times out', async () => {
    const command = [process.execPath, '-e', 'process.stdin.resume()'];
    const result = await replaySession(sessionNamed(sessions, 'legacy_tour'), { command, lineTimeoutMs: 200 });
    expect(result.failure).toMatch(/message #1 .*no line on stdout within 200 ms/);
  });
});
