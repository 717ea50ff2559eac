/**
 * @module a2a/executions — running the agent for each message: the executor's events applied in order to the
 * stored task (history bookkeeping as the official SDK keeps it), streamed to the caller and to the task's
 * subscribers, and pushed to its webhooks; one read-modify-write at a time per task; cancellation and the
 * claim that keeps a second answer out of an interrupted task while the first resumes it.
 */
import type { CapabilityGate, MethodEntry, SendMessageRequest, StreamResponse } from '@wiregen/a2a-1.0';
import { lookup } from '@wiregen/a2a-1.0';
import { A2aErrors } from './errors.ts';
import type { PushSender } from './push.ts';
import { AsyncQueue } from './queue.ts';
import { copyJson, type TaskStore } from './store.ts';
import { closingStream } from './streams.ts';
import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type A2aBehaviour,
  type AgentCard,
  type AgentEvent,
  type AgentExecutor,
  type ExecutionContext,
  type Message,
  type Part,
  type Task,
  type TaskHandle,
  type TaskPushNotificationConfig,
  type TaskState,
} from './types.ts';

/** The first of `entry`'s agent gates the card's capabilities leave closed, or undefined when all are open. */
export function closedGate(entry: MethodEntry, card: AgentCard): CapabilityGate | undefined {
  const caps = card.capabilities as Record<string, unknown>;
  return entry.capabilities.find((gate) => gate.side === 'agent' && caps[gate.path[0]!] !== true);
}

function isTerminal(state: TaskState): boolean {
  return TERMINAL_STATES.has(state);
}

function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/** What the executions read of the server's configuration. */
export interface ExecutionOptions {
  readonly card: AgentCard;
  readonly executor: AgentExecutor;
  readonly store: TaskStore;
  readonly behaviour: A2aBehaviour;
  readonly ids: () => string;
  readonly now: () => string;
  readonly push: PushSender;
  readonly log: (line: string) => void;
}

/** Task ids with an execution running, and how to stop it. */
interface Running {
  readonly controller: AbortController;
  readonly handle: TaskHandle;
  readonly done: Promise<void>;
}

/** One message's execution: the events the caller streams, and the task it runs, once there is one. */
export interface Run {
  readonly events: AsyncQueue<StreamResponse>;
  finished: Promise<void>;
  taskId: string | undefined;
}

/** The executions of one server, with the per-task state they share. */
export class TaskExecutions {
  readonly #options: ExecutionOptions;
  readonly #store: TaskStore;
  readonly #behaviour: A2aBehaviour;
  readonly #ids: () => string;
  readonly #push: PushSender;
  readonly #running = new Map<string, Running>();
  /** Streams following a task (SubscribeToTask), by task id. */
  readonly #subscribers = new Map<string, Set<AsyncQueue<StreamResponse>>>();
  /** Per-task queue of read-modify-write steps, so two of them never interleave on one task. */
  readonly #locks = new Map<string, Promise<unknown>>();
  /**
   * The last version of a task #applyNow wrote, and its push configs, kept while its execution runs so each
   * agent event costs one store write and no read. Only #applyNow touches these objects (under the task's
   * lock); every other write of the task drops the entry, a change of its configs drops `configs`, and a
   * terminal state or the end of the execution evicts it.
   */
  readonly #live = new Map<string, { task: Task; configs: TaskPushNotificationConfig[] | undefined }>();
  /**
   * Tasks an answer has claimed, by the claiming execution's event queue: from the answer until that
   * execution applies its first event or ends, a second answer is refused (the task still looks interrupted).
   */
  readonly #resuming = new Map<string, AsyncQueue<StreamResponse>>();

  constructor(options: ExecutionOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#behaviour = options.behaviour;
    this.#ids = options.ids;
    this.#push = options.push;
  }

  #now(): string {
    return this.#options.now();
  }

  #log(line: string): void {
    this.#options.log(line);
  }

  /** A stream of `source`'s updates that closes as the behaviour says (streams.ts). */
  stream(source: AsyncQueue<StreamResponse>, onEnd?: () => void, subscription = false): AsyncIterable<StreamResponse> {
    return closingStream(source, this.#behaviour.streamClose, onEnd, subscription);
  }

  /** SubscribeToTask's stream: the task, then its updates, until it ends. */
  subscribe(task: Task): AsyncIterable<StreamResponse> {
    const queue = new AsyncQueue<StreamResponse>();
    queue.push({ task });
    let set = this.#subscribers.get(task.id);
    if (!set) this.#subscribers.set(task.id, (set = new Set()));
    set.add(queue);
    const unsubscribe = () => {
      set!.delete(queue);
      if (set!.size === 0) this.#subscribers.delete(task.id);
    };
    return this.stream(queue, unsubscribe, true);
  }

  /**
   * Cancels `task`: a running one through the agent (by default, the canceled status), then its execution
   * is told to stop, in that order, so the canceled status still reaches the stream that started it; one that
   * nothing runs for (waiting for input) gets CANCELED written over its status, message kept.
   */
  async cancel(task: Task): Promise<void> {
    const running = this.#running.get(task.id);
    if (running) {
      const cancel = this.#options.executor.cancel?.bind(this.#options.executor) ?? ((h: TaskHandle) => h.cancel());
      await cancel(running.handle);
      running.controller.abort();
      await running.done.catch(() => undefined);
    } else {
      const status = { ...task.status, state: 'TASK_STATE_CANCELED' as const, timestamp: this.#now() };
      await this.#apply(task.id, { kind: 'status', status }, undefined);
    }
  }

  /** Runs `step` after every earlier step on the same task (a read-modify-write never interleaves). */
  #locked<T>(taskId: string, step: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(taskId) ?? Promise.resolve();
    const run = previous.then(step, step);
    const tail = run.catch(() => undefined);
    this.#locks.set(taskId, tail);
    void tail.then(() => {
      if (this.#locks.get(taskId) === tail) this.#locks.delete(taskId);
    });
    return run;
  }

  /** Waits for every running execution and push delivery. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
    await this.#push.drain();
  }

  async savePushConfig(taskId: string, req: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    this.#push.assertAllowed(req.url);
    const id = req.id || (this.#behaviour.pushConfigId === 'taskId' ? taskId : this.#ids());
    const config: TaskPushNotificationConfig = { ...req, id, taskId };
    await this.#store.savePushConfig(config);
    this.forgetConfigs(taskId);
    return config;
  }

  forgetConfigs(taskId: string): void {
    const live = this.#live.get(taskId);
    if (live) live.configs = undefined;
  }

  /** Checks the incoming message, prepares the task it continues, and starts the agent. */
  async begin(req: SendMessageRequest): Promise<Run> {
    const incoming = req.message;
    if (incoming.role !== 'ROLE_USER') throw A2aErrors.invalidParams([{ field: 'message.role', message: 'Field must be ROLE_USER.' }]);
    if (this.#behaviour.inputModeCheck) this.#checkInputModes(incoming.parts);
    // A webhook in the request is checked before anything is stored.
    const webhook = req.configuration?.taskPushNotificationConfig;
    if (webhook) {
      // A webhook given with the message is a push config created with it: the gate of creating one.
      const gate = closedGate(lookup('CreateTaskPushNotificationConfig')!, this.#options.card);
      if (gate) throw A2aErrors.capabilityMissing('CreateTaskPushNotificationConfig', gate.path);
      this.#push.assertAllowed(webhook.url);
    }
    const contextIdOf = (task: Task | undefined) => incoming.contextId || task?.contextId || this.#ids();
    const events = new AsyncQueue<StreamResponse>();
    let task: Task | undefined;
    let message: Message = { ...incoming };
    if (incoming.taskId) {
      const taskId = incoming.taskId;
      // One read-modify-write: the checks, the status message moving into history, then the client's
      // message, and the claim that keeps a second answer out until this one's execution is tracked.
      task = await this.#locked(taskId, async () => {
        const found = await this.#store.getTask(taskId);
        if (!found) throw A2aErrors.taskNotFound(taskId);
        if (isTerminal(found.status.state)) throw A2aErrors.terminal(found.id, String(found.status.state));
        // A task that is working (not waiting for the client) takes no new message until it stops or is cancelled.
        if (this.#resuming.has(taskId) || (this.#running.has(taskId) && !INTERRUPTED_STATES.has(found.status.state)))
          throw A2aErrors.unsupported(`Task ${taskId} is still running; wait for it or cancel it`, { taskId });
        message = { ...incoming, contextId: contextIdOf(found), taskId };
        if (found.status.message) found.history = [...(found.history ?? []), found.status.message];
        found.history = [...(found.history ?? []), message];
        found.status = { ...found.status };
        delete found.status.message;
        this.#live.delete(taskId);
        await this.#store.saveTask(found);
        this.#resuming.set(taskId, events);
        return copyJson(found);
      });
    } else message = { ...incoming, contextId: contextIdOf(undefined) };
    const contextId = message.contextId!;
    const run: Run = { events, finished: Promise.resolve(), taskId: task?.id };
    const controller = new AbortController();
    const pushConfig = req.configuration?.taskPushNotificationConfig;

    if (task) {
      try {
        if (pushConfig) await this.savePushConfig(task.id, pushConfig);
        events.push({ task: copyJson(task) });
        if (this.#behaviour.resumeSetsWorking)
          await this.#apply(task.id, { kind: 'status', status: { state: 'TASK_STATE_WORKING', timestamp: this.#now() } }, events);
      } catch (err) {
        this.#release(task.id, events);
        throw err;
      }
    }

    const self = this;
    let handle: TaskHandle | undefined = task ? this.#handle(task.id, contextId, events) : undefined;
    const ctx: ExecutionContext = {
      message,
      task: task && copyJson(task),
      contextId,
      text: textOf(message.parts),
      signal: controller.signal,
      async reply(content) {
        events.push({ message: self.#agentMessage(contextId, undefined, content) });
      },
      async startTask() {
        if (handle) return handle;
        const taskId = self.#ids();
        const created: Task = {
          id: taskId,
          contextId,
          history: [{ ...message, taskId }],
          status: self.#behaviour.stampSubmitted ? { state: 'TASK_STATE_SUBMITTED', timestamp: self.#now() } : { state: 'TASK_STATE_SUBMITTED' },
        };
        self.#live.delete(taskId);
        await self.#store.saveTask(created);
        run.taskId = taskId;
        if (pushConfig) await self.savePushConfig(taskId, pushConfig);
        events.push({ task: copyJson(created) });
        if (self.#behaviour.pushFirstTask) self.#push.deliver(await self.#store.getPushConfigs(taskId), { task: created });
        handle = self.#handle(taskId, contextId, events);
        self.#track(taskId, controller, handle, run.finished);
        return handle;
      },
      currentTask() {
        if (!handle) throw new Error('this message continues no task: call startTask()');
        return handle;
      },
    };
    run.finished = this.#options.executor.execute(ctx).then(
      () => events.close(),
      async (err: unknown) => {
        this.#log(`agent execution failed: ${(err as Error)?.stack ?? String(err)}`);
        try {
          const current = run.taskId ? await this.#store.getTask(run.taskId) : undefined;
          if (current && !isTerminal(current.status.state))
            await this.#apply(current.id, { kind: 'status', status: { state: 'TASK_STATE_FAILED', timestamp: this.#now() } }, events);
        } catch (again) {
          this.#log(`could not mark the task failed: ${(again as Error)?.message ?? String(again)}`);
        }
        events.close(run.taskId ? undefined : A2aErrors.internal());
      },
    );
    // Tracked once run.finished is the execution's own promise, so cancel and close() wait for it.
    if (task && handle) this.#track(task.id, controller, handle, run.finished);
    void run.finished.finally(() => {
      if (run.taskId) this.#release(run.taskId, events);
      if (run.taskId && this.#running.get(run.taskId)?.controller === controller) {
        this.#running.delete(run.taskId);
        this.#live.delete(run.taskId);
      }
    });
    return run;
  }

  /** Ends the claim of the execution whose events are `events` on `taskId`, if it still holds it. */
  #release(taskId: string, events: AsyncQueue<StreamResponse>): void {
    if (this.#resuming.get(taskId) === events) this.#resuming.delete(taskId);
  }

  #track(taskId: string, controller: AbortController, handle: TaskHandle, done: Promise<void>): void {
    this.#running.set(taskId, { controller, handle, done });
  }

  #checkInputModes(parts: readonly Part[]): void {
    const modes = this.#options.card.defaultInputModes;
    for (const part of parts) {
      const type = part.mediaType || (part.text !== undefined ? 'text/plain' : part.data !== undefined ? 'application/json' : undefined);
      if (type !== undefined && !modes.includes(type)) throw A2aErrors.contentType(type);
    }
  }

  #agentMessage(contextId: string, taskId: string | undefined, content: string | readonly Part[]): Message {
    const parts = typeof content === 'string' ? [{ text: content }] : [...content];
    return { contextId, messageId: this.#ids(), parts, role: 'ROLE_AGENT', ...(taskId ? { taskId } : {}) };
  }

  #handle(taskId: string, contextId: string, events: AsyncQueue<StreamResponse>): TaskHandle {
    const status = (state: TaskState) => async (message?: Message) => {
      await this.#apply(taskId, { kind: 'status', status: { ...(message ? { message } : {}), state, timestamp: this.#now() } }, events);
      this.#release(taskId, events);
    };
    return {
      taskId,
      contextId,
      agentMessage: (content) => this.#agentMessage(contextId, taskId, content),
      working: status('TASK_STATE_WORKING'),
      inputRequired: status('TASK_STATE_INPUT_REQUIRED'),
      authRequired: status('TASK_STATE_AUTH_REQUIRED'),
      complete: status('TASK_STATE_COMPLETED'),
      fail: status('TASK_STATE_FAILED'),
      reject: status('TASK_STATE_REJECTED'),
      cancel: status('TASK_STATE_CANCELED'),
      artifact: async (chunk) => {
        const artifactId = chunk.artifactId ?? this.#ids();
        const artifact = { artifactId, ...(chunk.name !== undefined ? { name: chunk.name } : {}), parts: [...chunk.parts] };
        await this.#apply(
          taskId,
          { kind: 'artifact', artifact, ...(chunk.append ? { append: true } : {}), ...(chunk.lastChunk ? { lastChunk: true } : {}) },
          events,
        );
        this.#release(taskId, events);
        return artifactId;
      },
    };
  }

  /**
   * Applies one event to the stored task, then sends its update to the execution's stream, to the task's
   * subscribers and to its webhooks. A new status moves the previous status message into history.
   */
  #apply(taskId: string, event: AgentEvent, events: AsyncQueue<StreamResponse> | undefined): Promise<void> {
    return this.#locked(taskId, () => this.#applyNow(taskId, event, events));
  }

  async #applyNow(taskId: string, event: AgentEvent, events: AsyncQueue<StreamResponse> | undefined): Promise<void> {
    const live = this.#live.get(taskId);
    const task = live?.task ?? (await this.#store.getTask(taskId));
    if (!task) throw A2aErrors.taskNotFound(taskId);
    let update: StreamResponse;
    if (event.kind === 'status') {
      const previous = task.status.message;
      if (previous && event.status.message?.messageId !== previous.messageId) task.history = [...(task.history ?? []), previous];
      task.status = event.status;
      update = { statusUpdate: { contextId: task.contextId ?? '', status: event.status, taskId } };
    } else {
      const artifacts = [...(task.artifacts ?? [])];
      const at = artifacts.findIndex((a) => a.artifactId === event.artifact.artifactId);
      if (at >= 0 && event.append) artifacts[at] = { ...artifacts[at]!, parts: [...artifacts[at]!.parts, ...event.artifact.parts] };
      else if (at >= 0) artifacts[at] = event.artifact;
      else artifacts.push(event.artifact);
      task.artifacts = artifacts;
      update = {
        artifactUpdate: {
          ...(event.append ? { append: true } : {}),
          artifact: event.artifact,
          contextId: task.contextId ?? '',
          ...(event.lastChunk ? { lastChunk: true } : {}),
          taskId,
        },
      };
    }
    await this.#store.saveTask(task);
    const configs = live?.configs ?? (await this.#store.getPushConfigs(taskId));
    if (this.#running.has(taskId) && !isTerminal(task.status.state)) this.#live.set(taskId, { task, configs });
    else this.#live.delete(taskId);
    events?.push(update);
    for (const subscriber of this.#subscribers.get(taskId) ?? []) subscriber.push(update);
    this.#push.deliver(configs, update);
  }
}
