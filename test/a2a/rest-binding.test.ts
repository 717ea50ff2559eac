/**
 * The HTTP+JSON binding (§11): the proto's google.api.http routes under the card's HTTP+JSON interface path
 * (`http://127.0.0.1/rest` → `/rest`), with and without a tenant prefix; SSE of bare StreamResponse objects;
 * errors as google.rpc.Status with the HTTP status of §5.4 and the behaviour's content type; 405 and 404;
 * the version from the header or (kit only) the `A2A-Version` query parameter.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KIT_BEHAVIOUR, SDK_BEHAVIOUR, type A2aBehaviour, type AgentExecutor } from '../../runtime/a2a/types.ts';
import { agentPool, gate, testCard, userMessage, type Json } from '../helpers/a2a-server.ts';
import { open, type Reply } from '../helpers/http-client.ts';

const pool = agentPool();
afterEach(() => pool.closeAll());
const behaviours: [string, A2aBehaviour][] = [
  ['SDK', SDK_BEHAVIOUR],
  ['kit', KIT_BEHAVIOUR],
];
/** Where the behaviours differ on this binding (kit/README.md): content type, ErrorInfo metadata, version by query. */
const differences = {
  SDK: { contentType: 'application/json', context: false, versionQuery: false },
  kit: { contentType: 'application/a2a+json', context: true, versionQuery: true },
} as const;

/** "ask" waits for input (and completes once answered); "slow" waits for `g`; anything else completes. */
function scripted(g = gate()): AgentExecutor {
  return {
    async execute(ctx) {
      const task = ctx.task ? ctx.currentTask() : await ctx.startTask();
      await task.working();
      if (!ctx.task && ctx.text === 'ask') return task.inputRequired(task.agentMessage('which?'));
      if (ctx.text === 'slow') await g.promise;
      await task.artifact({ name: 'out', parts: [{ text: 'result' }] });
      await task.complete();
    },
  };
}
const start = (behaviour: A2aBehaviour = SDK_BEHAVIOUR, g?: ReturnType<typeof gate>) =>
  pool.start({
    executor: scripted(g),
    behaviour,
    card: testCard({ streaming: true, pushNotifications: true }),
    push: { allowedHosts: ['127.0.0.1'] },
  });
type Agent = Awaited<ReturnType<typeof start>>;
const json = (r: Reply) => r.json as Json;
const send = async (a: Agent, text: string, prefix = '/rest', configuration?: Json) =>
  json(await a.rest('POST', `${prefix}/message:send`, userMessage(text, {}, configuration))).task as Json;
/** The google.rpc.Status body of an A2A error. */
const status = (code: number, grpc: string, message: string, reason: string, metadata: Json = {}) => ({
  error: {
    code,
    status: grpc,
    message,
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org', metadata, reason }],
  },
});

describe.each(behaviours)('HTTP+JSON routes (%s behaviour)', (name, behaviour) => {
  const wants = differences[name as keyof typeof differences];
  it("POST /rest/message:send answers the SendMessageResponse with the behaviour's content type", async () => {
    const a = await start(behaviour);
    const reply = await a.rest('POST', '/rest/message:send', userMessage('work'));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(wants.contentType);
    expect(json(reply).task).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'result' }] }] });
  });

  it('GET /rest/tasks/{id}?historyLength=1, GET /rest/tasks?pageSize=1, POST /rest/tasks/{id}:cancel', async () => {
    const a = await start(behaviour);
    const done = await send(a, 'work');
    const waiting = await send(a, 'ask');
    expect(json(await a.rest('GET', `/rest/tasks/${done.id}?historyLength=1`)).history).toHaveLength(1);
    expect(json(await a.rest('GET', `/rest/tasks/${done.id}?historyLength=0`))).not.toHaveProperty('history');
    // Newest first; the two tasks may share a millisecond (then the store keeps insertion order), so the
    // pages are checked to hold one task each, both together.
    const page = json(await a.rest('GET', '/rest/tasks?pageSize=1&includeArtifacts=true'));
    expect(page).toMatchObject({ pageSize: 1, totalSize: 2 });
    expect(page.nextPageToken).not.toBe('');
    const next = json(await a.rest('GET', `/rest/tasks?pageSize=1&pageToken=${page.nextPageToken}&includeArtifacts=true`));
    const listed = [...page.tasks, ...next.tasks];
    expect(listed.map((t: { id: string }) => t.id).sort()).toEqual([done.id, waiting.id].sort());
    expect(listed.find((t: { id: string }) => t.id === done.id)).toMatchObject({ artifacts: [{ name: 'out' }] });
    const canceled = await a.rest('POST', `/rest/tasks/${waiting.id}:cancel`, {});
    expect(canceled.status).toBe(200);
    expect(json(canceled)).toMatchObject({ id: waiting.id, status: { state: 'TASK_STATE_CANCELED' } });
  });

  it('POST /rest/message:stream: SSE of StreamResponse objects, not JSON-RPC wrapped', async () => {
    const a = await start(behaviour);
    const ex = await open(`${a.url}/rest/message:stream`, {
      headers: { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' },
      body: JSON.stringify(userMessage('work')),
    });
    await ex.ended;
    expect(ex.headers['content-type']).toBe('text/event-stream');
    expect(ex.frames.map((f) => Object.keys(f))).toEqual([['task'], ['statusUpdate'], ['artifactUpdate'], ['statusUpdate']]);
  });

  it('GET /rest/tasks/{id}:subscribe: SSE of StreamResponse objects, the task first', async () => {
    const g = gate();
    const a = await start(behaviour, g);
    const task = await send(a, 'slow', '/rest', { returnImmediately: true });
    const ex = await open(`${a.url}/rest/tasks/${task.id}:subscribe`, { method: 'GET', headers: { 'a2a-version': '1.0' } });
    expect(ex.status).toBe(200);
    expect(ex.headers['content-type']).toBe('text/event-stream');
    await ex.waitFor(() => true);
    g.open();
    await ex.ended;
    expect(ex.frames[0]).toMatchObject({ task: { id: task.id, status: { state: 'TASK_STATE_WORKING' } } });
    expect(ex.frames.slice(1).map((f) => Object.keys(f)[0])).toEqual(['artifactUpdate', 'statusUpdate']);
  });

  it('GET /rest/tasks/{id}:subscribe of a finished task: 400 FAILED_PRECONDITION "Task <id> is in terminal state: …"', async () => {
    const a = await start(behaviour);
    const done = await send(a, 'work');
    const reply = await a.rest('GET', `/rest/tasks/${done.id}:subscribe`);
    const message = `Task ${done.id} is in terminal state: TASK_STATE_COMPLETED`;
    const metadata = wants.context ? { taskId: done.id } : {};
    expect([reply.status, reply.json]).toEqual([400, status(400, 'FAILED_PRECONDITION', message, 'UNSUPPORTED_OPERATION', metadata)]);
  });

  it('push config routes: create, get, list, delete', async () => {
    const a = await start(behaviour);
    const task = await send(a, 'ask');
    const base = `/rest/tasks/${task.id}/pushNotificationConfigs`;
    const config = { id: 'c1', taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 't' };
    expect(json(await a.rest('POST', base, { id: 'c1', url: config.url, token: 't' }))).toEqual(config);
    expect(json(await a.rest('GET', `${base}/c1`))).toEqual(config);
    expect(json(await a.rest('GET', base))).toEqual({ configs: [config], nextPageToken: '' });
    const deleted = await a.rest('DELETE', `${base}/c1`);
    expect([deleted.status, deleted.json]).toEqual([200, {}]);
    expect(json(await a.rest('GET', base)).configs).toEqual([]);
  });

  it('tenant-prefixed routes: /rest/{tenant}/message:send, /rest/{tenant}/tasks/{id}, /rest/{tenant}/tasks', async () => {
    const a = await start(behaviour);
    const task = await send(a, 'work', '/rest/acme');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(json(await a.rest('GET', `/rest/acme/tasks/${task.id}`)).id).toBe(task.id);
    expect(json(await a.rest('GET', '/rest/acme/tasks?pageSize=1')).tasks).toHaveLength(1);
    expect(json(await a.rest('GET', `/rest/acme/tasks/${task.id}/pushNotificationConfigs`))).toEqual({ configs: [], nextPageToken: '' });
  });

  it("errors are google.rpc.Status with the HTTP status of §5.4 and the behaviour's content type", async () => {
    const a = await start(behaviour);
    const context = (m: Json) => (wants.context ? m : {});
    const missing = await a.rest('GET', '/rest/tasks/nope');
    expect([missing.status, missing.headers['content-type']]).toEqual([404, wants.contentType]);
    expect(missing.json).toEqual(status(404, 'NOT_FOUND', 'Task not found', 'TASK_NOT_FOUND', context({ taskId: 'nope' })));
    const done = await send(a, 'work');
    const notCancelable = await a.rest('POST', `/rest/tasks/${done.id}:cancel`, {});
    expect([notCancelable.status, notCancelable.json]).toEqual([
      400,
      status(400, 'FAILED_PRECONDITION', 'Task cannot be canceled', 'TASK_NOT_CANCELABLE', context({ taskId: done.id })),
    ]);
    const invalid = await a.rest('POST', '/rest/message:send', { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Validation failed' } });
    expect((invalid.json as Json).error.details[1]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ description: 'Field must contain at least one element.', field: 'message.parts' }],
    });
    const noVersion = await a.rest('GET', `/rest/tasks/${done.id}`, undefined, { version: null });
    expect([noVersion.status, noVersion.json]).toEqual([
      400,
      status(
        400,
        'FAILED_PRECONDITION',
        "A2A version '0.3' is not supported by this handler. Expected version '1.0'.",
        'VERSION_NOT_SUPPORTED',
        context({ requested: '0.3' }),
      ),
    ]);
  });

  it('a wrong verb on a known path: 405 with Allow; an unknown path: 404', async () => {
    const a = await start(behaviour);
    const wrongVerb = await a.rest('DELETE', '/rest/tasks/x');
    expect([wrongVerb.status, wrongVerb.headers['allow']]).toEqual([405, 'GET']);
    expect((await a.rest('PUT', '/rest/message:send', {})).status).toBe(405);
    expect((await a.rest('GET', '/rest/message:send')).status).toBe(405);
    for (const path of ['/rest/nothing', '/rest/tasks/x/y/z', '/elsewhere']) expect((await a.rest('GET', path)).status, path).toBe(404);
  });

  it('the version: the A2A-Version header, or the A2A-Version query parameter with the kit only', async () => {
    const a = await start(behaviour);
    const task = await send(a, 'work');
    expect((await a.rest('GET', `/rest/tasks/${task.id}`)).status).toBe(200);
    const byQuery = await a.rest('GET', `/rest/tasks/${task.id}?A2A-Version=1.0`, undefined, { version: null });
    expect(byQuery.status).toBe(wants.versionQuery ? 200 : 400);
  });
});

it('push config routes with pushNotifications false: 400 PUSH_NOTIFICATION_NOT_SUPPORTED', async () => {
  const a = await pool.start({ executor: scripted(), card: testCard({ streaming: true }) });
  const reply = await a.rest('GET', '/rest/tasks/t/pushNotificationConfigs');
  expect([reply.status, reply.json]).toEqual([
    400,
    status(400, 'FAILED_PRECONDITION', 'Push Notification is not supported', 'PUSH_NOTIFICATION_NOT_SUPPORTED'),
  ]);
});
