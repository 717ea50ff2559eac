/**
 * @module test/acts/agent-probes — the ACTS SUT behaviours (generator/acts/suites/acts-specification.md §11.2)
 * checked on the wire, one probe per prefix, on either JSON binding, with plain fetch: what each behaviour must
 * put on the wire as the suites' expectations state it (states, status messages, artifacts, stream order,
 * history, cancel) and the errors the suites expect for a wrong context and an unsupported part (ours: the
 * expected values are the suites', not our agent's output). Each probe throws with the reason when the agent
 * does not behave.
 */
import { randomUUID } from 'node:crypto';

export type Json = Record<string, any>;
export type Binding = 'jsonrpc' | 'http-json';

/** Where an agent serves each binding (from its card's supportedInterfaces). */
export interface Endpoints {
  readonly jsonrpc: string;
  readonly 'http-json': string;
}

/** A failed call: the A2A error as the binding carried it (JSON-RPC code, or HTTP status and google.rpc.Status). */
export class CallError extends Error {
  readonly code: number | undefined;
  readonly status: number;
  readonly body: unknown;
  constructor(code: number | undefined, status: number, body: unknown) {
    super(`call failed: ${status} ${JSON.stringify(body).slice(0, 300)}`);
    this.code = code;
    this.status = status;
    this.body = body;
  }
}

const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const METHODS = { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask', cancel: 'CancelTask' } as const;

/** The card's interface URLs per binding. */
export function endpointsOf(card: Json): Endpoints {
  const find = (binding: string) => card.supportedInterfaces?.find((i: Json) => i.protocolBinding === binding)?.url as string | undefined;
  const jsonrpc = find('JSONRPC');
  const rest = find('HTTP+JSON');
  if (!jsonrpc || !rest) throw new Error('the card lists no JSONRPC or HTTP+JSON interface');
  return { jsonrpc, 'http-json': rest };
}

/** One agent on one binding: the four operations the behaviours need. */
export class Caller {
  readonly binding: Binding;
  readonly url: string;
  constructor(binding: Binding, url: string) {
    this.binding = binding;
    this.url = url;
  }

  async #call(op: keyof typeof METHODS, params: Json): Promise<Response> {
    if (this.binding === 'jsonrpc')
      return fetch(this.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: METHODS[op], params }),
      });
    const base = this.url.replace(/\/$/, '');
    if (op === 'send') return fetch(`${base}/message:send`, { method: 'POST', headers: HEADERS, body: JSON.stringify(params) });
    if (op === 'stream') return fetch(`${base}/message:stream`, { method: 'POST', headers: HEADERS, body: JSON.stringify(params) });
    if (op === 'cancel') return fetch(`${base}/tasks/${params['id']}:cancel`, { method: 'POST', headers: HEADERS, body: '{}' });
    const query = params['historyLength'] === undefined ? '' : `?historyLength=${params['historyLength']}`;
    return fetch(`${base}/tasks/${params['id']}${query}`, { headers: HEADERS });
  }

  async #result(op: keyof typeof METHODS, params: Json): Promise<Json> {
    const res = await this.#call(op, params);
    const body = (await res.json()) as Json;
    if (this.binding === 'jsonrpc') {
      if (body['error']) throw new CallError(body['error'].code, res.status, body['error']);
      return body['result'];
    }
    if (!res.ok) throw new CallError(undefined, res.status, body);
    return body;
  }

  /** SendMessage with a user message of `text` (plus `message` fields and `configuration`). */
  send(text: string | Json[], message: Json = {}, configuration?: Json): Promise<Json> {
    return this.#result('send', { message: userMessage(text, message), ...(configuration ? { configuration } : {}) });
  }
  get(id: string, historyLength?: number): Promise<Json> {
    return this.#result('get', { id, ...(historyLength === undefined ? {} : { historyLength }) });
  }
  cancel(id: string): Promise<Json> {
    return this.#result('cancel', { id });
  }
  /** SendStreamingMessage: every StreamResponse until the server closes the stream. */
  async stream(text: string): Promise<Json[]> {
    const res = await this.#call('stream', { message: userMessage(text) });
    if (!res.ok) throw new CallError(undefined, res.status, await res.text());
    const events = (await res.text())
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as Json);
    return events.map((e) => (this.binding === 'jsonrpc' ? e['result'] : e));
  }
}

function userMessage(text: string | Json[], fields: Json = {}): Json {
  const parts = typeof text === 'string' ? [{ text }] : text;
  return { role: 'ROLE_USER', messageId: randomUUID(), parts, ...fields };
}

function check(ok: unknown, reason: string, seen?: unknown): void {
  if (!ok) throw new Error(seen === undefined ? reason : `${reason}; got ${JSON.stringify(seen).slice(0, 400)}`);
}

const stateOf = (task: Json | undefined): string | undefined => task?.['status']?.['state'];
const partsOf = (task: Json): Json[] => (task['artifacts'] ?? []).flatMap((a: Json) => a['parts'] ?? []);
const TERMINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];

/** A probe: one behaviour (or one error the suites expect) on one caller; throws why it misbehaves. */
export type Probe = (c: Caller, longRunningMs: number) => Promise<void>;

async function sendTask(c: Caller, text: string, message?: Json, configuration?: Json): Promise<Json> {
  const result = await c.send(text, message, configuration);
  check(result['task'], `"${text}" answers a task`, result);
  return result['task'];
}

async function completesWith(c: Caller, prefix: string, match: (part: Json) => boolean, what: string): Promise<void> {
  const task = await sendTask(c, `${prefix} probe`);
  check(stateOf(task) === 'TASK_STATE_COMPLETED', `${prefix}: TASK_STATE_COMPLETED`, task['status']);
  check(partsOf(task).some(match), `${prefix}: an artifact part with ${what}`, task['artifacts']);
}

/** Each §11.2 prefix (and tck-auth-required, SEC-AUTH-005), and what the suites expect of the wire. */
export const PROBES: Record<string, Probe> = {
  // CORE-SEND-001, DM-SERIAL-001
  'tck-complete-task': async (c) => {
    const task = await sendTask(c, 'tck-complete-task hello world');
    check(stateOf(task) === 'TASK_STATE_COMPLETED', 'completed', task['status']);
    check(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(task['status']['timestamp'] ?? ''), 'an ISO 8601 status timestamp', task['status']);
    check(task['status']['message']?.['parts']?.[0]?.['text'], 'a text response message', task['status']);
  },
  // CORE-SEND-003, DM-FMT-002
  'tck-message-response': async (c) => {
    const result = await c.send('tck-message-response hello');
    check(result['message']?.['role'] === 'ROLE_AGENT' && result['task'] === undefined, 'a Message from ROLE_AGENT and no task', result);
  },
  'tck-input-required': async (c) => {
    const task = await sendTask(c, 'tck-input-required probe');
    check(stateOf(task) === 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_INPUT_REQUIRED', task['status']);
    const next = await sendTask(c, 'the input', { taskId: task['id'] });
    check(stateOf(next) === 'TASK_STATE_COMPLETED', 'completed once answered', next['status']);
  },
  // SEC-AUTH-005
  'tck-auth-required': async (c) => {
    const task = await sendTask(c, 'tck-auth-required trigger auth');
    check(stateOf(task) === 'TASK_STATE_AUTH_REQUIRED' && task['status']['message'], 'TASK_STATE_AUTH_REQUIRED with a message', task['status']);
  },
  'tck-reject-task': async (c) => {
    const task = await sendTask(c, 'tck-reject-task probe');
    check(stateOf(task) === 'TASK_STATE_REJECTED' && task['status']['message'], 'TASK_STATE_REJECTED with a message', task['status']);
  },
  // CORE-FAIL-001
  'tck-task-failure': async (c) => {
    const task = await sendTask(c, 'tck-task-failure trigger error');
    check(stateOf(task) === 'TASK_STATE_FAILED' && task['status']['message'], 'TASK_STATE_FAILED with a message', task['status']);
  },
  // DM-ART-001..004 (in A2A 1.0's Part shape: text, raw + mediaType, url, data)
  'tck-artifact-text': (c) => completesWith(c, 'tck-artifact-text', (p) => typeof p['text'] === 'string', 'text'),
  'tck-artifact-file': (c) =>
    completesWith(c, 'tck-artifact-file', (p) => typeof p['raw'] === 'string' && typeof p['mediaType'] === 'string', 'raw bytes and a media type'),
  'tck-artifact-file-url': (c) => completesWith(c, 'tck-artifact-file-url', (p) => typeof p['url'] === 'string', 'a url'),
  'tck-artifact-data': (c) => completesWith(c, 'tck-artifact-data', (p) => typeof p['data'] === 'object' && p['data'] !== null, 'object data'),
  // CORE-EXEC-001/002: returnImmediately, WORKING while polled, then COMPLETED with an artifact
  'tck-long-running': async (c, longRunningMs) => {
    const task = await sendTask(c, 'tck-long-running start process', {}, { returnImmediately: true });
    check(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'].includes(stateOf(task)!), 'submitted or working at first', task['status']);
    await new Promise((r) => setTimeout(r, Math.min(100, longRunningMs / 4)));
    const during = await c.get(task['id']);
    check(stateOf(during) === 'TASK_STATE_WORKING', 'working while it runs', during['status']);
    let after = during;
    for (let i = 0; i < 20 && !TERMINAL.includes(stateOf(after)!); i++) {
      await new Promise((r) => setTimeout(r, longRunningMs / 4));
      after = await c.get(task['id']);
    }
    check(stateOf(after) === 'TASK_STATE_COMPLETED' && partsOf(after).length >= 1, 'completed with an artifact', after);
  },
  // CORE-MULTI-001/005, CORE-HIST-005
  'tck-multi-turn': async (c) => {
    const first = await sendTask(c, 'tck-multi-turn chronological first');
    check(stateOf(first) === 'TASK_STATE_INPUT_REQUIRED', 'input required after the first turn', first['status']);
    const second = await sendTask(c, 'tck-multi-turn chronological second', { taskId: first['id'], contextId: first['contextId'] });
    check(stateOf(second) === 'TASK_STATE_INPUT_REQUIRED', 'input required after the second turn', second['status']);
    const third = await sendTask(c, 'done', { taskId: first['id'] });
    check(stateOf(third) === 'TASK_STATE_COMPLETED' && third['contextId'] === first['contextId'], 'completed on "done", same context', third);
    const history: Json[] = (await c.get(first['id']))['history'] ?? [];
    const users = history.filter((m) => m['role'] === 'ROLE_USER').map((m) => m['parts'][0]['text']);
    check(history.length >= 3 && history[0]?.['parts'][0]['text'].includes('first'), 'history from the first message on', history);
    check(users.join('|') === 'tck-multi-turn chronological first|tck-multi-turn chronological second|done', 'the user turns in order', users);
  },
  // CORE-CANCEL-001
  'tck-cancel': async (c) => {
    const task = await sendTask(c, 'tck-cancel start', {}, { returnImmediately: true });
    check(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'].includes(stateOf(task)!), 'submitted or working', task['status']);
    await new Promise((r) => setTimeout(r, 50));
    check(stateOf(await c.get(task['id'])) === 'TASK_STATE_WORKING', 'still working before the cancel');
    const canceled = await c.cancel(task['id']);
    check(canceled['id'] === task['id'] && stateOf(canceled) === 'TASK_STATE_CANCELED', 'canceled', canceled);
  },
  // STREAM-SSE-001/002, §11.2: status(working) → artifact → status(completed)
  'tck-stream-basic': async (c) => {
    const events = await c.stream('tck-stream-basic generate output');
    const kinds = events.map((e) => (e['statusUpdate'] ? `status:${stateOf(e['statusUpdate'])}` : Object.keys(e)[0]));
    const working = kinds.indexOf('status:TASK_STATE_WORKING');
    const artifact = kinds.indexOf('artifactUpdate');
    check(working >= 0 && artifact > working && kinds.at(-1) === 'status:TASK_STATE_COMPLETED', 'working, artifact, completed (last)', kinds);
  },
  // STREAM-SSE-003: one artifact over several events
  'tck-stream-chunked': async (c) => {
    const events = await c.stream('tck-stream-chunked multi-part');
    const chunks = events.filter((e) => e['artifactUpdate']).map((e) => e['artifactUpdate']);
    check(chunks.length >= 2 && new Set(chunks.map((u) => u['artifact']['artifactId'])).size === 1, 'one artifact in several chunks', chunks);
    check(chunks.slice(1).every((u) => u['append'] === true) && chunks.at(-1)['lastChunk'] === true, 'appended chunks ending with lastChunk', chunks);
    check(stateOf(events.at(-1)?.['statusUpdate']) === 'TASK_STATE_COMPLETED', 'completed last', events.at(-1));
  },
  // CORE-MULTI-006 (a2a.proto Message: task and context must match)
  'context mismatch refused': async (c) => {
    const task = await sendTask(c, 'tck-multi-turn start');
    const refused = await c.send('should fail', { taskId: task['id'], contextId: 'wrong-context-id-12345' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    check(
      refused instanceof CallError && (c.binding === 'jsonrpc' ? refused.code === -32602 : refused.status === 400),
      'InvalidParamsError',
      refused,
    );
  },
  // CORE-CTX-001: a conversation started with a context id the agent did not issue
  'client context refused': async (c) => {
    const refused = await c
      .send('tck-complete-task reject client context id', { contextId: 'client-generated-context-that-should-be-rejected' })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    check(
      refused instanceof CallError && (c.binding === 'jsonrpc' ? refused.code === -32602 : refused.status === 400),
      'InvalidParamsError',
      refused,
    );
  },
  // CORE-SEND-004: a data part when only text/plain is accepted
  'unsupported part refused': async (c) => {
    const refused = await c.send([{ data: { value: 'unsupported' }, metadata: { contentType: 'application/x-unsupported-type-12345' } }]).then(
      () => undefined,
      (err: unknown) => err,
    );
    check(
      refused instanceof CallError && (c.binding === 'jsonrpc' ? refused.code === -32005 : refused.status === 400),
      'ContentTypeNotSupportedError',
      refused,
    );
  },
};
