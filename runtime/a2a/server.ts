/**
 * @module a2a/server — an A2A agent's operations, independent of the binding (JSON-RPC or HTTP+JSON):
 * each message runs the agent's executor, whose events are applied in order to the stored task (history
 * bookkeeping as the official SDK keeps it), streamed to the caller and to subscribers, and pushed to
 * registered webhooks. Params arrive already checked against the schema by the binding.
 */
import { randomUUID } from 'node:crypto';
import type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Params,
  ServerHandlers,
} from '@wiregen/a2a-1.0';
import { lookup } from '@wiregen/a2a-1.0';
import { A2aErrors } from './errors.ts';
import { PushSender, type PushOptions } from './push.ts';
import { AsyncQueue } from './queue.ts';
import { copyJson, InMemoryTaskStore, type TaskStore } from './store.ts';
import {
  INTERRUPTED_STATES,
  SDK_BEHAVIOUR,
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

export interface A2aServerOptions {
  readonly card: AgentCard;
  /** The card GetExtendedAgentCard returns (to an authenticated caller); absent: -32004. */
  readonly extendedCard?: AgentCard;
  readonly executor: AgentExecutor;
  /** Default: in memory. */
  readonly store?: TaskStore;
  /** Default: the official SDK's choices. */
  readonly behaviour?: A2aBehaviour;
  /** Id generator (tasks, contexts, messages, artifacts, push configs). Default: random UUIDs. */
  readonly ids?: () => string;
  /** Clock for status timestamps. Default: the system clock. */
  readonly clock?: () => Date;
  readonly push?: PushOptions;
  readonly log?: (line: string) => void;
}

/** Task ids with an execution running, and how to stop it. */
interface Running {
  readonly controller: AbortController;
  readonly handle: TaskHandle;
  readonly done: Promise<void>;
}

/** One operation per method the manifest lists (the generated ServerHandlers' keys), with its typed params. */
type Operations = { readonly [M in keyof Required<ServerHandlers>]: (params: Params<M>) => Promise<unknown> };

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/** `historyLength` semantics (§3.2.4): unset all, 0 none (field omitted), n the last n. */
function withHistory(task: Task, historyLength: number | string | undefined): Task {
  if (historyLength === undefined) return task;
  const n = Number(historyLength);
  const out = { ...task };
  if (n <= 0) delete out.history;
  else if (task.history) out.history = task.history.slice(-n);
  return out;
}

function isTerminal(state: TaskState): boolean {
  return TERMINAL_STATES.has(state);
}

export class A2aServer {
  readonly options: A2aServerOptions;
  readonly behaviour: A2aBehaviour;
  readonly store: TaskStore;
  readonly #ids: () => string;
  readonly #clock: () => Date;
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

  constructor(options: A2aServerOptions) {
    this.options = options;
    this.behaviour = options.behaviour ?? SDK_BEHAVIOUR;
    this.store = options.store ?? new InMemoryTaskStore();
    this.#ids = options.ids ?? randomUUID;
    this.#clock = options.clock ?? (() => new Date());
    this.#push = new PushSender(options.push ?? {}, this.behaviour, options.log);
  }

  get card(): AgentCard {
    return this.options.card;
  }

  newId(): string {
    return this.#ids();
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  log(line: string): void {
    (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  // ---- operations ------------------------------------------------------------------------------------

  /** SendMessage: waits for a message, an interrupted or terminal task, or the agent returning. */
  /**
   * One protocol call, as both bindings make it: the method's capability gates from the dispatch table (the
   * agent card's capabilities; -32003 for push, -32004 otherwise), then its operation. The methods below are
   * the operations themselves and check no gate.
   */
  async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    const entry = lookup(method);
    if (!entry) throw A2aErrors.methodNotFound();
    const caps = this.card.capabilities as Record<string, unknown>;
    for (const gate of entry.capabilities)
      if (gate.side === 'agent' && caps[gate.path[0]!] !== true) throw A2aErrors.capabilityMissing(method, gate.path);
    return this.#operations[method as keyof Operations](params as never);
  }

  /** Each method's operation; keyed by the generated ServerHandlers, so a method the manifest adds fails to compile here. */
  readonly #operations: Operations = {
    SendMessage: (p) => this.sendMessage(p),
    SendStreamingMessage: (p) => this.sendStreamingMessage(p),
    GetTask: (p) => this.getTask(p),
    ListTasks: (p) => this.listTasks(p),
    CancelTask: (p) => this.cancelTask(p),
    SubscribeToTask: (p) => this.subscribeToTask(p),
    CreateTaskPushNotificationConfig: (p) => this.createPushConfig(p),
    GetTaskPushNotificationConfig: (p) => this.getPushConfig(p),
    ListTaskPushNotificationConfigs: (p) => this.listPushConfigs(p),
    DeleteTaskPushNotificationConfig: (p) => this.deletePushConfig(p),
    GetExtendedAgentCard: async () => this.getExtendedAgentCard(),
  };

  async sendMessage(req: SendMessageRequest): Promise<SendMessageResponse> {
    const run = await this.#begin(req);
    const historyLength = req.configuration?.historyLength;
    for await (const event of run.events) {
      if (event.message) return { message: event.message };
      if (event.task && req.configuration?.returnImmediately) break;
      const state = event.statusUpdate?.status.state;
      if (state && (isTerminal(state) || INTERRUPTED_STATES.has(state))) break;
    }
    const task = run.taskId ? await this.store.getTask(run.taskId) : undefined;
    if (!task) throw A2aErrors.internal();
    return { task: withHistory(task, historyLength) };
  }

  /** SendStreamingMessage: the task (or a message), then its updates until the stream closes. */
  async sendStreamingMessage(req: SendMessageRequest): Promise<AsyncIterable<StreamResponse>> {
    const run = await this.#begin(req);
    return this.#closing(run.events);
  }

  async getTask(req: GetTaskRequest): Promise<Task> {
    const task = await this.store.getTask(req.id);
    if (!task) throw A2aErrors.taskNotFound(req.id);
    return withHistory(task, req.historyLength);
  }

  async listTasks(req: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = req.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(req.pageSize);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
      throw A2aErrors.invalidParams([{ field: 'pageSize', message: `Field must be between 1 and ${MAX_PAGE_SIZE}.` }]);
    // Timestamps are compared as instants: the filter is normalised to the form the server stamps
    // (ISO 8601, UTC, milliseconds), which then also orders as text.
    let after: string | undefined;
    if (req.statusTimestampAfter) {
      const ms = Date.parse(req.statusTimestampAfter);
      if (Number.isNaN(ms)) throw A2aErrors.invalidParams([{ field: 'statusTimestampAfter', message: 'Field must be an ISO 8601 timestamp.' }]);
      after = new Date(ms).toISOString();
    }
    const query = {
      ...(req.contextId ? { contextId: req.contextId } : {}),
      ...(req.status && req.status !== 'TASK_STATE_UNSPECIFIED' ? { status: req.status } : {}),
      ...(after ? { statusTimestampAfter: after } : {}),
    };
    const total = await this.store.countTasks(query);
    let offset = 0;
    if (req.pageToken) {
      const token = Buffer.from(req.pageToken, 'base64url').toString('utf8');
      const decoded = Number(token.slice(2));
      if (!token.startsWith('o:') || !Number.isInteger(decoded) || decoded < 0 || decoded > total)
        throw A2aErrors.invalidParams([{ field: 'pageToken', message: 'Invalid page token.' }]);
      offset = decoded;
    }
    const page = (await this.store.listTasks(query, { offset, limit: pageSize })).map((task) => {
      const shaped = withHistory(task, req.historyLength);
      if (!req.includeArtifacts) delete shaped.artifacts;
      return shaped;
    });
    const next = offset + pageSize < total ? Buffer.from(`o:${offset + pageSize}`).toString('base64url') : '';
    return { tasks: page, nextPageToken: next, pageSize, totalSize: total };
  }

  async cancelTask(req: CancelTaskRequest): Promise<Task> {
    const task = await this.store.getTask(req.id);
    if (!task) throw A2aErrors.taskNotFound(req.id);
    if (isTerminal(task.status.state)) throw A2aErrors.taskNotCancelable(req.id);
    const running = this.#running.get(req.id);
    if (running) {
      // A running task: the agent cancels it (by default, the canceled status), then its execution is
      // told to stop; in that order, so the canceled status still reaches the stream that started it.
      const cancel = this.options.executor.cancel?.bind(this.options.executor) ?? ((h: TaskHandle) => h.cancel());
      await cancel(running.handle);
      running.controller.abort();
      await running.done.catch(() => undefined);
    } else {
      // Nothing runs for it (waiting for input): CANCELED is written over its status, message kept.
      const status = { ...task.status, state: 'TASK_STATE_CANCELED' as const, timestamp: this.#now() };
      await this.#apply(task.id, { kind: 'status', status }, undefined);
    }
    const after = await this.store.getTask(req.id);
    return after!;
  }

  async subscribeToTask(req: SubscribeToTaskRequest): Promise<AsyncIterable<StreamResponse>> {
    const task = await this.store.getTask(req.id);
    if (!task) throw A2aErrors.taskNotFound(req.id);
    if (isTerminal(task.status.state)) throw A2aErrors.terminal(req.id, String(task.status.state));
    const queue = new AsyncQueue<StreamResponse>();
    queue.push({ task });
    let set = this.#subscribers.get(req.id);
    if (!set) this.#subscribers.set(req.id, (set = new Set()));
    set.add(queue);
    const unsubscribe = () => {
      set!.delete(queue);
      if (set!.size === 0) this.#subscribers.delete(req.id);
    };
    return this.#closing(queue, unsubscribe, true);
  }

  async createPushConfig(req: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    const taskId = req.taskId ?? '';
    if (!(await this.store.getTask(taskId))) throw A2aErrors.taskNotFound(taskId);
    return this.#savePushConfig(taskId, req);
  }

  async getPushConfig(req: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    const config = (await this.store.getPushConfigs(req.taskId)).find((c) => c.id === req.id);
    if (!config) throw A2aErrors.taskNotFound(req.taskId);
    return config;
  }

  async listPushConfigs(req: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    if (!(await this.store.getTask(req.taskId))) throw A2aErrors.taskNotFound(req.taskId);
    return { configs: await this.store.getPushConfigs(req.taskId), nextPageToken: '' };
  }

  async deletePushConfig(req: DeleteTaskPushNotificationConfigRequest): Promise<Record<string, never> | null> {
    if (!(await this.store.deletePushConfig(req.taskId, req.id))) throw A2aErrors.taskNotFound(req.taskId);
    this.#forgetConfigs(req.taskId);
    return this.behaviour.deleteResult === 'empty' ? {} : null;
  }

  getExtendedAgentCard(): AgentCard {
    if (!this.options.extendedCard) throw A2aErrors.extendedCardNotConfigured();
    return this.options.extendedCard;
  }

  // ---- executions --------------------------------------------------------------------------------------

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

  /** Waits for every running execution and push delivery, then closes the store. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
    await this.#push.drain();
    await this.store.close?.();
  }

  async #savePushConfig(taskId: string, req: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    this.#push.assertAllowed(req.url);
    const id = req.id || (this.behaviour.pushConfigId === 'taskId' ? taskId : this.#ids());
    const config: TaskPushNotificationConfig = { ...req, id, taskId };
    await this.store.savePushConfig(config);
    this.#forgetConfigs(taskId);
    return config;
  }

  #forgetConfigs(taskId: string): void {
    const live = this.#live.get(taskId);
    if (live) live.configs = undefined;
  }

  /** Checks the incoming message, prepares the task it continues, and starts the agent. */
  async #begin(
    req: SendMessageRequest,
  ): Promise<{ events: AsyncQueue<StreamResponse>; finished: Promise<void>; readonly taskId: string | undefined }> {
    const incoming = req.message;
    if (incoming.role !== 'ROLE_USER') throw A2aErrors.invalidParams([{ field: 'message.role', message: 'Field must be ROLE_USER.' }]);
    if (this.behaviour.inputModeCheck) this.#checkInputModes(incoming.parts);
    // A webhook in the request is checked before anything is stored.
    const webhook = req.configuration?.taskPushNotificationConfig;
    if (webhook) {
      if (!this.card.capabilities.pushNotifications) throw A2aErrors.pushNotSupported();
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
        const found = await this.store.getTask(taskId);
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
        await this.store.saveTask(found);
        this.#resuming.set(taskId, events);
        return copyJson(found);
      });
    } else message = { ...incoming, contextId: contextIdOf(undefined) };
    const contextId = message.contextId!;
    const run = { events, finished: Promise.resolve(), taskId: task?.id as string | undefined };
    const controller = new AbortController();
    const pushConfig = req.configuration?.taskPushNotificationConfig;

    if (task) {
      try {
        if (pushConfig) await this.#savePushConfig(task.id, pushConfig);
        events.push({ task: copyJson(task) });
        if (this.behaviour.resumeSetsWorking)
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
          status: self.behaviour.stampSubmitted ? { state: 'TASK_STATE_SUBMITTED', timestamp: self.#now() } : { state: 'TASK_STATE_SUBMITTED' },
        };
        self.#live.delete(taskId);
        await self.store.saveTask(created);
        run.taskId = taskId;
        if (pushConfig) await self.#savePushConfig(taskId, pushConfig);
        events.push({ task: copyJson(created) });
        if (self.behaviour.pushFirstTask) self.#push.deliver(await self.store.getPushConfigs(taskId), { task: created });
        handle = self.#handle(taskId, contextId, events);
        self.#track(taskId, controller, handle, run.finished);
        return handle;
      },
      currentTask() {
        if (!handle) throw new Error('this message continues no task: call startTask()');
        return handle;
      },
    };
    run.finished = this.options.executor.execute(ctx).then(
      () => events.close(),
      async (err: unknown) => {
        this.log(`agent execution failed: ${(err as Error)?.stack ?? String(err)}`);
        try {
          const current = run.taskId ? await this.store.getTask(run.taskId) : undefined;
          if (current && !isTerminal(current.status.state))
            await this.#apply(current.id, { kind: 'status', status: { state: 'TASK_STATE_FAILED', timestamp: this.#now() } }, events);
        } catch (again) {
          this.log(`could not mark the task failed: ${(again as Error)?.message ?? String(again)}`);
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
    const modes = this.card.defaultInputModes;
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
    const task = live?.task ?? (await this.store.getTask(taskId));
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
    await this.store.saveTask(task);
    const configs = live?.configs ?? (await this.store.getPushConfigs(taskId));
    if (this.#running.has(taskId) && !isTerminal(task.status.state)) this.#live.set(taskId, { task, configs });
    else this.#live.delete(taskId);
    events?.push(update);
    for (const subscriber of this.#subscribers.get(taskId) ?? []) subscriber.push(update);
    this.#push.deliver(configs, update);
  }

  /**
   * A stream of updates that closes as the behaviour says: when the agent's execute() returns (the SDK), or
   * at a terminal or input-required state (the kit). Subscriptions always end at a terminal state.
   */
  #closing(source: AsyncQueue<StreamResponse>, onEnd?: () => void, subscription = false): AsyncIterable<StreamResponse> {
    const policy = this.behaviour.streamClose;
    return {
      [Symbol.asyncIterator]: () => {
        const it = source[Symbol.asyncIterator]();
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          source.close();
          onEnd?.();
        };
        return {
          next: async () => {
            if (ended) return { value: undefined, done: true };
            const r = await it.next();
            if (r.done) {
              end();
              return r;
            }
            const state = r.value.statusUpdate?.status.state;
            const closes =
              r.value.message !== undefined ||
              (state !== undefined &&
                (isTerminal(state) || (!subscription && policy === 'terminal-or-input-required' && state === 'TASK_STATE_INPUT_REQUIRED')));
            if (closes && (subscription || policy === 'terminal-or-input-required')) ended = true;
            if (ended) onEnd?.();
            return r;
          },
          return: async () => {
            end();
            return { value: undefined, done: true };
          },
        };
      },
    };
  }
}
