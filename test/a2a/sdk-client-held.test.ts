/**
 * @module test/a2a/sdk-client-held — the official `@a2a-js/sdk` 1.3 client against our agents while a task is
 * still running, over both bindings: the test runner (samples/test-runner.ts) held at its `working` point
 * until the test lets it go, so the client can leave the stream, follow the task again (SubscribeToTask: the
 * SDK POSTs `/tasks/{id}:subscribe` over HTTP+JSON, where the proto says GET; both are served) and cancel a
 * WORKING task; and the research agent (samples/research-agent.ts, its card given an HTTP+JSON interface too)
 * for input required and its answer. Each agent is served with `listenA2aHttp` and advertised where it listens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, taskStateToJSON, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import researchAgent from '../../samples/research-agent.ts';
import { createTestRunner } from '../../samples/test-runner.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { gate } from '../helpers/a2a-server.ts';
import { sdkFrame as frame } from './sdk-agent.ts';

/** Runs wait at `working` for their task's gate while `holding` is set. */
let holding = false;
const gates = new Map<string, ReturnType<typeof gate>>();
const gateOf = (taskId: string) => gates.get(taskId) ?? gates.set(taskId, gate()).get(taskId)!;

const runner = createTestRunner({
  pace: async (point, taskId, signal) => {
    if (point !== 'working' || !holding) return;
    await Promise.race([gateOf(taskId).promise, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
  },
});
const research = {
  ...researchAgent,
  card: {
    ...researchAgent.card,
    supportedInterfaces: [
      ...researchAgent.card.supportedInterfaces,
      { url: 'http://127.0.0.1/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
  },
};

let runnerHttp: RunningA2aServer;
let researchHttp: RunningA2aServer;
beforeAll(async () => {
  const serve = async (definition: typeof runner) => {
    const { name: _name, http, ...options } = definition;
    const server = new A2aServer({ ...options, log: () => undefined });
    const running = await listenA2aHttp(server, { ...http });
    server.advertiseAt(running.url);
    return running;
  };
  [runnerHttp, researchHttp] = await Promise.all([serve(runner), serve(research)]);
});
afterAll(async () => {
  holding = false;
  for (const g of gates.values()) g.open();
  await runnerHttp?.close();
  await researchHttp?.close();
});

const say = (text: string, continues?: { taskId: string; contextId: string }) =>
  SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...continues } });

const asTask = (result: Message | Task): Task => {
  if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
};

/** Starts a run held at `working`: reads the stream until the WORKING update, then leaves it. */
async function heldRun(client: Client): Promise<{ taskId: string; seen: string[] }> {
  holding = true;
  const seen: string[] = [];
  let taskId = '';
  for await (const event of client.sendMessageStream(say('run the unit suite at 9b1d7a3'))) {
    seen.push(frame(event));
    if (event.payload?.$case === 'task') taskId = event.payload.value.id;
    if (seen.at(-1) === 'statusUpdate TASK_STATE_WORKING') break;
  }
  return { taskId, seen };
}

const FACTORIES = {
  JSONRPC: () => new ClientFactory({ transports: [new JsonRpcTransportFactory()] }),
  'HTTP+JSON': () => new ClientFactory({ transports: [new RestTransportFactory()] }),
};

describe.each(Object.keys(FACTORIES) as (keyof typeof FACTORIES)[])('the @a2a-js/sdk client, %s, while a task runs', (binding) => {
  let client: Client;
  let researchClient: Client;
  beforeAll(async () => {
    client = await FACTORIES[binding]().createFromUrl(runnerHttp.url);
    researchClient = await FACTORIES[binding]().createFromUrl(researchHttp.url);
  });

  it('leaves the stream of a running task, follows it again, and sees it finish', async () => {
    const { taskId, seen } = await heldRun(client);
    expect(seen).toEqual(['task TASK_STATE_SUBMITTED', 'statusUpdate TASK_STATE_WORKING']);
    const followed: string[] = [];
    const stream = client.resubscribeTask({ tenant: '', id: taskId });
    const first = await stream.next();
    if (first.done) throw new Error('the subscription ended at once');
    followed.push(frame(first.value));
    gateOf(taskId).open();
    for await (const event of stream) followed.push(frame(event));
    // The task as it is now, then the rest of the run.
    expect(followed).toEqual([
      'task TASK_STATE_WORKING',
      'artifactUpdate append=true lastChunk=false',
      'artifactUpdate append=true lastChunk=false',
      'artifactUpdate append=true lastChunk=false',
      'artifactUpdate append=true lastChunk=true',
      'statusUpdate TASK_STATE_COMPLETED',
    ]);
    expect(taskStateToJSON((await client.getTask({ tenant: '', id: taskId })).status!.state)).toBe('TASK_STATE_COMPLETED');
  });

  it('cancels a WORKING task', async () => {
    const { taskId } = await heldRun(client);
    const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(canceled.id).toBe(taskId);
    expect(taskStateToJSON(canceled.status!.state)).toBe('TASK_STATE_CANCELED');
    expect(taskStateToJSON((await client.getTask({ tenant: '', id: taskId })).status!.state)).toBe('TASK_STATE_CANCELED');
  });

  it('input required, then the answer completes the task (the research agent)', async () => {
    const waiting = asTask(await researchClient.sendMessage(say('summarise the meeting')));
    expect(taskStateToJSON(waiting.status!.state)).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = asTask(await researchClient.sendMessage(say('Tuesday', { taskId: waiting.id, contextId: waiting.contextId })));
    expect(taskStateToJSON(done.status!.state)).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('')).toBe(
      "Summary of Tuesday's meeting: three decisions, two actions, no blockers.",
    );
  });
});
