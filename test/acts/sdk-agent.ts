/**
 * @module test/acts/sdk-agent — the ACTS test agent (samples/acts-agent.ts) written a second time on the official
 * `@a2a-js/sdk` 1.3 server classes (DefaultRequestHandler, InMemoryTaskStore, InMemoryPushNotificationStore with
 * the SDK's DefaultPushNotificationSender, the Express JSON-RPC, REST and agent-card handlers): the same card
 * content and the same §11.2 behaviours, for cross-checking the runner and our agent against the SDK's server.
 * JSON-RPC at `<url>/jsonrpc`, HTTP+JSON at `<url>/rest`, the card at the well-known path.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { AgentCard, Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { card as actsCard } from '../../generated/samples/acts-agent/index.ts';
import {
  CHUNKS,
  DATA_PART,
  DONE,
  FILE_PART,
  FILE_URL_PART,
  type Prefix,
  prefixOf,
  STREAMED_CONTENT,
  TEXT_CONTENT,
} from '../../samples/acts-agent/content.ts';
import type { Part as WirePart } from '../../runtime/a2a/types.ts';

/** The little of Express used here (express is a devDependency without @types/express). */
interface ExpressApp {
  (req: IncomingMessage, res: ServerResponse): void;
  use(path: string, handler: unknown): ExpressApp;
}
const express = createRequire(import.meta.url)('express') as () => ExpressApp;

export interface SdkActsAgent {
  /** The server's base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  close(): Promise<void>;
}

/** One of content.ts's parts (A2A 1.0 JSON) in the SDK's decoded shape. */
function sdkPart(part: WirePart): Part {
  const base = { metadata: undefined, filename: part.filename ?? '', mediaType: part.mediaType ?? '' };
  if (part.raw !== undefined) return { ...base, content: { $case: 'raw', value: Buffer.from(part.raw, 'base64') } };
  if (part.url !== undefined) return { ...base, content: { $case: 'url', value: part.url } };
  if (part.data !== undefined) return { ...base, content: { $case: 'data', value: part.data } };
  return { ...base, content: { $case: 'text', value: part.text ?? '' } };
}

function textOf(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');
}

/** The SDK parts back to A2A 1.0 JSON, enough for prefixOf (the first text part). */
function wireParts(parts: readonly Part[]): WirePart[] {
  return parts.flatMap((p) => (p.content?.$case === 'text' ? [{ text: p.content.value }] : []));
}

function agentMessage(contextId: string, taskId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [sdkPart({ text })],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The §11.2 behaviours in the SDK's terms: events published on the task's bus. */
class ActsExecutor implements AgentExecutor {
  readonly #contexts = new Map<string, string>();
  readonly #cancels = new Map<string, () => void>();
  readonly #longRunningMs: number;

  constructor(longRunningMs: number) {
    this.#longRunningMs = longRunningMs;
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const text = textOf(ctx.userMessage.parts);
    this.#contexts.set(taskId, contextId);
    const status = (state: TaskState, message?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: message === undefined ? undefined : agentMessage(contextId, taskId, message),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    const artifact = (artifactId: string, name: string, parts: readonly WirePart[], append: boolean, lastChunk: boolean) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId, name, description: '', parts: parts.map(sdkPart), metadata: undefined, extensions: [] },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );
    const completeWith = (name: string, parts: readonly WirePart[]) => {
      artifact(randomUUID(), name, parts, false, true);
      status(TaskState.TASK_STATE_COMPLETED, `Completed with the ${name} artifact.`);
    };

    if (ctx.task) {
      // A follow-up turn: the SDK wants the task published first on every execution.
      bus.publish(AgentEvent.task(ctx.task));
      status(TaskState.TASK_STATE_WORKING);
      const started = prefixOf(wireParts(ctx.task.history[0]?.parts ?? []));
      if (started === 'tck-multi-turn' && text.trim() !== DONE)
        return status(TaskState.TASK_STATE_INPUT_REQUIRED, `Noted "${text}"; send "${DONE}" to finish.`);
      return status(TaskState.TASK_STATE_COMPLETED, 'Completed.');
    }
    const prefix: Prefix | undefined = prefixOf(wireParts(ctx.userMessage.parts));
    if (prefix === undefined || prefix === 'tck-message-response') {
      bus.publish(AgentEvent.message(agentMessage(contextId, '', prefix ? `Message response to: ${text}` : 'No ACTS behaviour named.')));
      return;
    }
    const task: Task = {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    if (prefix === 'tck-reject-task') return status(TaskState.TASK_STATE_REJECTED, 'Rejected: this agent refuses tck-reject-task requests.');
    status(TaskState.TASK_STATE_WORKING);
    switch (prefix) {
      case 'tck-complete-task':
        return status(TaskState.TASK_STATE_COMPLETED, `Completed: ${text}`);
      case 'tck-input-required':
      case 'tck-multi-turn':
        return status(TaskState.TASK_STATE_INPUT_REQUIRED, `More input needed; send "${DONE}" to finish.`);
      case 'tck-auth-required':
        return status(TaskState.TASK_STATE_AUTH_REQUIRED, 'Authorization required: sign in, then send any message.');
      case 'tck-task-failure':
        return status(TaskState.TASK_STATE_FAILED, 'Failed: tck-task-failure asks this task to fail.');
      case 'tck-artifact-text':
        return completeWith('text', [{ text: TEXT_CONTENT }]);
      case 'tck-artifact-file':
        return completeWith('file', [FILE_PART]);
      case 'tck-artifact-file-url':
        return completeWith('file-url', [FILE_URL_PART]);
      case 'tck-artifact-data':
        return completeWith('data', [DATA_PART]);
      case 'tck-stream-basic':
        return completeWith('stream', [{ text: STREAMED_CONTENT }]);
      case 'tck-stream-chunked': {
        const artifactId = randomUUID();
        CHUNKS.forEach((chunk, i) => artifact(artifactId, 'chunked', [{ text: chunk }], i > 0, i === CHUNKS.length - 1));
        return status(TaskState.TASK_STATE_COMPLETED);
      }
      case 'tck-long-running':
      case 'tck-cancel': {
        const canceled = await new Promise<boolean>((resolve) => {
          const timer = prefix === 'tck-long-running' ? setTimeout(() => resolve(false), this.#longRunningMs) : undefined;
          this.#cancels.set(taskId, () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        this.#cancels.delete(taskId);
        if (!canceled) completeWith('result', [{ text: `Finished after ${this.#longRunningMs} ms.` }]);
        return;
      }
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const contextId = this.#contexts.get(taskId) ?? '';
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    this.#cancels.get(taskId)?.();
  };

  /** Ends every execution still waiting (tck-cancel tasks nobody canceled). */
  stop(): void {
    for (const cancel of this.#cancels.values()) cancel();
  }
}

/** Starts the SDK ACTS agent on 127.0.0.1 (a free port); `longRunningMs` sets tck-long-running's delay. */
export async function startSdkActsAgent(options: { longRunningMs?: number } = {}): Promise<SdkActsAgent> {
  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const card = AgentCard.fromJSON({
    ...actsCard,
    supportedInterfaces: [
      { url: `${url}/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
  });
  const executor = new ActsExecutor(options.longRunningMs ?? 5000);
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    pushStore,
    new DefaultPushNotificationSender(pushStore),
    undefined,
    undefined,
    {
      keepBusAliveStates: [TaskState.TASK_STATE_INPUT_REQUIRED],
    },
  );
  const app = express()
    .use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }))
    .use('/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
    .use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  http.on('request', app);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        executor.stop();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
