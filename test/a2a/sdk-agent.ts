/**
 * @module test/a2a/sdk-agent — the research agent (samples/research-agent.ts) written a second time with the
 * official `@a2a-js/sdk` 1.3 server classes (DefaultRequestHandler, InMemoryTaskStore, the Express JSON-RPC and
 * agent-card handlers), for tests that compare our runtime with the SDK's or drive the SDK with our client.
 * Same card content (its JSONRPC interface pointing at the local server; with `rest`, an HTTP+JSON one too; with
 * `push`, push notifications by the SDK's own sender), same behaviour: "hello…" → a message;
 * "delete…" → rejected; "summarise the meeting" → input required (the answer names the meeting);
 * "check my calendar" → auth required; otherwise a two-chunk "summary" artifact, then completed.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { AgentCard, Role, TaskState, taskStateToJSON, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import researchAgent from '../../samples/research-agent.ts';

/** The little of Express used here (express is a devDependency without @types/express). */
interface ExpressApp {
  (req: IncomingMessage, res: ServerResponse): void;
  use(path: string, handler: unknown): ExpressApp;
}
const express = createRequire(import.meta.url)('express') as () => ExpressApp;

export interface SdkAgentOptions {
  /** Also serve the HTTP+JSON binding at `<url>/rest` (the card lists it after JSON-RPC). Default false. */
  readonly rest?: boolean;
  /** Declare push notifications: the SDK's in-memory config store and default sender. Default false. */
  readonly push?: boolean;
}

export interface SdkAgent {
  /** The server's base URL (`http://127.0.0.1:<port>`); the JSON-RPC endpoint is `<url>/a2a`. */
  readonly url: string;
  /** The card as the SDK serves it. */
  readonly card: AgentCard;
  close(): Promise<void>;
}

function textPart(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' };
}

function textOf(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');
}

function agentMessage(contextId: string, taskId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The research agent's executor in the SDK's terms: events published on the task's bus. */
class ResearchExecutor implements AgentExecutor {
  /** Context of each task seen, for cancelTask (which is given only the task id). */
  readonly #contexts = new Map<string, string>();

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const text = textOf(ctx.userMessage.parts);
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
    const finish = (head: string, body: string) => {
      const artifactId = randomUUID();
      const chunk = (value: string, append: boolean, lastChunk: boolean) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId, name: 'summary', description: '', parts: [textPart(value)], metadata: undefined, extensions: [] },
            append,
            lastChunk,
            metadata: undefined,
          }),
        );
      chunk(head, false, false);
      chunk(body, true, true);
      status(TaskState.TASK_STATE_COMPLETED);
    };

    if (!ctx.task) {
      if (text.startsWith('hello')) {
        bus.publish(AgentEvent.message(agentMessage(contextId, '', 'Hello. Ask me to summarise something.')));
        return;
      }
      this.#contexts.set(taskId, contextId);
      const task: Task = {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      };
      bus.publish(AgentEvent.task(task));
      if (text.startsWith('delete')) return status(TaskState.TASK_STATE_REJECTED, 'I only summarise; I do not delete files.');
      status(TaskState.TASK_STATE_WORKING);
      if (text === 'summarise the meeting') return status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which meeting: Monday's or Tuesday's?");
      if (text === 'check my calendar')
        return status(TaskState.TASK_STATE_AUTH_REQUIRED, 'Sign in to the calendar first: https://calendar.example.com/authorize');
      const subject = text.startsWith('summarise ') ? text.slice('summarise '.length) : text;
      return finish(`Summary of ${subject}: `, 'three decisions, two actions, no blockers.');
    }
    // A follow-up turn: the SDK wants the task published first on every execution.
    this.#contexts.set(taskId, contextId);
    const was = ctx.task.status?.state;
    bus.publish(AgentEvent.task(ctx.task));
    status(TaskState.TASK_STATE_WORKING);
    if (was === TaskState.TASK_STATE_AUTH_REQUIRED) return finish('Today: ', 'design review at 10:00, one-to-one at 15:00.');
    return finish(`Summary of ${text}'s meeting: `, 'three decisions, two actions, no blockers.');
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
  };
}

/** Starts the SDK research agent on 127.0.0.1 (a free port): card at the well-known path, JSON-RPC at /a2a. */
export async function startSdkResearchAgent(options: SdkAgentOptions = {}): Promise<SdkAgent> {
  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  // The sample's card (JSON, as our runtime serves it) read by the SDK's own codec, pointed at this server.
  const interfaces = researchAgent.card.supportedInterfaces.map((i) => ({ ...i, url: `${url}/a2a` }));
  if (options.rest) interfaces.push({ url: `${url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' });
  const card = AgentCard.fromJSON({
    ...researchAgent.card,
    supportedInterfaces: interfaces,
    capabilities: { ...researchAgent.card.capabilities, ...(options.push ? { pushNotifications: true } : {}) },
  });
  // Only INPUT_REQUIRED keeps a task's event bus alive (the default also keeps AUTH_REQUIRED): the SDK's blocking
  // SendMessage goes on draining an AUTH_REQUIRED task's bus in the background, so the follow-up message's events
  // would be applied twice (the appended artifact chunk duplicated). The SDK expects an auth-required task to be
  // resumed by the same execution after out-of-band sign-in; this agent resumes on the client's next message.
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new ResearchExecutor(),
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    {
      keepBusAliveStates: [TaskState.TASK_STATE_INPUT_REQUIRED],
    },
  );
  const app = express()
    .use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }))
    .use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  if (options.rest) app.use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  http.on('request', app);
  return {
    url,
    card,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A compact view of one stream frame as the SDK client decodes it: its case and state, or the artifact chunk flags. */
export function sdkFrame(event: StreamResponse): string {
  const p = event.payload;
  if (p?.$case === 'task') return `task ${taskStateToJSON(p.value.status!.state)}`;
  if (p?.$case === 'statusUpdate') return `statusUpdate ${taskStateToJSON(p.value.status!.state)}`;
  if (p?.$case === 'artifactUpdate') return `artifactUpdate append=${p.value.append} lastChunk=${p.value.lastChunk}`;
  return String(p?.$case);
}

/** What the research agent streams for a summary (both implementations): the task, working, two chunks, completed. */
export const SUMMARY_FRAMES: readonly string[] = [
  'task TASK_STATE_SUBMITTED',
  'statusUpdate TASK_STATE_WORKING',
  'artifactUpdate append=false lastChunk=false',
  'artifactUpdate append=true lastChunk=true',
  'statusUpdate TASK_STATE_COMPLETED',
];
