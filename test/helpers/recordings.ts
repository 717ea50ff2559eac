/**
 * @module test/helpers/recordings — the seed 000 MCP recordings (official Python SDK, mcp 2.3.0) as typed data.
 *
 * Format (test/fixtures/recordings/README.md): a list of sessions `{name, mode?, description, messages}`, each
 * message `{from, to, json | raw, sse?}`; `raw` is a line that is not JSON, sent exactly as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './project.ts';

/** Which end of the stdio pipe wrote a message. */
export type Side = 'client' | 'server';

export interface RecordedMessage {
  readonly from: Side;
  readonly to: Side;
  /** The message as JSON; absent when `raw` is given. */
  readonly json?: Record<string, unknown>;
  /** A line that is not JSON, sent as written. */
  readonly raw?: string;
  readonly sse?: boolean;
}

export interface RecordedSession {
  readonly name: string;
  /** `legacy` (handshake era), `2026-07-28`, `auto` (server/discover first) or `raw` (hand-written lines). */
  readonly mode?: string;
  readonly description: string;
  readonly messages: readonly RecordedMessage[];
}

export const MCP_RECORDINGS = join(ROOT, 'test/fixtures/recordings/mcp_sdk_exchanges.json');

/** The number of messages seed 000 says the 18 sessions hold; the replay must match every one. */
export const MCP_RECORDED_MESSAGES = 160;

export function loadMcpSessions(file: string = MCP_RECORDINGS): RecordedSession[] {
  return JSON.parse(readFileSync(file, 'utf8')) as RecordedSession[];
}

/** The session called `name`; throws naming the known sessions when there is none. */
export function sessionNamed(sessions: readonly RecordedSession[], name: string): RecordedSession {
  const found = sessions.find((s) => s.name === name);
  if (!found) throw new Error(`no recorded session "${name}"; known: ${sessions.map((s) => s.name).join(', ')}`);
  return found;
}

/** The JSON of message `index` of a session; throws when that message is raw or missing. */
export function recordedJson(session: RecordedSession, index: number): Record<string, unknown> {
  const json = session.messages[index]?.json;
  if (!json) throw new Error(`${session.name} message #${index} is not a JSON message`);
  return json;
}
