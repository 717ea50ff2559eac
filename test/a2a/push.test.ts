/**
 * Push notifications (§3.1.7–3.1.10, §4.3.3, §13.2): the config operations over JSON-RPC, the capability
 * gate, the operator's host allow-list, and delivery to a local webhook (127.0.0.1:0): token header, content
 * type and first Task snapshot per behaviour, retries with backoff, and the behaviours' config ids and
 * delete results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KIT_BEHAVIOUR, SDK_BEHAVIOUR, type A2aBehaviour, type AgentExecutor } from '../../runtime/a2a/types.ts';
import { agentPool, testCard, userMessage, webhookServer, type Json } from '../helpers/a2a-server.ts';
import { eventually, sleep } from '../helpers/http-client.ts';

const pool = agentPool();
const hooks: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(hooks.splice(0).map((h) => h.close()));
});
const behaviours: [string, A2aBehaviour][] = [
  ['SDK', SDK_BEHAVIOUR],
  ['kit', KIT_BEHAVIOUR],
];
/** What each behaviour's webhooks get (kit/README.md, "How this kit differs from the reference SDK"). */
const delivery = {
  SDK: { contentType: 'application/json', firstTask: true, ownId: 'taskId' },
  kit: { contentType: 'application/a2a+json', firstTask: false, ownId: 'new' },
} as const;

/** "ask" waits for input; anything else works, sends one artifact and completes. */
const executor: AgentExecutor = {
  async execute(ctx) {
    const task = await ctx.startTask();
    if (ctx.text === 'ask') return task.inputRequired(task.agentMessage('which?'));
    await task.working();
    await task.artifact({ name: 'out', parts: [{ text: 'result' }] });
    await task.complete();
  },
};
const start = (behaviour: A2aBehaviour = SDK_BEHAVIOUR, pushNotifications = true, backoffMs = 10) =>
  pool.start({ executor, behaviour, card: testCard({ streaming: true, pushNotifications }), push: { allowedHosts: ['127.0.0.1'], backoffMs } });
type Agent = Awaited<ReturnType<typeof start>>;
const hook = async (failures = 0) => {
  const h = await webhookServer(failures);
  hooks.push(h);
  return h;
};
const waitingTask = async (a: Agent) => (await a.rpc('SendMessage', userMessage('ask'))).result.task as Json;
/** What a notification is: `task`, `statusUpdate:STATE` or `artifactUpdate`. */
const kindOf = (body: Json) => (body.statusUpdate ? `statusUpdate:${body.statusUpdate.status.state}` : Object.keys(body).join(','));

describe('push notification configs', () => {
  it('create, get, list and delete; the card says pushNotifications: true', async () => {
    const a = await start();
    expect(((await (await fetch(`${a.url}/.well-known/agent-card.json`)).json()) as Json).capabilities).toEqual({
      streaming: true,
      pushNotifications: true,
    });
    const h = await hook();
    const task = await waitingTask(a);
    const config = { taskId: task.id, id: 'cfg-1', url: h.url, token: 'tok' };
    expect((await a.rpc('CreateTaskPushNotificationConfig', config)).result).toEqual(config);
    expect((await a.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' })).result).toEqual(config);
    expect((await a.rpc('ListTaskPushNotificationConfigs', { taskId: task.id })).result).toEqual({ configs: [config], nextPageToken: '' });
    expect(await a.rpc('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' }, { id: 9 })).toEqual({
      id: 9,
      jsonrpc: '2.0',
      result: null,
    });
    expect((await a.rpc('ListTaskPushNotificationConfigs', { taskId: task.id })).result.configs).toEqual([]);
    expect((await a.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' })).error.code).toBe(-32001);
  });

  it.each([
    ['CreateTaskPushNotificationConfig', { taskId: 't', url: 'http://127.0.0.1:1/hook' }],
    ['GetTaskPushNotificationConfig', { taskId: 't', id: 'c' }],
    ['ListTaskPushNotificationConfigs', { taskId: 't' }],
    ['DeleteTaskPushNotificationConfig', { taskId: 't', id: 'c' }],
  ])('%s with pushNotifications false: -32003', async (method, params) => {
    const a = await start(SDK_BEHAVIOUR, false);
    expect((await a.rpc(method, params)).error).toEqual({
      code: -32003,
      data: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org', metadata: {}, reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' },
      ],
      message: 'Push Notification is not supported',
    });
  });

  it.each(['http://169.254.169.254/latest/meta-data', 'https://evil.example.com/hook', 'http://localhost:9/hook', 'not a url'])(
    'a webhook at %s (host not allowed): -32602 naming url, and nothing stored',
    async (url) => {
      const a = await start();
      const task = await waitingTask(a);
      const reply = await a.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url });
      expect(reply.error).toMatchObject({ code: -32602, message: 'Validation failed' });
      expect(reply.error.data[1].fieldViolations).toEqual([{ description: expect.any(String), field: 'url' }]);
      expect((await a.rpc('ListTaskPushNotificationConfigs', { taskId: task.id })).result.configs).toEqual([]);
    },
  );

  // §3.3.2 "Servers MUST validate all input parameters before processing".
  it('SendMessage with a webhook on a host not allowed: -32602 naming url, and no task made', async () => {
    const a = await start();
    const reply = await a.rpc('SendMessage', userMessage('work', {}, { taskPushNotificationConfig: { url: 'https://evil.example.com/hook' } }));
    expect(reply.error).toMatchObject({ code: -32602 });
    expect((await a.rpc('ListTasks', {})).result.tasks).toEqual([]);
  });

  it.each([
    ['SDK', 'null', SDK_BEHAVIOUR, null],
    ['kit', '{}', KIT_BEHAVIOUR, {}],
  ] as const)('%s: DeleteTaskPushNotificationConfig returns %s', async (_, __, behaviour, result) => {
    const a = await start(behaviour);
    const h = await hook();
    const task = await waitingTask(a);
    await a.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, id: 'c', url: h.url });
    expect((await a.rpc('DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'c' })).result).toEqual(result);
  });

  it.each(behaviours)('%s: a config created without id gets the task id (SDK) or a new id (kit)', async (name, behaviour) => {
    const a = await start(behaviour);
    const h = await hook();
    const task = await waitingTask(a);
    const created = (await a.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url: h.url })).result as Json;
    if (delivery[name as keyof typeof delivery].ownId === 'taskId') expect(created.id).toBe(task.id);
    else {
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.id).not.toBe(task.id);
    }
    expect((await a.rpc('GetTaskPushNotificationConfig', { taskId: task.id, id: created.id })).result).toEqual(created);
  });
});

describe.each(behaviours)('push delivery (%s behaviour)', (name, behaviour) => {
  const wants = delivery[name as keyof typeof delivery];
  it("every status and artifact update is POSTed with the token, the credentials and the behaviour's content type", async () => {
    const a = await start(behaviour);
    const h = await hook();
    const config = { url: h.url, token: 'secret-token', authentication: { scheme: 'Bearer', credentials: 'c-1' } };
    const task = (await a.rpc('SendMessage', userMessage('work', {}, { taskPushNotificationConfig: config }))).result.task as Json;
    const expected = [...(wants.firstTask ? ['task'] : []), 'statusUpdate:TASK_STATE_WORKING', 'artifactUpdate', 'statusUpdate:TASK_STATE_COMPLETED'];
    await eventually(() => h.received.length >= expected.length);
    await sleep(50);
    expect(h.received.map((d) => kindOf(d.body)).sort()).toEqual([...expected].sort());
    for (const d of h.received) {
      expect(d.headers['content-type']).toBe(wants.contentType);
      expect(d.headers['x-a2a-notification-token']).toBe('secret-token');
      expect(d.headers['authorization']).toBe('Bearer c-1');
      expect(d.body.task?.id ?? d.body.statusUpdate?.taskId ?? d.body.artifactUpdate?.taskId).toBe(task.id);
    }
    const final = h.received.find((d) => kindOf(d.body) === 'statusUpdate:TASK_STATE_COMPLETED')!.body;
    expect(final).toEqual({ statusUpdate: { contextId: task.contextId, status: task.status, taskId: task.id } });
  });

  it('a webhook answering 500 is retried with growing delays until it takes the notification', async () => {
    const a = await start(behaviour, true, 60);
    const h = await hook(2);
    const task = await waitingTask(a);
    await a.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, id: 'c', url: h.url, token: 't' });
    await a.rpc('CancelTask', { id: task.id });
    await eventually(() => h.received.length >= 3, 3000);
    await sleep(200);
    expect(h.received).toHaveLength(3);
    expect(new Set(h.received.map((d) => JSON.stringify(d.body))).size).toBe(1);
    expect(kindOf(h.received[0]!.body)).toBe('statusUpdate:TASK_STATE_CANCELED');
    const [t0, t1, t2] = h.received.map((d) => d.at) as [number, number, number];
    expect(t1 - t0).toBeGreaterThanOrEqual(55);
    expect(t2 - t1).toBeGreaterThanOrEqual(115);
  });
});

describe('delivery order', () => {
  it("one webhook gets a task's updates in order even when an earlier delivery is slower; two webhooks run side by side", async () => {
    const { PushSender } = await import('../../runtime/a2a/push.ts');
    const received: string[] = [];
    const started: string[] = [];
    // The first POST to each webhook takes 40 ms, later ones none: unserialized, update 2 would overtake update 1.
    const slowFirst = new Set<string>();
    const fakeFetch = (async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Json;
      const label = `${new URL(url).pathname}:${body.statusUpdate.status.state}`;
      started.push(label);
      if (!slowFirst.has(url)) {
        slowFirst.add(url);
        await sleep(40);
      }
      received.push(label);
      return new Response(null, { status: 200 });
    }) as unknown as typeof fetch;
    const sender = new PushSender({ allowedHosts: ['127.0.0.1'], fetch: fakeFetch }, SDK_BEHAVIOUR, () => {});
    const config = (id: string) => ({ taskId: 't-1', id, url: `http://127.0.0.1:9/${id}` });
    const update = (state: string) => ({ statusUpdate: { taskId: 't-1', contextId: 'c-1', status: { state } } }) as never;
    for (const state of ['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']) sender.deliver([config('a'), config('b')], update(state));
    await sender.drain();
    expect(received.filter((r) => r.startsWith('/a:'))).toEqual(['/a:TASK_STATE_WORKING', '/a:TASK_STATE_COMPLETED']);
    expect(received.filter((r) => r.startsWith('/b:'))).toEqual(['/b:TASK_STATE_WORKING', '/b:TASK_STATE_COMPLETED']);
    // Side by side: both webhooks' first deliveries started before either finished.
    expect(started.slice(0, 2).sort()).toEqual(['/a:TASK_STATE_WORKING', '/b:TASK_STATE_WORKING']);
  });
});
