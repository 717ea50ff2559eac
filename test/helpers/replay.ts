/**
 * @module test/helpers/replay — plays one recorded session against a fresh server process and compares.
 *
 * Client messages are written to stdin (json → JSON.stringify, raw → as written), server messages are read
 * from stdout one line each and compared as JSON after both streams are renumbered (renumber.ts). A client
 * reply to a server request is sent with the id the server actually used, not the recorded "s1". After the
 * last message stdin is closed; the process must exit 0 without writing anything more.
 *
 * A test of one finding can play only the messages that show it (`only`).
 *
 * What is counted: the server's messages, the only ones our side writes, each matched against the recording
 * (`serverMatched` of `serverTotal`). The client's messages are the recording's own, written as recorded
 * (only a reply's id is changed to the one the server used), so they are counted apart (`clientSent`) as a
 * check that the whole session was played, never as matches.
 *
 * Never throws for a mismatch: the result carries `failure` (naming the session, the message index and
 * showing stderr) and the counts up to there, so a summary can count across sessions.
 */
import { clip, describeDifference, firstDifference } from './json-diff.ts';
import type { RecordedMessage, RecordedSession } from './recordings.ts';
import { createRenumbering } from './renumber.ts';
import { EXIT_TIMEOUT_MS, LINE_TIMEOUT_MS, startServer, type Exit, type StartOptions, type StdioServer } from './stdio-server.ts';

export interface ReplayOptions extends StartOptions {
  /** Wait for each expected server line. Default: LINE_TIMEOUT_MS (10 s). */
  readonly lineTimeoutMs?: number;
  /** Wait for the exit once stdin is closed. Default: EXIT_TIMEOUT_MS. */
  readonly exitTimeoutMs?: number;
  /**
   * Compare each server line with the recording. Default: true. With false the session is only played
   * (each line must still be JSON, and the end is still checked) and the caller asserts on `steps`.
   */
  readonly compare?: boolean;
  /** Play only these messages of the session, in this order; steps and failures keep the recorded numbers. */
  readonly only?: readonly number[];
}

/** What happened at one recorded message: what was sent (client) or what arrived (server), as JSON. */
export interface ReplayStep {
  readonly index: number;
  readonly recorded: RecordedMessage;
  /** The message actually sent or received; undefined for a raw line or a server line that never came. */
  readonly actual?: unknown;
}

export interface ReplayResult {
  readonly session: string;
  /** Messages played (client and server). */
  readonly total: number;
  /** Server messages among them: what our server must write. */
  readonly serverTotal: number;
  /** Server messages that arrived and matched the recording (with `compare: false`: that arrived as JSON), until the first failure. */
  readonly serverMatched: number;
  /** Client messages written to the server (as recorded), until the first failure. */
  readonly clientSent: number;
  readonly steps: readonly ReplayStep[];
  readonly exit?: Exit;
  /** Why the session failed; undefined when every message matched and the process exited cleanly. */
  readonly failure?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRequest = (m: unknown): m is Record<string, unknown> => isObject(m) && typeof m['method'] === 'string' && 'id' in m;
const isResponse = (m: unknown): m is Record<string, unknown> => isObject(m) && !('method' in m) && 'id' in m;

/** Replays `session` against a new process; see the module comment. */
export async function replaySession(session: RecordedSession, options: ReplayOptions = {}): Promise<ReplayResult> {
  const server = startServer(options);
  const recordedIds = createRenumbering();
  const actualIds = createRenumbering();
  /** Recorded server-request id (JSON text) → the id the server really used. */
  const serverIds = new Map<string, unknown>();
  const steps: ReplayStep[] = [];
  const indices = options.only ?? session.messages.map((_, i) => i);
  let serverMatched = 0;
  let clientSent = 0;
  const done = (failure?: string, exit?: Exit): ReplayResult => ({
    session: session.name,
    total: indices.length,
    serverTotal: indices.filter((i) => session.messages[i]?.from === 'server').length,
    serverMatched,
    clientSent,
    steps,
    ...(exit ? { exit } : {}),
    ...(failure ? { failure } : {}),
  });
  const fail = (index: number | 'end', why: string, extra = '') => {
    const where = index === 'end' ? 'after the last message' : `message #${index} (${describeDirection(session.messages[index]!)})`;
    return done(`session ${session.name}, ${where}: ${why}${extra}\n${stderrBlock(server)}`);
  };

  try {
    for (const index of indices) {
      const recorded = session.messages[index];
      if (!recorded) return done(`session ${session.name} has no message #${index}`);
      if (recorded.from === 'client') {
        if (recorded.raw !== undefined) {
          server.send(recorded.raw);
          steps.push({ index, recorded });
        } else {
          const message = structuredClone(recorded.json!);
          if (isResponse(message)) {
            const key = JSON.stringify(message['id']);
            if (!serverIds.has(key)) return fail(index, `the recording answers server request ${key}, which the server never sent`);
            message['id'] = serverIds.get(key);
          }
          recordedIds.apply('client', recorded.json);
          actualIds.apply('client', message);
          server.sendJson(message);
          steps.push({ index, recorded, actual: message });
        }
        clientSent++;
        continue;
      }

      const expected = recorded.json!;
      const got = await server.nextLine(options.lineTimeoutMs);
      if (got.kind !== 'line') {
        steps.push({ index, recorded });
        let why = `no line on stdout within ${options.lineTimeoutMs ?? LINE_TIMEOUT_MS} ms`;
        if (got.kind === 'eof') {
          const exit = await server.close(2_000);
          why = `stdout ended before this message (process exited with code ${exit.code}, signal ${exit.signal})`;
        }
        return fail(index, why, `\nexpected: ${clip(JSON.stringify(expected), 2000)}`);
      }
      let actual: unknown;
      try {
        actual = JSON.parse(got.line);
      } catch (e) {
        steps.push({ index, recorded });
        return fail(index, `stdout line is not JSON (${(e as Error).message}): ${clip(JSON.stringify(got.line), 500)}`);
      }
      steps.push({ index, recorded, actual });
      if (isRequest(actual) && isRequest(expected)) serverIds.set(JSON.stringify(expected['id']), actual['id']);
      const want = recordedIds.apply('server', expected);
      const have = actualIds.apply('server', actual);
      const diff = options.compare === false ? undefined : firstDifference(want, have);
      if (diff) {
        return fail(
          index,
          `server message differs (after renumbering) ${describeDifference(diff)}`,
          `\nexpected: ${clip(JSON.stringify(want), 2000)}\nactual:   ${clip(JSON.stringify(have), 2000)}`,
        );
      }
      serverMatched++;
    }

    const exit = await server.close(options.exitTimeoutMs ?? EXIT_TIMEOUT_MS);
    const problems: string[] = [];
    if (exit.rest.length > 0) problems.push(`unexpected stdout: ${exit.rest.map((l) => clip(l, 500)).join('\n  ')}`);
    if (exit.timedOut) problems.push(`did not exit within ${options.exitTimeoutMs ?? EXIT_TIMEOUT_MS} ms of stdin closing (killed)`);
    else if (exit.code !== 0) problems.push(`exited with code ${exit.code} signal ${exit.signal}, expected 0`);
    if (problems.length > 0) return { ...fail('end', problems.join('; ')), exit };
    return done(undefined, exit);
  } finally {
    server.kill();
  }
}

function describeDirection(m: RecordedMessage): string {
  const json = m.json;
  const what =
    m.raw !== undefined
      ? 'raw line'
      : typeof json?.['method'] === 'string'
        ? `${'id' in json ? 'request' : 'notification'} ${json['method']}${'id' in json ? ` id ${JSON.stringify(json['id'])}` : ''}`
        : `response id ${JSON.stringify(json?.['id'])}`;
  return `${m.from} → ${m.to}, ${what}`;
}

function stderrBlock(server: StdioServer): string {
  const text = server.stderr().trim();
  return text ? `stderr of \`${server.command.slice(1).join(' ')}\` (tail):\n${clip(text.slice(-4000), 4000)}` : 'stderr: (empty)';
}
