/**
 * @module test/helpers/recordings — the official SDK MCP recordings (the Python SDK, mcp 2.3.0) as typed data,
 * and what each recorded message is for a validator: the revision its session speaks and, for a result, the
 * method of the request it answers. Read by the replays, by test/generated/recordings.test.ts (the generated
 * validators accept every message) and by the validation benchmark's corpus (bench/validation/corpus.ts).
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

/** The number of messages the 18 recorded sessions hold (test/fixtures/recordings/README.md). */
export const MCP_RECORDED_MESSAGES = 160;
/** Of those, the ones the server wrote: what a replay against our server compares. */
export const MCP_RECORDED_SERVER_MESSAGES = 78;
/** And the ones the client wrote (one of them a raw line): what a replay sends as recorded. */
export const MCP_RECORDED_CLIENT_MESSAGES = 82;

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

/** The revision a session speaks: the one its initialize result agreed, else 2026-07-28. */
export function revisionOf(session: RecordedSession): string {
  for (const m of session.messages) {
    const v = (m.json?.['result'] as { protocolVersion?: string } | undefined)?.protocolVersion;
    if (typeof v === 'string') return v;
  }
  return '2026-07-28';
}

/** A generated MCP package (generated/mcp-<revision>/index.ts) as far as validating recorded messages goes. */
export interface McpPackage {
  lookup(method: string): { message?: Validator; result?: Validator } | undefined;
  readonly validators: Readonly<Record<string, Validator>>;
}
export type Validator = ((data: unknown) => boolean) & { errors?: unknown };

/** What validates one recorded JSON message, in the package of its session's revision. */
export interface RecordedCheck {
  readonly index: number;
  readonly message: RecordedMessage;
  /** A client line of a `raw` session: written by hand, deliberately broken, so not one to validate. */
  readonly handWritten: boolean;
  /** `message` for a request or notification, `result`, `error`. */
  readonly kind: 'message' | 'result' | 'error';
  /**
   * The request's or notification's method; for a result, the method of the request it answers (the
   * request of the same id sent the other way); undefined for an error, or a result answering no request.
   */
  readonly method: string | undefined;
  /** What is validated: the whole message, or for a result the `result` member alone. */
  readonly data: unknown;
  /**
   * The validator's export name in the package (a key of `validators`): the method's message validator, the
   * result validator of the method answered (InputRequiredResult for an `input_required` result), or the
   * JSON-RPC error response; undefined when the package has none.
   */
  readonly def: string | undefined;
}

/** The check of every JSON request, notification, result and error of `session`, in order (raw lines have none). */
export function recordedChecks(session: RecordedSession, pkg: McpPackage): RecordedCheck[] {
  const names = new Map<unknown, string>(Object.entries(pkg.validators).map(([name, v]) => [v, name]));
  const errorDef = pkg.validators['JSONRPCErrorResponse'] ? 'JSONRPCErrorResponse' : 'JSONRPCError';
  /** `<side>:<id as JSON>` of each request → its method. */
  const pending = new Map<string, string>();
  const checks: RecordedCheck[] = [];
  session.messages.forEach((message, index) => {
    const json = message.json;
    if (!json) return;
    const handWritten = session.mode === 'raw' && message.from === 'client';
    const base = { index, message, handWritten };
    if (typeof json['method'] === 'string') {
      const method = json['method'];
      if ('id' in json) pending.set(`${message.from}:${JSON.stringify(json['id'])}`, method);
      const v = pkg.lookup(method)?.message;
      checks.push({ ...base, kind: 'message', method, data: json, def: v && names.get(v) });
    } else if ('result' in json) {
      const method = pending.get(`${message.to}:${JSON.stringify(json['id'])}`);
      const result = json['result'] as { resultType?: unknown };
      const v = result.resultType === 'input_required' ? pkg.validators['InputRequiredResult'] : method ? pkg.lookup(method)?.result : undefined;
      checks.push({ ...base, kind: 'result', method, data: result, def: v && names.get(v) });
    } else if ('error' in json) {
      checks.push({ ...base, kind: 'error', method: undefined, data: json, def: pkg.validators[errorDef] ? errorDef : undefined });
    }
  });
  return checks;
}
