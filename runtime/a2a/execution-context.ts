/**
 * @module a2a/execution-context — what the agent's `execute` receives for one incoming message (types.ts
 * ExecutionContext); its abort is jsonrpc/incoming.ts LazyAbort, the signal made only when someone reads it.
 * A class: one such object per message, where an object literal of closures with an accessor among them
 * defeats V8's young-generation collection (see runtime/mcp/server/context.ts).
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { AuthInfo } from '../auth/info.ts';
// The execution's abort: its AbortController made when `signal` is first read (most agents never read it).
import type { LazyAbort } from '../jsonrpc/incoming.ts';
import type { Run } from './execution-options.ts';
import type { AsyncQueue } from './queue.ts';
import { textOf } from './task-events.ts';
import type { ExecutionContext, Message, Part, Task, TaskHandle, TaskPushNotificationConfig } from './types.ts';

/** What a MessageContext asks of the executions that made it (executions.ts). */
export interface ContextHost {
  /** An agent message in `contextId` with a fresh id (a reply: no task). */
  agentMessage(contextId: string, taskId: string | undefined, content: string | readonly Part[]): Message;
  /** Creates the task of `ctx`'s message and returns its handle (stored as `ctx.handle`). */
  startTask(ctx: MessageContext): Promise<TaskHandle>;
}

/** The ExecutionContext of one incoming message. */
export class MessageContext implements ExecutionContext {
  readonly message: Message;
  readonly task: Task | undefined;
  readonly contextId: string;
  readonly text: string;
  /** The execution's events (its caller's stream) and the run they belong to. */
  readonly events: AsyncQueue<StreamResponse>;
  readonly run: Run;
  readonly abort: LazyAbort;
  /** The webhook given with the message, saved for the task it creates. */
  readonly pushConfig: TaskPushNotificationConfig | undefined;
  /** The task's handle: the continued task's, or the one startTask() created. */
  handle: TaskHandle | undefined;
  readonly auth: AuthInfo | undefined;
  readonly #host: ContextHost;

  constructor(
    host: ContextHost,
    message: Message,
    task: Task | undefined,
    run: Run,
    abort: LazyAbort,
    pushConfig: TaskPushNotificationConfig | undefined,
    handle: TaskHandle | undefined,
    auth?: AuthInfo,
  ) {
    this.#host = host;
    this.message = message;
    this.task = task;
    this.contextId = message.contextId!;
    this.text = textOf(message.parts);
    this.events = run.events;
    this.run = run;
    this.abort = abort;
    this.pushConfig = pushConfig;
    this.handle = handle;
    this.auth = auth;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  // Fields, not prototype methods: an agent may destructure them (`async execute({ reply, startTask })`).
  readonly reply = async (content: string | readonly Part[]): Promise<void> => {
    this.events.push({ message: this.#host.agentMessage(this.contextId, undefined, content) });
  };

  readonly startTask = (): Promise<TaskHandle> => (this.handle ? Promise.resolve(this.handle) : this.#host.startTask(this));

  readonly currentTask = (): TaskHandle => {
    if (!this.handle) throw new Error('this message continues no task: call startTask()');
    return this.handle;
  };
}
