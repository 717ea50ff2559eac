/**
 * @module test/a2a/client-sdk-agent — our A2A client (`connect` from @wiregen/runtime/a2a, the generated client
 * checking every result) against an agent built with the official `@a2a-js/sdk` 1.3 server
 * (test/a2a/sdk-agent.ts: the SDK's DefaultRequestHandler, its Express JSON-RPC and REST handlers, its push
 * sender), over both bindings: send, stream, input required and its answer, cancel, and a push round trip
 * (a config given with the message, read, listed and deleted; the SDK's webhook deliveries received). What the
 * agent does is written in sdk-agent.ts with the SDK's event bus: that is the oracle here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, SendMessageRequest, StreamResponse, Task } from '@wiregen/a2a-1.0';
import { connect, type A2aClient, type Binding } from '../../runtime/a2a/index.ts';
import { webhookServer, type Webhook } from '../helpers/a2a-server.ts';
import { eventually } from '../helpers/wait.ts';
import { startSdkResearchAgent, type SdkAgent } from './sdk-agent.ts';

let agent: SdkAgent;
let webhook: Webhook;
beforeAll(async () => {
  agent = await startSdkResearchAgent({ rest: true, push: true });
  webhook = await webhookServer();
});
afterAll(async () => {
  await agent?.close();
  await webhook?.close();
});

function send(
  text: string,
  continues?: { readonly taskId: string; readonly contextId: string | undefined },
  configuration?: SendMessageRequest['configuration'],
): SendMessageRequest {
  return {
    message: {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...(continues?.taskId ? { taskId: continues.taskId } : {}),
      ...(continues?.contextId ? { contextId: continues.contextId } : {}),
    },
    ...(configuration ? { configuration } : {}),
  };
}

function taskOf(result: { task?: Task; message?: Message }): Task {
  if (!result.task) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result.task;
}

const textOf = (parts: readonly { text?: string }[] | undefined) => (parts ?? []).map((p) => p.text ?? '').join('');
const artifactText = (task: Task) => (task.artifacts ?? []).map((a) => textOf(a.parts)).join('');

/** A compact view of one stream frame: its case and the state, or the artifact chunk flags. */
function frame(event: StreamResponse): string {
  if (event.task) return `task ${event.task.status.state}`;
  if (event.statusUpdate) return `statusUpdate ${event.statusUpdate.status.state}`;
  if (event.artifactUpdate)
    return `artifactUpdate append=${event.artifactUpdate.append ?? false} lastChunk=${event.artifactUpdate.lastChunk ?? false}`;
  return 'message';
}

describe.each<Binding>(['JSONRPC', 'HTTP+JSON'])('our client against the @a2a-js/sdk agent, %s', (binding) => {
  let client: A2aClient;
  beforeAll(async () => {
    const connected = await connect(agent.url, { binding });
    client = connected.client;
    expect(connected.card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(['JSONRPC', 'HTTP+JSON']);
  });

  it('sends a message and gets the completed task with its artifact', async () => {
    const task = taskOf(await client.sendMessage(send('summarise the design notes')));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(task)).toBe('Summary of the design notes: three decisions, two actions, no blockers.');
    expect(task.artifacts?.map((a) => a.name)).toEqual(['summary']);
    expect((await client.getTask({ id: task.id })).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('gets a message back for "hello"', async () => {
    const result = await client.sendMessage(send('hello there'));
    expect(textOf(result.message?.parts)).toBe('Hello. Ask me to summarise something.');
  });

  it('streams a message: task, working, two artifact chunks, completed', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage(send('summarise the roadmap'))) events.push(event);
    expect(events.map(frame)).toEqual([
      'task TASK_STATE_SUBMITTED',
      'statusUpdate TASK_STATE_WORKING',
      'artifactUpdate append=false lastChunk=false',
      'artifactUpdate append=true lastChunk=true',
      'statusUpdate TASK_STATE_COMPLETED',
    ]);
    const chunks = events.flatMap((e) => (e.artifactUpdate ? [textOf(e.artifactUpdate.artifact.parts)] : []));
    expect(chunks).toEqual(['Summary of the roadmap: ', 'three decisions, two actions, no blockers.']);
  });

  it('input required, then the answer completes the task', async () => {
    const waiting = taskOf(await client.sendMessage(send('summarise the meeting')));
    expect(waiting.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(textOf(waiting.status.message?.parts)).toBe("Which meeting: Monday's or Tuesday's?");
    const done = taskOf(await client.sendMessage(send('Tuesday', { taskId: waiting.id, contextId: waiting.contextId })));
    expect(done.id).toBe(waiting.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(done)).toBe("Summary of Tuesday's meeting: three decisions, two actions, no blockers.");
  });

  it('cancels a task waiting for input', async () => {
    const waiting = taskOf(await client.sendMessage(send('summarise the meeting')));
    const canceled = await client.cancelTask({ id: waiting.id });
    expect(canceled.id).toBe(waiting.id);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect((await client.getTask({ id: waiting.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('push round trip: the config given with the message is read, listed, delivered to and deleted', async () => {
    const token = `token-${binding}`;
    const config = { url: webhook.url, token };
    const waiting = taskOf(await client.sendMessage(send('summarise the meeting', undefined, { taskPushNotificationConfig: config })));
    const listed = await client.listTaskPushNotificationConfigs({ taskId: waiting.id });
    expect(listed.configs).toHaveLength(1);
    const id = listed.configs?.[0]?.id ?? '';
    expect(listed.configs?.[0]).toMatchObject({ taskId: waiting.id, url: webhook.url, token });
    expect(await client.getTaskPushNotificationConfig({ taskId: waiting.id, id })).toMatchObject({ id, taskId: waiting.id, url: webhook.url });
    await client.sendMessage(send('Monday', { taskId: waiting.id, contextId: waiting.contextId }));
    // The SDK's sender posts the task after each event, with the config's token in X-A2A-Notification-Token.
    const ours = () => webhook.received.filter((d) => d.headers['x-a2a-notification-token'] === token);
    const states = () => ours().map((d) => JSON.stringify(d.body).match(/TASK_STATE_[A-Z_]+/)?.[0]);
    await eventually(() => states().includes('TASK_STATE_COMPLETED'), 5000);
    expect(states()).toContain('TASK_STATE_INPUT_REQUIRED');
    for (const d of ours()) expect(JSON.stringify(d.body)).toContain(waiting.id);
    // The SDK answers the delete with null over JSON-RPC, with 204 over HTTP+JSON: both are the empty result.
    expect(await client.deleteTaskPushNotificationConfig({ taskId: waiting.id, id })).toEqual({});
    expect((await client.listTaskPushNotificationConfigs({ taskId: waiting.id })).configs ?? []).toEqual([]);
  });
});
