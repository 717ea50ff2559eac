/**
 * kit/README.md's "How this kit differs from the reference SDK", one test per choice, run against the kit's own
 * agents (kit/network.ts on free ports, KIT_BEHAVIOUR) over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../generated/a2a-1.0/index.ts';
import { jsonRpcTransport } from '../../runtime/a2a/client.ts';
import { KIT_BEHAVIOUR, type AgentCard } from '../../runtime/a2a/types.ts';
import { DEPLOY_TOKEN, startNetwork, WRITTEN, type AgentName, type KitNetwork } from '../../kit/network.ts';
import { sseFrames } from '../../kit/recorder.ts';
import { UNBOUNDED_DIFF } from '../../kit/scenarios/interrupted.ts';
import { agentPool, testCard, userMessage, type Json } from '../helpers/a2a-server.ts';

let net: KitNetwork;
beforeAll(async () => void (net = await startNetwork({ basePort: 0 })));
afterAll(() => net.close());
const pool = agentPool();
afterAll(() => pool.closeAll());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const token = (agent: AgentName): Record<string, string> => (agent === 'deployer' ? { authorization: `Bearer ${DEPLOY_TOKEN}` } : {});

async function call(agent: AgentName, path: string, init: RequestInit = {}) {
  const res = await net.fetch(WRITTEN[agent] + path, init);
  const text = await res.text();
  let json: Json | undefined;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Json };
}
/** One JSON-RPC call (headers override the defaults: version 1.0, the deployer's token). */
const rpc = (agent: AgentName, method: string, params: unknown, headers: Record<string, string | undefined> = {}, query = '') =>
  call(agent, `/jsonrpc${query}`, {
    method: 'POST',
    headers: Object.fromEntries(
      Object.entries({ 'content-type': 'application/json', 'a2a-version': '1.0', ...token(agent), ...headers }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
/** A streaming call read to its end: the frames' results. */
const streamed = async (agent: AgentName, method: string, params: unknown) =>
  sseFrames((await rpc(agent, method, params)).text).map((f) => (JSON.parse(f) as Json).result as Json);
const client = (agent: AgentName) => new Client(jsonRpcTransport(`${WRITTEN[agent]}/jsonrpc`, { fetch: net.fetch, headers: token(agent) }));
const diffMessage = (text: string) => userMessage(text, { parts: [{ text }, { text: UNBOUNDED_DIFF, mediaType: 'text/x-diff' }] });

describe('how the kit differs from the reference SDK (kit/README.md)', () => {
  it('the first TASK_STATE_SUBMITTED status is stamped with a time', async () => {
    const accepted = net.pacer.hold('accepted');
    const answer = await rpc('test-runner', 'SendMessage', userMessage('run the unit suite at 4f2c9e1', {}, { returnImmediately: true }));
    accepted.release();
    expect(answer.json.result.task.status).toEqual({
      state: 'TASK_STATE_SUBMITTED',
      timestamp: expect.stringMatching(/^2026-10-06T09:00:\d\d\.\d{3}Z$/),
    });
  });

  it('a stream closes at TASK_STATE_INPUT_REQUIRED', async () => {
    const frames = await streamed('code-reviewer', 'SendStreamingMessage', diffMessage('review this'));
    expect(frames.map((f) => f.task?.status.state ?? f.statusUpdate?.status.state)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
  });

  it('a stream stays open through TASK_STATE_AUTH_REQUIRED: the updates after the approval arrive on it', async () => {
    const it = client('deployer')
      .sendStreamingMessage({ message: { messageId: 'm-auth', role: 'ROLE_USER', parts: [{ text: 'deploy build 7 to staging' }] } })
      [Symbol.asyncIterator]();
    const states: string[] = [];
    let taskId = '';
    for (let r = await it.next(); !r.done; r = await it.next()) {
      taskId ||= r.value.task?.id ?? '';
      states.push(String(r.value.task?.status.state ?? r.value.statusUpdate?.status.state ?? 'artifact'));
      if (states.at(-1) === 'TASK_STATE_AUTH_REQUIRED') expect((await call('deployer', `/approve/${taskId}`, { method: 'POST' })).status).toBe(200);
    }
    expect(states).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_AUTH_REQUIRED',
      'TASK_STATE_WORKING',
      'artifact',
      'TASK_STATE_COMPLETED',
    ]);
  });

  it('HTTP+JSON errors are application/a2a+json', async () => {
    const r = await call('test-runner', '/rest/tasks/nope', { headers: { 'a2a-version': '1.0' } });
    expect([r.status, r.headers.get('content-type'), r.json.error.status]).toEqual([404, 'application/a2a+json', 'NOT_FOUND']);
  });

  it('pushes are application/a2a+json, carry the token in X-A2A-Notification-Token, and never the first Task snapshot', async () => {
    net.receiver.take();
    const config = { url: `${WRITTEN.webhooks}/hook`, token: 'choice-token' };
    const answer = await rpc(
      'test-runner',
      'SendMessage',
      userMessage('run the integration suite at 4f2c9e1', {}, { taskPushNotificationConfig: config }),
    );
    expect(answer.json.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    await net.pushesSettled();
    const got = net.receiver.take();
    expect(got.map((r) => [r.headers['content-type'], r.headers['x-a2a-notification-token']])).toEqual(
      Array(5).fill(['application/a2a+json', 'choice-token']),
    );
    expect(got.map((r) => Object.keys(JSON.parse(r.body) as Json)[0])).toEqual([
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
  });

  it('a push config created without an id gets a new UUID, not the task id; Delete over JSON-RPC returns {}', async () => {
    const task = (await rpc('test-runner', 'SendMessage', userMessage('run the integration suite at 9b1d7a3'))).json.result.task as Json;
    const created = (await rpc('test-runner', 'CreateTaskPushNotificationConfig', { taskId: task.id, url: `${WRITTEN.webhooks}/hook` })).json
      .result as Json;
    expect(created.id).toMatch(UUID);
    expect(created.id).not.toBe(task.id);
    const deleted = await rpc('test-runner', 'DeleteTaskPushNotificationConfig', { taskId: task.id, id: created.id });
    expect(deleted.json.result).toEqual({});
  });

  it('error details carry metadata such as the task id', async () => {
    const r = await rpc('test-runner', 'GetTask', { id: 'no-such-task' });
    expect(r.json.error.data).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        domain: 'a2a-protocol.org',
        metadata: { taskId: 'no-such-task' },
        reason: 'TASK_NOT_FOUND',
      },
    ]);
  });

  it('the card is served with no Cache-Control or ETag, and If-None-Match gets the card again', async () => {
    const r = await call('test-runner', '/.well-known/agent-card.json', { headers: { 'if-none-match': '*' } });
    expect([r.status, r.headers.get('etag'), r.headers.get('cache-control')]).toEqual([200, null, null]);
  });

  it('idle streams get no keep-alive comments', async () => {
    expect(net.servers['test-runner'].behaviour.keepAliveMs).toBe(0);
    const text = (await rpc('test-runner', 'SendStreamingMessage', userMessage('run the unit suite at 4f2c9e1'))).text;
    expect(text.split('\n').filter((l) => l.startsWith(':'))).toEqual([]);
  });

  it.each([
    ['a text part without mediaType counts as text/plain: accepted', 'code-reviewer', [{ text: 'What do you review?' }], undefined],
    ['a data part counts as application/json: refused where the card does not list it', 'code-reviewer', [{ data: { a: 1 } }], 'application/json'],
    ['a mediaType outside defaultInputModes is refused', 'deployer', [{ text: 'x', mediaType: 'text/x-diff' }], 'text/x-diff'],
  ] as const)("the input check reads the card's defaultInputModes: %s", async (_, agent, parts, refused) => {
    const r = await rpc(agent, 'SendMessage', { message: { messageId: 'm-modes', role: 'ROLE_USER', parts } });
    if (refused === undefined) expect(r.json.result.message.role).toBe('ROLE_AGENT');
    else expect([r.json.error.code, r.json.error.data[0].metadata]).toEqual([-32005, { mediaType: refused }]);
  });

  it("the input check does not read a skill's inputModes", async () => {
    const card: AgentCard = {
      ...testCard(),
      skills: [{ id: 'see', name: 'See', description: 'Looks at images.', tags: ['image'], inputModes: ['image/png'] }],
    };
    const a = await pool.start({ card, behaviour: KIT_BEHAVIOUR, executor: { execute: (ctx) => ctx.reply('seen') } });
    expect((await a.rpc('SendMessage', userMessage('x', { parts: [{ raw: 'iVBORw0KGgo=', mediaType: 'image/png' }] }))).error.code).toBe(-32005);
  });

  it('an artifactUpdate with append for an unknown artifactId starts a new artifact', async () => {
    const chunk = net.pacer.hold('chunk-1');
    const pending = rpc('test-runner', 'SendStreamingMessage', userMessage('run the unit suite at 4f2c9e1'));
    const taskId = await chunk.reached;
    const stored = (await rpc('test-runner', 'GetTask', { id: taskId })).json.result as Json;
    chunk.release();
    const frames = sseFrames((await pending).text).map((f) => (JSON.parse(f) as Json).result as Json);
    const first = frames.find((f) => f.artifactUpdate)!.artifactUpdate as Json;
    expect(first.append).toBe(true);
    expect(stored.artifacts).toEqual([first.artifact]);
  });

  it('when a client answers an interrupted task, the server sets TASK_STATE_WORKING, with no message, before the agent resumes', async () => {
    const task = (await rpc('code-reviewer', 'SendMessage', diffMessage('review this'))).json.result.task as Json;
    const frames = await streamed('code-reviewer', 'SendStreamingMessage', userMessage('main', { taskId: task.id, contextId: task.contextId }));
    expect(frames[1]).toEqual({
      statusUpdate: { contextId: task.contextId, status: { state: 'TASK_STATE_WORKING', timestamp: expect.any(String) }, taskId: task.id },
    });
  });

  it.each([
    ['header 1.0', { 'a2a-version': '1.0' }, '', true],
    ['query 1.0, no header', { 'a2a-version': undefined }, '?A2A-Version=1.0', true],
    ['header 1.1 (same major)', { 'a2a-version': '1.1' }, '', false],
    ['header 1', { 'a2a-version': '1' }, '', false],
    ['no header, no query (0.3)', { 'a2a-version': undefined }, '', false],
  ] as const)('the version check accepts exactly 1.0, from the header or the query: %s', async (_, headers, query, ok) => {
    const r = await rpc('test-runner', 'ListTasks', { pageSize: 1 }, headers, query);
    expect(ok ? r.json.result?.pageSize : r.json.error?.code).toBe(ok ? 1 : -32009);
  });

  it('authentication runs in front of the protocol: 401 with WWW-Authenticate before any A2A method, in both bindings', async () => {
    const noAuth = { authorization: undefined, 'a2a-version': undefined };
    for (const r of [
      await rpc('deployer', 'NoSuchMethod', {}, noAuth),
      await rpc('deployer', 'GetExtendedAgentCard', {}, { ...noAuth, authorization: 'Bearer wrong' }),
      await call('deployer', '/rest/tasks/x'),
      await call('deployer', '/rest/nowhere', { method: 'POST', body: '{' }),
    ]) {
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="deployer"/);
    }
    // With the token the protocol runs: now the missing version is the error.
    expect((await rpc('deployer', 'GetExtendedAgentCard', {}, { 'a2a-version': undefined })).json.error.code).toBe(-32009);
    expect((await call('deployer', '/.well-known/agent-card.json')).status).toBe(200);
  });

  it('a client message with a role other than ROLE_USER gets -32602', async () => {
    const r = await rpc('code-reviewer', 'SendMessage', { message: { messageId: 'm-role', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
    expect([r.json.error.code, r.json.error.data[0].metadata.errors]).toEqual([
      -32602,
      [{ field: 'message.role', message: 'Field must be ROLE_USER.' }],
    ]);
  });

  // Runtime gap: runtime/a2a/http.ts writes `{...body, id, jsonrpc}` (the SDK's order) and has no toggle for it.
  it('JSON-RPC envelopes are written jsonrpc, id, result (or error), replies and stream frames alike', async () => {
    const r = await rpc('test-runner', 'ListTasks', { pageSize: 1 });
    expect(Object.keys(r.json)).toEqual(['jsonrpc', 'id', 'result']);
    const failed = await rpc('test-runner', 'GetTask', { id: 'no-such-task' });
    expect(Object.keys(failed.json)).toEqual(['jsonrpc', 'id', 'error']);
    const frames = sseFrames((await rpc('code-reviewer', 'SendStreamingMessage', diffMessage('review this'))).text);
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) expect(Object.keys(JSON.parse(f) as object)).toEqual(['jsonrpc', 'id', 'result']);
  });
});
