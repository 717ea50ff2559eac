/**
 * @module test/a2a/interop — the official `@a2a-js/sdk` 1.3 client against our A2A server:
 * it reads our card, sends, streams, gets and cancels over JSON-RPC with protocol 1.0, and every request it
 * makes is recorded to pin down what it sends (the `A2A-Version: 1.0` header, the 1.0 method names). Then the
 * SDK client against the SDK's own server running the same agent (test/a2a/sdk-agent.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, taskStateToJSON, type Message, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import researchAgent from '../../samples/research-agent.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { sdkFrame as frame, startSdkResearchAgent, SUMMARY_FRAMES, type SdkAgent } from './sdk-agent.ts';

/** One request the SDK made, as it handed it to fetch. */
interface Sent {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: { readonly jsonrpc?: string; readonly method?: string; readonly params?: Record<string, unknown> } | undefined;
}

/** A fetch that records every request before sending it. */
function recordingFetch(log: Sent[]): typeof fetch {
  return async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Sent['body']) : undefined;
    log.push({ url: String(input), headers, body });
    return fetch(input, init);
  };
}

/** A user message as the SDK's own codec builds it from ProtoJSON. */
function userMessage(text: string, continues?: { taskId: string; contextId: string }): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...continues } });
}

function isTask(result: Message | Task): result is Task {
  return 'status' in result;
}

function asTask(result: Message | Task): Task {
  if (!isTask(result)) throw new Error(`expected a task, got the message ${JSON.stringify(result)}`);
  return result;
}

const stateOf = (task: Task) => taskStateToJSON(task.status!.state);
const textOf = (task: Task) => task.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('');

const CARD_PATH = '/interop/agent-card.json';

describe('the @a2a-js/sdk 1.3 client against our server', () => {
  const sent: Sent[] = [];
  let running: RunningA2aServer;
  let client: Client;

  beforeAll(async () => {
    const server = new A2aServer({
      card: researchAgent.card,
      executor: researchAgent.executor,
      behaviour: researchAgent.behaviour,
      log: () => undefined,
    });
    // The sample's card names https://research.example.com/a2a; the SDK picks its endpoint from the card, so a
    // copy pointing at this server is served beside the A2A routes (the JSON-RPC path, /a2a, is the same).
    let localCard = '';
    running = await listenA2aHttp(server, {
      routes: (_req, res, url) => {
        if (url.pathname !== CARD_PATH) return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end(localCard);
        return true;
      },
    });
    localCard = JSON.stringify({
      ...researchAgent.card,
      supportedInterfaces: researchAgent.card.supportedInterfaces.map((i) => ({ ...i, url: `${running.url}/a2a` })),
    });
    const fetchImpl = recordingFetch(sent);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    client = await factory.createFromUrl(running.url, CARD_PATH);
  });

  afterAll(async () => {
    await running?.close();
  });

  it('reads our well-known card with the 1.0 codec', async () => {
    const log: Sent[] = [];
    const card = await new DefaultAgentCardResolver({ fetchImpl: recordingFetch(log) }).resolve(running.url);
    expect(card.name).toBe('Research agent');
    expect(card.supportedInterfaces).toMatchObject([{ url: 'https://research.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
    expect(card.skills.map((s) => s.id)).toEqual(['summarise', 'calendar']);
    expect(log).toMatchObject([{ url: `${running.url}/.well-known/agent-card.json`, headers: { 'a2a-version': '1.0' } }]);
    expect(client.protocolVersion).toBe('1.0');
  });

  it('sends a message and gets the completed task', async () => {
    const task = asTask(await client.sendMessage(userMessage('summarise the design notes')));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task)).toBe('Summary of the design notes: three decisions, two actions, no blockers.');
    expect(task.artifacts.map((a) => a.name)).toEqual(['summary']);
    expect(task.history.map((m) => m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(''))).toEqual([
      'summarise the design notes',
    ]);
  });

  it('gets a message back for "hello"', async () => {
    const result = await client.sendMessage(userMessage('hello there'));
    expect(isTask(result)).toBe(false);
    expect((result as Message).parts[0]?.content).toEqual({ $case: 'text', value: 'Hello. Ask me to summarise something.' });
  });

  it('streams a message: task, statusUpdate, artifactUpdate ×2, statusUpdate', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(userMessage('summarise the design notes'))) events.push(event);
    expect(events.map(frame)).toEqual(SUMMARY_FRAMES);
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value.artifact!] : []));
    expect(new Set(chunks.map((a) => a.artifactId)).size).toBe(1);
    expect(chunks.map((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(''))).toEqual([
      'Summary of the design notes: ',
      'three decisions, two actions, no blockers.',
    ]);
  });

  it('gets a task by id, and an unknown id is TaskNotFoundError', async () => {
    const sentTask = asTask(await client.sendMessage(userMessage('summarise the roadmap')));
    const task = await client.getTask({ tenant: '', id: sentTask.id });
    expect(task.id).toBe(sentTask.id);
    expect(task.contextId).toBe(sentTask.contextId);
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task)).toBe(textOf(sentTask));
    await expect(client.getTask({ tenant: '', id: 'no-such-task' })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('cancels a task waiting for input', async () => {
    const waiting = asTask(await client.sendMessage(userMessage('summarise the meeting')));
    expect(stateOf(waiting)).toBe('TASK_STATE_INPUT_REQUIRED');
    const canceled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(canceled.id).toBe(waiting.id);
    expect(stateOf(canceled)).toBe('TASK_STATE_CANCELED');
    expect(stateOf(await client.getTask({ tenant: '', id: waiting.id }))).toBe('TASK_STATE_CANCELED');
  });

  it('sent protocol 1.0 on every request: A2A-Version header, 1.0 method names, ProtoJSON params', () => {
    const rpc = sent.filter((s) => s.body !== undefined);
    expect(rpc.length).toBeGreaterThan(0);
    for (const s of rpc) {
      expect(s.url).toBe(`${running.url}/a2a`);
      expect(s.headers).toMatchObject({ 'a2a-version': '1.0', 'content-type': 'application/json' });
      expect(s.body?.jsonrpc).toBe('2.0');
    }
    expect(new Set(rpc.map((s) => s.body?.method))).toEqual(new Set(['SendMessage', 'SendStreamingMessage', 'GetTask', 'CancelTask']));
    expect(rpc.find((s) => s.body?.method === 'SendStreamingMessage')?.headers['accept']).toBe('text/event-stream');
    expect(rpc.find((s) => s.body?.method === 'SendMessage')?.body?.params).toMatchObject({
      message: { role: 'ROLE_USER', parts: [{ text: 'summarise the design notes' }] },
      configuration: {},
    });
    expect(rpc.find((s) => s.body?.method === 'GetTask')?.body?.params).toEqual({ id: expect.any(String) });
    // The card fetch carried the header as well.
    expect(sent.find((s) => s.url.endsWith(CARD_PATH))?.headers['a2a-version']).toBe('1.0');
  });
});

/** What the agent made of `text` (and of `answer`, sent to the task it opened): state, status message, artifact text. */
async function outcome(client: Client, text: string, answer?: string): Promise<string> {
  let result = await client.sendMessage(userMessage(text));
  if (answer !== undefined) {
    const task = asTask(result);
    result = await client.sendMessage(userMessage(answer, { taskId: task.id, contextId: task.contextId }));
  }
  if (!isTask(result)) return `message: ${result.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('')}`;
  const message = result.status?.message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
  return [stateOf(result), message, textOf(result)].filter(Boolean).join(' | ');
}

const BEHAVIOUR: [string, string, string | undefined, string][] = [
  ['hello', 'hello there', undefined, 'message: Hello. Ask me to summarise something.'],
  ['delete', 'delete the notes', undefined, 'TASK_STATE_REJECTED | I only summarise; I do not delete files.'],
  ['input required', 'summarise the meeting', undefined, "TASK_STATE_INPUT_REQUIRED | Which meeting: Monday's or Tuesday's?"],
  [
    'the answer',
    'summarise the meeting',
    'Tuesday',
    "TASK_STATE_COMPLETED | Summary of Tuesday's meeting: three decisions, two actions, no blockers.",
  ],
  [
    'auth required',
    'check my calendar',
    undefined,
    'TASK_STATE_AUTH_REQUIRED | Sign in to the calendar first: https://calendar.example.com/authorize',
  ],
  ['after sign-in', 'check my calendar', 'signed in', 'TASK_STATE_COMPLETED | Today: design review at 10:00, one-to-one at 15:00.'],
  [
    'a summary',
    'summarise the design notes',
    undefined,
    'TASK_STATE_COMPLETED | Summary of the design notes: three decisions, two actions, no blockers.',
  ],
];

describe('the @a2a-js/sdk 1.3 client against the SDK research agent (test/a2a/sdk-agent.ts)', () => {
  let agent: SdkAgent;
  let ours: RunningA2aServer;

  beforeAll(async () => {
    agent = await startSdkResearchAgent();
    const server = new A2aServer({
      card: researchAgent.card,
      executor: researchAgent.executor,
      behaviour: researchAgent.behaviour,
      log: () => undefined,
    });
    ours = await listenA2aHttp(server);
  });

  afterAll(async () => {
    await agent?.close();
    await ours?.close();
  });

  it.each(BEHAVIOUR)('behaves as our research agent: %s', async (_name, text, answer, want) => {
    const sdkClient = await new ClientFactory().createFromAgentCard(agent.card);
    const card = { ...agent.card, supportedInterfaces: agent.card.supportedInterfaces.map((i) => ({ ...i, url: `${ours.url}/a2a` })) };
    const ourClient = await new ClientFactory().createFromAgentCard(card);
    expect(await outcome(sdkClient, text, answer)).toBe(want);
    expect(await outcome(ourClient, text, answer)).toBe(want);
  });

  it('sends one message and gets the completed task', async () => {
    const client = await new ClientFactory().createFromUrl(agent.url);
    const task = asTask(await client.sendMessage(userMessage('summarise the design notes')));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task)).toBe('Summary of the design notes: three decisions, two actions, no blockers.');
    expect(task.artifacts.map((a) => a.name)).toEqual(['summary']);
  });
});
