/**
 * @module kit/scenarios/errors — scenario 11: bad input, each error in both bindings with its documented
 * code (§5.4, §9.5, §11.6): task not found, a missing A2A-Version, a v0.3 method name, invalid parameters, an
 * unsupported media type, push notifications not supported, a malformed body. All against the code reviewer,
 * as raw requests, since the generated client never sends most of them.
 */
import { CaptureError, expectStatus, type Scenario, type Session } from '../session.ts';

/** A one-pixel PNG's signature bytes, as a `raw` part: a media type the reviewer does not take. */
const PNG = 'iVBORw0KGgo=';

interface Case {
  readonly title: string;
  readonly note: string;
  /** JSON-RPC: the method and params (or a raw body), the headers' version, the code expected. */
  readonly rpc: { method?: string; params?: unknown; body?: string; version?: string | null; code: number };
  /** HTTP+JSON: verb, path under /rest, body, version, the HTTP status and ErrorInfo reason expected. */
  readonly rest: { verb: string; path: string; body?: unknown; version?: string | null; status: number; reason?: string };
}

function cases(s: Session): Case[] {
  const taskId = s.state.get('review-task');
  if (!taskId) throw new CaptureError('scenario 11 needs the review task of scenario 06');
  const send = (parts: unknown[]) => ({ message: { ...s.message('x'), parts } });
  return [
    {
      title: 'task not found',
      note: "TaskNotFoundError: -32001 / 404 NOT_FOUND, with the task id in the ErrorInfo metadata (the kit's choice).",
      rpc: { method: 'GetTask', params: { id: 'no-such-task' }, code: -32001 },
      rest: { verb: 'GET', path: '/tasks/no-such-task', status: 404, reason: 'TASK_NOT_FOUND' },
    },
    {
      title: 'no A2A-Version header',
      note: 'No version means 0.3 (§3.6.2), which this 1.0 agent does not serve: VersionNotSupportedError, -32009 / 400 FAILED_PRECONDITION.',
      rpc: { method: 'GetTask', params: { id: taskId }, version: null, code: -32009 },
      rest: { verb: 'GET', path: `/tasks/${taskId}`, version: null, status: 400, reason: 'VERSION_NOT_SUPPORTED' },
    },
    {
      title: 'a v0.3 method name',
      note: 'v0.3 names 1.0 does not have: message/send over JSON-RPC, GET /v1/card (the extended card) over HTTP+JSON: -32601 / 404. (v0.3\'s POST /v1/message:send is no test: in 1.0 it is SendMessage for the tenant "v1".)',
      rpc: {
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'v03-message', role: 'user', parts: [{ kind: 'text', text: 'What do you review?' }] } },
        code: -32601,
      },
      rest: { verb: 'GET', path: '/v1/card', status: 404 },
    },
    {
      title: 'invalid parameters',
      note: 'A message with no parts: -32602 / 400 INVALID_ARGUMENT, with a BadRequest naming the field.',
      rpc: { method: 'SendMessage', params: send([]), code: -32602 },
      rest: { verb: 'POST', path: '/message:send', body: send([]), status: 400, reason: 'INVALID_PARAMS' },
    },
    {
      title: 'an unsupported media type',
      note: "image/png is not in the reviewer's defaultInputModes: ContentTypeNotSupportedError, -32005 / 400 (the kit checks input modes).",
      rpc: { method: 'SendMessage', params: send([{ raw: PNG, mediaType: 'image/png', filename: 'screenshot.png' }]), code: -32005 },
      rest: {
        verb: 'POST',
        path: '/message:send',
        body: send([{ raw: PNG, mediaType: 'image/png', filename: 'screenshot.png' }]),
        status: 400,
        reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      },
    },
    {
      title: 'push notifications not supported',
      note: "The reviewer's card says pushNotifications: false: PushNotificationNotSupportedError, -32003 / 400 FAILED_PRECONDITION.",
      rpc: { method: 'CreateTaskPushNotificationConfig', params: { taskId, url: 'http://127.0.0.1:41244/webhooks/code-reviewer' }, code: -32003 },
      rest: {
        verb: 'POST',
        path: `/tasks/${taskId}/pushNotificationConfigs`,
        body: { url: 'http://127.0.0.1:41244/webhooks/code-reviewer' },
        status: 400,
        reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
      },
    },
    {
      title: 'a malformed body',
      note: 'The body is cut off mid-object: -32700 Parse error / 400 INVALID_ARGUMENT.',
      rpc: { body: '{"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {"message": ', code: -32700 },
      rest: { verb: 'POST', path: '/message:send', body: '{"message": ', status: 400 },
    },
  ];
}

const versionHeader = (version: string | null | undefined): Record<string, string> => (version === null ? {} : { 'a2a-version': version ?? '1.0' });

export const errors: Scenario = {
  base: '11-errors',
  summary:
    'task not found, a missing version header, a v0.3 method name, invalid parameters, an unsupported media type, push not supported, a malformed body; JSON-RPC first, then HTTP+JSON',
  async run(s) {
    const all = cases(s);
    for (const [i, c] of all.entries()) {
      s.rec.step(`JSON-RPC: ${c.title}`, c.note);
      const body = c.rpc.body ?? { jsonrpc: '2.0', id: i + 1, method: c.rpc.method, params: c.rpc.params };
      const answer = await s.raw('code-reviewer', '/jsonrpc', {
        headers: { ...versionHeader(c.rpc.version), 'content-type': 'application/json' },
        body,
      });
      expectStatus(answer, 200, c.rpc.code);
    }
    for (const [i, c] of all.entries()) {
      s.rec.step(
        `HTTP+JSON: ${c.title}`,
        ...(i === 0
          ? ["HTTP+JSON errors are google.rpc.Status, sent as application/a2a+json (the kit's choice); the codes are in the notes above."]
          : []),
      );
      const headers = { ...versionHeader(c.rest.version), ...(c.rest.body === undefined ? {} : { 'content-type': 'application/a2a+json' }) };
      const answer = await s.raw('code-reviewer', `/rest${c.rest.path}`, {
        method: c.rest.verb,
        headers,
        ...(c.rest.body === undefined ? {} : { body: c.rest.body }),
      });
      expectStatus(answer, c.rest.status);
      const reason = answer.json?.error?.details?.[0]?.reason;
      if (c.rest.reason !== undefined && reason !== c.rest.reason)
        throw new CaptureError(`${c.title}: expected reason ${c.rest.reason}, got ${reason}`);
    }
  },
};
