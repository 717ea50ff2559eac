/**
 * @module test/a2a/cluster-server — A2aServers as instances of one agent on a real PostgreSQL (the `cluster`
 * option, PostgresCluster), each on its own loopback port: a task started on one is read, followed
 * (SubscribeToTask), cancelled and answered through the others; each push is delivered once whichever instance
 * took the push config; and an instance that stops renewing its lease has its running task failed by another
 * with a status message, never left working, or continued by the agent's `resume` when it has one. A real SIGKILL of an instance process is the scale run's
 * (test/scale/scale.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCluster } from '../../runtime/a2a/postgres/cluster.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import type { AgentExecutor } from '../../runtime/a2a/types.ts';
import { a2aRpc, gate, testCard, userMessage, webhookServer, type Json, type Webhook } from '../helpers/a2a-server.ts';
import { open } from '../helpers/http-client.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { eventually, sleep } from '../helpers/wait.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

interface Instance {
  readonly id: string;
  readonly url: string;
  readonly server: A2aServer;
  readonly cluster: PostgresCluster;
  readonly http: RunningA2aServer;
  /** Aborted executions seen by this instance's agent. */
  readonly aborted: string[];
  rpc(method: string, params?: unknown): Promise<Json>;
}

const started: Instance[] = [];
const hooks: Webhook[] = [];
afterEach(async () => {
  for (const i of started.splice(0)) {
    await i.http.close();
    await i.server.close().catch(() => undefined);
  }
  for (const h of hooks.splice(0)) await h.close();
});

/**
 * "slow" works until `release` opens (or the task is cancelled); "ask" needs input, and an answer completes
 * it; anything else completes with an artifact.
 */
function agent(release: ReturnType<typeof gate>, aborted: string[]): AgentExecutor {
  return {
    async execute(ctx) {
      if (ctx.task) {
        const task = ctx.currentTask();
        await task.working();
        return task.complete(task.agentMessage(`answered: ${ctx.text}`));
      }
      const task = await ctx.startTask();
      await task.working();
      if (ctx.text === 'ask') return task.inputRequired(task.agentMessage('which one?'));
      if (ctx.text === 'slow') {
        const abort = new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        await Promise.race([release.promise, abort]);
        if (ctx.signal.aborted) return void aborted.push(task.taskId);
      }
      await task.artifact({ name: 'out', parts: [{ text: `did ${ctx.text}` }] });
      await task.complete();
    },
  };
}

/** `n` instances of the agent on one fresh database (`extra` added to the agent's executor). */
async function instances(n: number, release = gate(), leaseMs = 3000, extra: Partial<AgentExecutor> = {}): Promise<Instance[]> {
  const url = await postgres.createDatabase();
  const out: Instance[] = [];
  for (let k = 0; k < n; k++) {
    const id = `i${k}`;
    const cluster = await PostgresCluster.open(url, { instanceId: id, leaseMs, maxConnections: 4 });
    const aborted: string[] = [];
    const server = new A2aServer({
      card: testCard({ streaming: true, pushNotifications: true }),
      executor: { ...agent(release, aborted), ...extra },
      cluster,
      recovery: { recoverEveryMs: 200 },
      push: { allowedHosts: ['127.0.0.1'], backoffMs: 20 },
      log: () => {},
    });
    await server.ready();
    const http = await listenA2aHttp(server);
    const instance: Instance = { id, url: http.url, server, cluster, http, aborted, rpc: (m, p) => a2aRpc(http.url, m, p) };
    started.push(instance);
    out.push(instance);
  }
  return out;
}

const state = async (i: Instance, id: string) => (await i.rpc('GetTask', { id })).result?.status.state as string | undefined;

describe('A2aServer instances on PostgreSQL', () => {
  it('a task started on one instance is read, followed and cancelled through the others', async () => {
    const [a, b, c] = (await instances(3)) as [Instance, Instance, Instance];
    const task = (await a.rpc('SendMessage', userMessage('slow', {}, { returnImmediately: true }))).result.task as Json;
    await eventually(async () => (await state(b, task.id)) === 'TASK_STATE_WORKING');
    expect((await c.rpc('ListTasks', {})).result.tasks.map((t: Json) => t.id)).toEqual([task.id]);

    const follow = await open(`${c.url}/a2a`, {
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: task.id } }),
    });
    await follow.waitFor((f) => (f as Json).result?.task?.id === task.id);
    // A second message to the working task is refused on another instance as on its own.
    const again = await b.rpc('SendMessage', userMessage('more', { taskId: task.id, contextId: task.contextId }));
    expect(again.error?.code).toBe(-32004);

    const cancelled = (await b.rpc('CancelTask', { id: task.id })).result as Json;
    expect(cancelled.status.state).toBe('TASK_STATE_CANCELED');
    // The cancel reaches the running instance through PostgreSQL, after b has answered.
    await eventually(() => a.aborted.length > 0);
    expect(a.aborted).toEqual([task.id]);
    await follow.ended;
    const states = (follow.frames as Json[]).map((f) => f.result?.statusUpdate?.status.state ?? (f.result?.task ? 'task' : '?'));
    expect(states.at(0)).toBe('task');
    expect(states.at(-1)).toBe('TASK_STATE_CANCELED');
    expect(await state(c, task.id)).toBe('TASK_STATE_CANCELED');
  });

  it('an interrupted task is answered through another instance, which then runs it', async () => {
    const [a, b] = (await instances(2)) as [Instance, Instance];
    const task = (await a.rpc('SendMessage', userMessage('ask'))).result.task as Json;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = (await b.rpc('SendMessage', userMessage('the blue one', { taskId: task.id, contextId: task.contextId }))).result.task as Json;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.status.message.parts).toEqual([{ text: 'answered: the blue one' }]);
    const history = ((await a.rpc('GetTask', { id: task.id })).result.history as Json[]).map((m) => `${m.role}:${m.parts[0].text}`);
    expect(history).toEqual(['ROLE_USER:ask', 'ROLE_AGENT:which one?', 'ROLE_USER:the blue one']);
  });

  it('delivers each update to a webhook once, whichever instance took the push config', async () => {
    const release = gate();
    const [a, b, c] = (await instances(3, release)) as [Instance, Instance, Instance];
    const hook = await webhookServer(1);
    hooks.push(hook);
    const task = (await a.rpc('SendMessage', userMessage('slow', {}, { returnImmediately: true }))).result.task as Json;
    const created = await c.rpc('CreateTaskPushNotificationConfig', { taskId: task.id, url: hook.url, token: 'tok' });
    expect(created.result.url).toBe(hook.url);
    expect((await b.rpc('ListTaskPushNotificationConfigs', { taskId: task.id })).result.configs).toHaveLength(1);
    release.open();
    await eventually(async () => (await state(b, task.id)) === 'TASK_STATE_COMPLETED');
    await eventually(() => hook.received.filter((d) => d.headers['x-a2a-notification-token'] === 'tok').length >= 2, 5000);
    await sleep(300);
    // The first POST got HTTP 500 and was retried: two updates (artifact, completed), each received as one success.
    const bodies = hook.received.map((d) => JSON.stringify(d.body));
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toBe(bodies[1]);
    expect(new Set(bodies).size).toBe(2);
    expect(hook.received.map((d) => (d.body.artifactUpdate ? 'artifact' : d.body.statusUpdate?.status.state))).toEqual([
      'artifact',
      'artifact',
      'TASK_STATE_COMPLETED',
    ]);
    const { rows } = await a.cluster.store.live().query('SELECT count(*)::int AS n FROM a2a_push_outbox');
    expect(rows[0].n).toBe(0);
  });

  it('an instance that stops renewing its lease has its running task failed by another, with a status message', async () => {
    const [a, b] = (await instances(2, gate(), 900)) as [Instance, Instance];
    const task = (await a.rpc('SendMessage', userMessage('slow', {}, { returnImmediately: true }))).result.task as Json;
    await eventually(async () => (await state(b, task.id)) === 'TASK_STATE_WORKING');
    // The instance "dies": its database connections go (no heartbeat, no writes); its agent is left hanging.
    await a.http.close();
    await a.cluster.bus.close();
    await a.cluster.store.close();
    started.splice(started.indexOf(a), 1);
    await eventually(async () => (await state(b, task.id)) === 'TASK_STATE_FAILED', 8000);
    const failed = (await b.rpc('GetTask', { id: task.id })).result as Json;
    expect(failed.status.message.role).toBe('ROLE_AGENT');
    expect(failed.status.message.parts[0].text).toMatch(/instance running this task stopped/);
    const { rows } = await b.cluster.store.live().query('SELECT count(*)::int AS n FROM a2a_task_leases');
    expect(rows[0].n).toBe(0);
  });

  it('an agent with resume continues the adopted task on the instance that adopted it', async () => {
    const resumed: string[] = [];
    const resume = async (ctx: Parameters<NonNullable<AgentExecutor['resume']>>[0]) => {
      resumed.push(`${ctx.task?.status.state} ${ctx.text}`);
      const task = ctx.currentTask();
      await task.artifact({ name: 'out', parts: [{ text: 'after the move' }] });
      await task.complete();
    };
    const [a, b] = (await instances(2, gate(), 900, { resume })) as [Instance, Instance];
    const task = (await a.rpc('SendMessage', userMessage('slow', {}, { returnImmediately: true }))).result.task as Json;
    await eventually(async () => (await state(b, task.id)) === 'TASK_STATE_WORKING');
    await a.http.close();
    await a.cluster.bus.close();
    await a.cluster.store.close();
    started.splice(started.indexOf(a), 1);
    await eventually(async () => (await state(b, task.id)) === 'TASK_STATE_COMPLETED', 8000);
    expect(resumed).toEqual(['TASK_STATE_WORKING slow']);
    const done = (await b.rpc('GetTask', { id: task.id })).result as Json;
    expect(done.artifacts.map((x: Json) => x.parts[0].text)).toEqual(['after the move']);
    await eventually(async () => (await b.cluster.store.live().query('SELECT count(*)::int AS n FROM a2a_task_leases')).rows[0].n === 0);
  });
});
