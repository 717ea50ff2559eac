/**
 * The tasks extension on the client (runtime/mcp/ext/tasks/client.ts) against our own server
 * (runtime/mcp/ext/tasks/server.ts) and against SEP-2663 (https://modelcontextprotocol.io/seps/2663-tasks-extension):
 * the extension is declared on each request, so the server may answer a tools/call with a CreateTaskResult
 * (checked by the pinned schema's validator, @wiregen/mcp-ext-tasks); `callTool` polls tasks/get at the
 * server's pollIntervalMs until the task is terminal, answers inputRequests once each through tasks/update,
 * cancels on abort (tasks/cancel), and turns a failed task into its error. The wire is counted on the channel.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validators } from '../../generated/mcp-ext-tasks/index.ts';
import { JsonRpcError, type JsonObject, type RequestId } from '../../runtime/jsonrpc/message.ts';
import { McpClient, type CallContext, type ServerRequestHandlers } from '../../runtime/mcp/client/client.ts';
import { PeerChannel } from '../../runtime/mcp/client/channels.ts';
import { isCreateTaskResult, McpTaskError, McpTasks, McpTasksClient } from '../../runtime/mcp/ext/tasks/index.ts';
import { LATEST_STATELESS, requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { RequestContext } from '../../runtime/mcp/server/types.ts';
import { createLinkedPair } from '../../runtime/transports/transport.ts';
import { sleep } from '../helpers/wait.ts';

beforeAll(() => requireRevision(LATEST_STATELESS), 60_000);

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const ELICIT = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
} as const;

/** What the server's tools saw: whether their work was aborted. */
const seen = { aborted: [] as string[] };

function server(tasks: McpTasks): McpServer {
  return new McpServer({
    log: () => {},
    serverInfo: { name: 'tasks-server', version: '1.0.0' },
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    extensions: [tasks],
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': async (params: JsonObject, ctx: RequestContext) => {
        const name = params['name'];
        if (name === 'inline') return text('inline');
        const task = await tasks.begin(ctx);
        if (name === 'ask') {
          const answers = await task.input('confirm', ELICIT);
          return text(`answered ${JSON.stringify(answers.content)}`);
        }
        if (name === 'broken') throw new JsonRpcError(-32602, 'no such file');
        const ms = name === 'slow' ? 5_000 : 300;
        try {
          await sleep(ms, undefined, { signal: task.signal });
        } catch (err) {
          seen.aborted.push(String(name));
          throw err;
        }
        return text(`done ${String(name)}`);
      },
    } as never, // the loose test handlers stand for the typed ones (params are checked by the revision first)
  });
}

/** A channel that notes each method it sends, with the time. */
class CountingChannel extends PeerChannel {
  readonly sent: { method: string; at: number }[] = [];
  override call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext): Promise<unknown> {
    this.sent.push({ method, at: Date.now() });
    return super.call(id, method, params, context);
  }
}

const open: { client: McpClient; tasks: McpTasks }[] = [];
afterEach(async () => {
  for (const { client, tasks } of open.splice(0)) {
    await client.close();
    tasks.close();
  }
  seen.aborted.length = 0;
});

async function connect(options: { pollIntervalMs?: number; withExtension?: boolean; handlers?: ServerRequestHandlers } = {}) {
  const serverTasks = new McpTasks({ pollIntervalMs: options.pollIntervalMs ?? 100 });
  const [clientSide, serverSide] = createLinkedPair();
  server(serverTasks).connect(serverSide);
  const channel = new CountingChannel(clientSide);
  const tasks = new McpTasksClient();
  const client = new McpClient(channel, {
    clientInfo: { name: 'tasks-client', version: '1.0.0' },
    capabilities: { elicitation: { form: {} } },
    mode: 'stateless',
    handlers: options.handlers ?? {},
    ...(options.withExtension === false ? {} : { extensions: [tasks] }),
  });
  open.push({ client, tasks: serverTasks });
  await client.connect();
  return { client, tasks, channel, count: (method: string) => channel.sent.filter((s) => s.method === method).length };
}

describe('McpTasksClient (SEP-2663)', () => {
  it('declares the extension alongside the options capabilities', async () => {
    const { client } = await connect();
    expect(client.capabilities).toEqual({ elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } });
  });

  it('a tools/call answered with a CreateTaskResult (valid by the pin) is polled to its completed result', async () => {
    const { client, tasks, count } = await connect();
    const created = await client.call('tools/call', { name: 'quick', arguments: {} });
    expect(isCreateTaskResult(created)).toBe(true);
    expect(validators.CreateTaskResult(created), JSON.stringify(validators.CreateTaskResult.errors)).toBe(true);
    const statuses: string[] = [];
    const done = await tasks.wait((created as { taskId: string }).taskId, { onStatus: (t) => statuses.push(t.status) });
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done quick' }] } });
    expect(statuses.at(-1)).toBe('completed');
    expect(count('tasks/get')).toBeGreaterThanOrEqual(2);
    expect(await tasks.callTool({ name: 'quick', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'done quick' }] });
  });

  it('polls at the pollIntervalMs the server suggests, not faster', async () => {
    const { tasks, channel } = await connect({ pollIntervalMs: 120 });
    await tasks.callTool({ name: 'quick', arguments: {} });
    const gets = channel.sent.filter((s) => s.method === 'tasks/get').map((s) => s.at);
    expect(gets.length).toBeGreaterThanOrEqual(2);
    // A 300 ms task polled every 120 ms: about three polls, each at least the interval after the one before.
    expect(gets.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < gets.length; i++) expect(gets[i]! - gets[i - 1]!).toBeGreaterThanOrEqual(110);
  });

  it('listen: notifications/tasks on subscriptions/listen end the wait at once, not at the next 5 s poll', async () => {
    const { client, tasks, count } = await connect({ pollIntervalMs: 5_000 });
    const created = await client.call('tools/call', { name: 'quick', arguments: {} });
    const started = Date.now();
    if (!isCreateTaskResult(created)) throw new Error(`expected a CreateTaskResult, got ${JSON.stringify(created)}`);
    const done = await tasks.wait(created, { listen: true });
    expect(done.status).toBe('completed');
    // The 300 ms tool, then one re-read on its notification: well before the 5 s the server suggests.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(count('subscriptions/listen')).toBe(1);
    expect(count('tasks/get')).toBe(2);
  });

  it('an inline answer (the server chose no task) is returned as it is', async () => {
    const { tasks, count } = await connect();
    expect(await tasks.callTool({ name: 'inline', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'inline' }] });
    expect(count('tasks/get')).toBe(0);
  });

  it('without the extension declared the server runs the tool inline (MUST NOT return CreateTaskResult)', async () => {
    const { client } = await connect({ withExtension: false });
    expect(client.capabilities).toEqual({ elicitation: { form: {} } });
    const result = await client.call('tools/call', { name: 'quick', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done quick' }] });
  });

  it('answers an input_required task once with the client handlers (tasks/update), then gets its result', async () => {
    const asked: unknown[] = [];
    const { tasks, count } = await connect({
      handlers: {
        'elicitation/create': (params) => {
          asked.push(params);
          return { action: 'accept', content: { ok: true } };
        },
      },
    });
    const result = await tasks.callTool({ name: 'ask', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'answered {"ok":true}' }] });
    expect(asked).toEqual([ELICIT.params]);
    expect(count('tasks/update')).toBe(1);
  });

  it('aborting the call cancels the task (tasks/cancel): the work is aborted and the task ends cancelled', async () => {
    const { tasks, count } = await connect();
    let taskId = '';
    const controller = new AbortController();
    const call = tasks.callTool(
      { name: 'slow', arguments: {} },
      {
        signal: controller.signal,
        onStatus: (t) => {
          taskId = t.taskId;
          controller.abort(new Error('the user gave up'));
        },
      },
    );
    await expect(call).rejects.toThrow('the user gave up');
    expect(count('tasks/cancel')).toBe(1);
    expect((await tasks.get(taskId)).status).toBe('cancelled');
    await sleep(20);
    expect(seen.aborted).toEqual(['slow']);
  });

  it('a failed task throws McpTaskError with the task error code and message', async () => {
    const { tasks } = await connect();
    const failure = await tasks.callTool({ name: 'broken', arguments: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(McpTaskError);
    expect(failure).toMatchObject({ code: -32602, message: expect.stringContaining('no such file') });
    expect((failure as McpTaskError).task.status).toBe('failed');
  });

  it('tasks/get of an unknown task: the server -32602 reaches the caller', async () => {
    const { tasks } = await connect();
    await expect(tasks.get('nope')).rejects.toMatchObject({ code: -32602 });
  });

  it('a CreateTaskResult is refused where SEP-2663 does not allow one: invalid by the pin, without the extension, or for another method', async () => {
    const VALID = { resultType: 'task', taskId: 't1', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null };
    /** A client whose server answers every request with `result`. */
    const against = (result: JsonObject, withExtension: boolean) => {
      const [clientSide, serverSide] = createLinkedPair();
      serverSide.start({
        message: (frame) => {
          const { id } = JSON.parse(frame) as { id?: RequestId };
          if (id !== undefined) serverSide.send(JSON.stringify({ jsonrpc: '2.0', id, result }));
        },
        close: () => {},
      });
      const client = new McpClient(new PeerChannel(clientSide), {
        clientInfo: { name: 'tasks-client', version: '1.0.0' },
        mode: 'stateless',
        ...(withExtension ? { extensions: [new McpTasksClient()] } : {}),
      });
      return client.connect().then(() => client);
    };
    const broken = await against({ ...VALID, taskId: 7 }, true);
    await expect(broken.call('tools/call', { name: 'x', arguments: {} })).rejects.toThrow("the task result's schema");
    expect(await (await against(VALID, true)).call('tools/call', { name: 'x', arguments: {} })).toEqual(VALID);
    await expect((await against(VALID, false)).call('tools/call', { name: 'x', arguments: {} })).rejects.toThrow('2026-07-28 schema');
    await expect((await against(VALID, true)).call('resources/read', { uri: 'file:///x' })).rejects.toThrow('2026-07-28 schema');
  });

  it('a timeout gives the task up with tasks/cancel', async () => {
    const { tasks, count } = await connect();
    await expect(tasks.callTool({ name: 'slow', arguments: {} }, { waitMs: 150 })).rejects.toThrow(/gave up waiting/);
    expect(count('tasks/cancel')).toBe(1);
  });
});
