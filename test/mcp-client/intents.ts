/**
 * @module test/mcp-client/intents — what the client did in each recorded MCP session, as data: the mode, the
 * client capabilities, the calls in order (params, whether progress was asked for, the error the server
 * answered) and what the client's handlers answered to elicitation and sampling. Everything is read off the
 * recording (test/fixtures/recordings/mcp_sdk_exchanges.json); what the SDK client adds on its own (the
 * initialize handshake, notifications/initialized, the tools/list after a structured tool result, the
 * input_required retry, the `_meta` envelope, progress tokens) is not part of an intent: the client under
 * test must produce it.
 *
 * raw_errors and raw_handshake have no intent: they are hand-written lines (a line that is not JSON, a request
 * before initialize, a 2026-07-28 request on a handshake connection) that no well-behaved client sends.
 */
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { ClientMode } from '../../runtime/mcp/client/client.ts';

export interface IntentCall {
  readonly method: string;
  /** Omitted when the recorded request had no params (handshake era) or only `_meta` (2026-07-28). */
  readonly params?: JsonObject;
  /** The call asked for progress (the request carries a progressToken). */
  readonly progress?: boolean;
  /** The JSON-RPC error code the server answered with; the call is expected to throw it. */
  readonly error?: number;
}

export interface ClientIntent {
  readonly session: string;
  readonly mode: ClientMode;
  /** handshake mode: the revision asked for in initialize. */
  readonly protocolVersion?: string;
  readonly capabilities: JsonObject;
  readonly calls: readonly IntentCall[];
  /** What the handlers return, by method (both eras: a server request or an input request). */
  readonly answers?: Readonly<Partial<Record<'elicitation/create' | 'sampling/createMessage', JsonObject>>>;
}

/** The recorded clientInfo (every session). */
export const CLIENT_INFO = { name: 'fixture-client', version: '1.0.0' } as const;

/** The sessions the intents cannot stand for, and why. */
export const HAND_WRITTEN: Readonly<Record<string, string>> = {
  raw_errors: 'hand-written lines: a line that is not JSON, an unsupported version, an unknown method, a request without _meta',
  raw_handshake: 'hand-written lines: a request before initialize, an unknown version, a 2026-07-28 request on a handshake connection',
};

const ELICIT = { elicitation: { form: {}, url: {} } };
const SAMPLING = { sampling: {} };
const ADD = { method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } };
const READ_DOC = { method: 'tools/call', params: { name: 'read_doc', arguments: { uri: 'docs://readme' } } };
const DELETE = { method: 'tools/call', params: { name: 'delete_file', arguments: { path: 'build/' } } };
const SUMMARISE = { method: 'tools/call', params: { name: 'summarise', arguments: { text: 'A tiny project with one test.' } } };
const COUNT = { method: 'tools/call', params: { name: 'count', arguments: { n: 3 } }, progress: true };
const README = { method: 'resources/read', params: { uri: 'docs://readme' } };
const REVIEW = (code: string) => ({ method: 'prompts/get', params: { name: 'review', arguments: { code } } });
const TOUR = [{ method: 'tools/list' }, ADD, { method: 'resources/list' }, README, { method: 'prompts/list' }, REVIEW('x = 1')];
const THREE_WAYS = [
  { method: 'tools/list' },
  READ_DOC,
  { method: 'resources/list' },
  README,
  { method: 'prompts/list' },
  REVIEW('# Demo\nA tiny project.'),
];
const ERRORS: IntentCall[] = [
  { method: 'tools/call', params: { name: 'fail', arguments: { reason: 'disk full' } } },
  { method: 'tools/call', params: { name: 'nope', arguments: {} } },
  { method: 'resources/read', params: { uri: 'docs://missing' }, error: -32602 },
];
const ACCEPT = { 'elicitation/create': { action: 'accept', content: { confirm: true } } };
const DECLINE = { 'elicitation/create': { action: 'decline' } };
const SUMMARY = {
  'sampling/createMessage': {
    role: 'assistant',
    content: { type: 'text', text: 'A tiny demo project.' },
    model: 'scripted-model',
    stopReason: 'endTurn',
  },
};

const legacy = (session: string, calls: readonly IntentCall[], capabilities: JsonObject = {}, answers?: ClientIntent['answers']): ClientIntent => ({
  session,
  mode: 'handshake',
  protocolVersion: '2025-11-25',
  capabilities,
  calls,
  ...(answers ? { answers } : {}),
});
const modern = (session: string, calls: readonly IntentCall[], capabilities: JsonObject = {}, answers?: ClientIntent['answers']): ClientIntent => ({
  session,
  mode: 'stateless',
  capabilities,
  calls,
  ...(answers ? { answers } : {}),
});

/** One intent per recorded session that a client can produce (16 of 18). */
export const INTENTS: readonly ClientIntent[] = [
  legacy('legacy_tour', [{ method: 'ping' }, ...TOUR]),
  modern('modern_tour', TOUR),
  { session: 'auto_tour', mode: 'auto', capabilities: {}, calls: [{ method: 'tools/list' }, ADD] },
  legacy('legacy_three_ways', THREE_WAYS),
  modern('modern_three_ways', THREE_WAYS),
  legacy('legacy_progress', [COUNT]),
  modern('modern_progress', [COUNT]),
  legacy('legacy_errors', ERRORS),
  modern('modern_errors', ERRORS),
  legacy('legacy_elicit_accept', [DELETE], ELICIT, ACCEPT),
  legacy('legacy_elicit_decline', [DELETE], ELICIT, DECLINE),
  modern('modern_elicit_accept', [DELETE], ELICIT, ACCEPT),
  modern('modern_elicit_decline', [DELETE], ELICIT, DECLINE),
  legacy('legacy_sampling', [SUMMARISE], SAMPLING, SUMMARY),
  modern('modern_sampling', [SUMMARISE], SAMPLING, SUMMARY),
  { session: 'raw_old_version', mode: 'handshake', protocolVersion: '2024-11-05', capabilities: {}, calls: [{ method: 'tools/list' }] },
];
