/**
 * The tasks extension on the server (runtime/mcp/ext/tasks/server.ts) against SEP-2663
 * (https://modelcontextprotocol.io/seps/2663-tasks-extension): advertised in server/discover; a task-supporting
 * tool answers a CreateTaskResult only to a request that declared the extension; tasks/get, tasks/update,
 * tasks/cancel and their errors (-32021 without the extension, -32602 for an unknown task); notifications/tasks
 * on subscriptions/listen; and, with the SQLite store, a task a previous process left unfinished is failed.
 * Every result is checked against the pinned schema (@wiregen/mcp-ext-tasks), not against our own output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validators } from '../../generated/mcp-ext-tasks/index.ts';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpTasks } from '../../runtime/mcp/ext/tasks/index.ts';
import { SqliteMcpTaskStore } from '../../runtime/mcp/ext/tasks/store-sqlite.ts';
import { LATEST_STATELESS, requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { RequestContext } from '../../runtime/mcp/server/types.ts';
import { mcpPair, SERVER_INFO, SUBSCRIPTION_ID, withMeta, type McpPair } from '../helpers/mcp-pair.ts';
import { sleep } from '../helpers/wait.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } };
const dir = mkdtempSync(join(tmpdir(), 'mcp-tasks-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The newest revision's validators load once, before the first request waits on an answer.
beforeAll(() => requireRevision(LATEST_STATELESS), 60_000);

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

/** A server whose tools/call runs `slow` (a task, cancellable), `ask` (a task asking one question), `must` (required) or inline. */
function server(tasks: McpTasks): McpServer {
  return new McpServer({
    log: () => {},
    serverInfo: SERVER_INFO,
    capabilities: { handshake: {}, stateless: { tools: {} } },
    extensions: [tasks],
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': async (params: JsonObject, ctx: RequestContext) => {
        const name = params['name'];
        if (name === 'inline') return text('inline');
        const task = await tasks.begin(ctx, { required: name === 'must' });
        if (name === 'ask') {
          const answers = await task.input('confirm', {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
          });
          return text(`answered ${JSON.stringify(answers.content)}`);
        }
        await sleep(name === 'slow' ? 5_000 : 20, undefined, { signal: task.signal });
        return text(`done ${String(name)}`);
      },
    } as never, // the loose test handlers stand for the typed ones (params are checked by the revision first)
  });
}

const ELICIT_CAPS = { extensions: { [TASKS]: {} }, elicitation: { form: {} } };
const call = (pair: McpPair, name: string, metaExtra: JsonObject = WITH_TASKS) =>
  pair.request('tools/call', withMeta({ name, arguments: {} }, metaExtra));
const get = (pair: McpPair, taskId: string, metaExtra: JsonObject = WITH_TASKS) => pair.request('tasks/get', withMeta({ taskId }, metaExtra));

async function until(pair: McpPair, taskId: string, status: string): Promise<JsonObject> {
  for (let i = 0; i < 100; i++) {
    const result = (await get(pair, taskId)).response['result'] as JsonObject;
    if (result['status'] === status) return result;
    await sleep(20);
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe('McpTasks (SEP-2663) on the server', () => {
  it('is advertised under capabilities.extensions of server/discover', async () => {
    const pair = mcpPair(server(new McpTasks()));
    const result = (await pair.request('server/discover', withMeta())).response['result'] as JsonObject;
    expect((result['capabilities'] as JsonObject)['extensions']).toEqual({ [TASKS]: {} });
    await pair.close();
  });

  it('answers a CreateTaskResult to a request that declared the extension; tasks/get gives the result inline once completed', async () => {
    const pair = mcpPair(server(new McpTasks({ pollIntervalMs: 50 })));
    const created = (await call(pair, 'quick')).response['result'] as JsonObject;
    expect(validators.CreateTaskResult(created), JSON.stringify(validators.CreateTaskResult.errors)).toBe(true);
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 50 });
    const done = await until(pair, created['taskId'] as string, 'completed');
    expect(validators.DetailedTask(done), JSON.stringify(validators.DetailedTask.errors)).toBe(true);
    expect(done['result']).toMatchObject({ content: [{ type: 'text', text: 'done quick' }] });
    await pair.close();
  });

  it('runs inline without the extension, and a tool that requires a task answers -32021 naming it', async () => {
    const pair = mcpPair(server(new McpTasks()));
    expect((await call(pair, 'quick', {})).response['result']).toMatchObject({ content: [{ type: 'text', text: 'done quick' }] });
    const refused = (await call(pair, 'must', {})).response['error'] as JsonObject;
    expect(refused['code']).toBe(-32021);
    expect(refused['data']).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    await pair.close();
  });

  it('tasks/* without the extension declared: -32021; an unknown task: -32602', async () => {
    const pair = mcpPair(server(new McpTasks()));
    expect(((await get(pair, 'nope', {})).response['error'] as JsonObject)['code']).toBe(-32021);
    expect(((await get(pair, 'nope')).response['error'] as JsonObject)['code']).toBe(-32602);
    const cancel = await pair.request('tasks/cancel', withMeta({ taskId: 'nope' }, WITH_TASKS));
    expect((cancel.response['error'] as JsonObject)['code']).toBe(-32602);
    await pair.close();
  });

  it('asks through inputRequests and resumes on tasks/update; an answer for no outstanding key is ignored', async () => {
    const pair = mcpPair(server(new McpTasks()));
    const caps = { 'io.modelcontextprotocol/clientCapabilities': ELICIT_CAPS };
    const { taskId } = (await call(pair, 'ask', caps)).response['result'] as { taskId: string };
    const waiting = await until(pair, taskId, 'input_required');
    expect(validators.DetailedTask(waiting)).toBe(true);
    expect(Object.keys(waiting['inputRequests'] as JsonObject)).toEqual(['confirm']);
    const update = await pair.request(
      'tasks/update',
      withMeta({ taskId, inputResponses: { stray: { nonsense: true }, confirm: { action: 'accept', content: { ok: true } } } }, caps),
    );
    expect(update.response['result']).toBeDefined();
    const done = await until(pair, taskId, 'completed');
    expect(done['result']).toMatchObject({ content: [{ type: 'text', text: 'answered {"ok":true}' }] });
    await pair.close();
  });

  it('tasks/cancel cancels a working task (its work is aborted) and is an idempotent ack on a terminal one', async () => {
    const pair = mcpPair(server(new McpTasks()));
    const { taskId } = (await call(pair, 'slow')).response['result'] as { taskId: string };
    const first = await pair.request('tasks/cancel', withMeta({ taskId }, WITH_TASKS));
    const again = await pair.request('tasks/cancel', withMeta({ taskId }, WITH_TASKS));
    expect(first.response['result']).toEqual(again.response['result']);
    const cancelled = await until(pair, taskId, 'cancelled');
    expect(validators.DetailedTask(cancelled)).toBe(true);
    await pair.close();
  });

  it('notifications/tasks reach a listen stream that asked for the task, tagged with its subscription id', async () => {
    const pair = mcpPair(server(new McpTasks()));
    const { taskId } = (await call(pair, 'quick')).response['result'] as { taskId: string };
    pair.send({
      jsonrpc: '2.0',
      id: 'L',
      method: 'subscriptions/listen',
      params: withMeta({ notifications: { taskIds: [taskId, 'unknown'] } }, WITH_TASKS),
    });
    const ack = await pair.waitFor((f) => f['method'] === 'notifications/subscriptions/acknowledged');
    expect((ack['params'] as JsonObject)['notifications']).toEqual({ taskIds: [taskId] });
    const note = await pair.waitFor((f) => f['method'] === 'notifications/tasks' && (f['params'] as JsonObject)['status'] === 'completed');
    const params = note['params'] as JsonObject;
    expect(params['taskId']).toBe(taskId);
    expect((params['_meta'] as JsonObject)[SUBSCRIPTION_ID]).toBe('L');
    await pair.close();
  });

  it('with the SQLite store, a task left working by a previous process is failed when the next one starts', async () => {
    const file = join(dir, 'restart.db');
    const before = new McpTasks({ store: new SqliteMcpTaskStore(file) });
    const first = mcpPair(server(before));
    const { taskId } = (await call(first, 'slow')).response['result'] as { taskId: string };
    await first.close();
    // The process "dies": the work is dropped without settling the stored task.
    await before.store.close();
    const after = mcpPair(server(new McpTasks({ store: new SqliteMcpTaskStore(file) })));
    const failed = (await get(after, taskId)).response['result'] as JsonObject;
    expect(validators.DetailedTask(failed)).toBe(true);
    expect(failed['status']).toBe('failed');
    await after.close();
    // The first process's work ends now, against a closed store: it must not throw out of the extension.
    before.close();
    await sleep(20);
  });
});
