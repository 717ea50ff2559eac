/**
 * @module a2a/executions — running the agent for each message: the executor's events applied in order to the
 * stored task (history bookkeeping as the official SDK keeps it), streamed to the caller and to the task's
 * subscribers, and pushed to its webhooks; one read-modify-write at a time per task; cancellation and the
 * claim that keeps a second answer out of an interrupted task while the first resumes it. Tasks are read and
 * written through a ledger (ledger.ts): this instance's store, or a cluster's, where a write names the version
 * it read (a conflict re-reads and applies the event again), updates reach the other instances' streams, and
 * a dead instance's running tasks are failed by the instance that adopts them.
 */
import type { AuthInfo } from '../auth/info.ts';
import type { SendMessageRequest, StreamResponse } from '@wiregen/a2a-1.0';
import { A2aErrors } from './errors.ts';
import { checkIncoming, type ContinueHost, continueTask } from './message-intake.ts';
import { LazyAbort } from '../jsonrpc/incoming.ts';
import { type ContextHost, MessageContext } from './execution-context.ts';
import type { ClusterHost, TaskLedger } from './ledger.ts';
import type { PushSender } from './push.ts';
import { AsyncQueue, KeyedLock } from './queue.ts';
import { copyJson, StoreUnavailableError, type TaskStore } from './store.ts';
import { closingStream, TaskSubscribers } from './streams.ts';
import { TaskWrites } from './task-writes.ts';
import type { ExecutionOptions, Run, Running } from './execution-options.ts';
import { agentMessage, ORPHANED_STATUS, RESTARTED_STATUS, closedGate, resumedContext, taskHandle } from './task-events.ts';
import { INTERRUPTED_STATES, TERMINAL_STATES } from './types.ts';
import type { A2aBehaviour, AgentEvent, AgentExecutor, Message, Part, Task, TaskHandle, TaskPushNotificationConfig, TaskState } from './types.ts';

export { closedGate, type ExecutionOptions, type Run };

const isTerminal = (state: TaskState): boolean => TERMINAL_STATES.has(state);

/** The executions of one server, with the per-task state they share. */
export class TaskExecutions implements ClusterHost {
  readonly #options: ExecutionOptions;
  readonly #store: TaskStore;
  readonly #ledger: TaskLedger;
  readonly #behaviour: A2aBehaviour;
  readonly #ids: () => string;
  readonly #push: PushSender;
  readonly #running = new Map<string, Running>();
  /** Streams following a task (SubscribeToTask). */
  readonly #subscribers = new TaskSubscribers();
  /** Per-task queue of read-modify-write steps, so two of them never interleave on one task. */
  readonly #locks = new KeyedLock();
  /** Each event's write to its task (task-writes.ts). */
  readonly #writes: TaskWrites;
  /**
   * Tasks an answer has claimed, by the claiming execution's event queue: from the answer until that
   * execution applies its first event or ends, a second answer is refused (the task still looks interrupted).
   */
  readonly #resuming = new Map<string, AsyncQueue<StreamResponse>>();
  /** Tasks whose execution or lease the store's unavailability cut short here, for recoverStranded (a cluster). */
  readonly #stranded = new Set<string>();

  /** What each message's ExecutionContext calls back (execution-context.ts). */
  readonly #contextHost: ContextHost = {
    agentMessage: (contextId, taskId, content) => this.#agentMessage(contextId, taskId, content),
    startTask: (ctx) => this.#startTask(ctx),
  };
  /** What adding a message to a task asks of these executions (message-intake.ts). */
  readonly #continueHost: ContinueHost;
  /** The clock, bound once for every task handle. */
  readonly #stamp = (): string => this.#options.now();

  constructor(options: ExecutionOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#ledger = options.ledger;
    this.#behaviour = options.behaviour;
    this.#ids = options.ids;
    this.#push = options.push;
    this.#continueHost = {
      ledger: options.ledger,
      busy: (taskId, state) => this.#resuming.has(taskId) || (this.#running.has(taskId) && !INTERRUPTED_STATES.has(state)),
      forget: (taskId) => this.#writes.forget(taskId),
    };
    this.#writes = new TaskWrites({
      ledger: options.ledger,
      store: options.store,
      subscribers: this.#subscribers,
      running: (taskId) => this.#running.has(taskId),
      log: (line) => this.#log(line),
    });
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
    return this.stream(queue, this.#subscribers.add(task.id, queue), true);
  }

  /**
   * Cancels `task`: a running one through the agent (by default, the canceled status), then its execution
   * is told to stop, in that order, so the canceled status still reaches the stream that started it; one that
   * nothing runs for (waiting for input) gets CANCELED written over its status, message kept.
   */
  async cancel(task: Task): Promise<void> {
    const running = this.#running.get(task.id);
    if (running) await this.#cancelRunning(running);
    else {
      // In a cluster, the instance running the task cancels it; this one waits until the task has ended.
      if (this.#ledger.shared && (await this.#ledger.forwardCancel(task.id))) return;
      const status = { ...task.status, state: 'TASK_STATE_CANCELED' as const, timestamp: this.#now() };
      await this.#apply(task.id, { kind: 'status', status }, undefined);
    }
  }

  async #cancelRunning(running: Running): Promise<void> {
    const cancel = this.#options.executor.cancel?.bind(this.#options.executor) ?? ((h: TaskHandle) => h.cancel());
    await cancel(running.handle);
    running.abort.abort();
    await running.done.catch(() => undefined);
  }

  /** ClusterHost: another instance's update, for the streams following the task here. */
  onEvent(taskId: string, update: StreamResponse): void {
    this.#writes.forget(taskId);
    this.#subscribers.publish(taskId, update);
  }

  /** ClusterHost: another instance forwards a CancelTask for a task this instance runs. */
  onCancel(taskId: string): void {
    const running = this.#running.get(taskId);
    if (running) this.#cancelRunning(running).catch((err: unknown) => this.#log(`forwarded cancel of ${taskId} failed: ${(err as Error).message}`));
  }

  /** ClusterHost: updates may have been missed; each followed task's current status is sent again (a terminal one ends its streams). */
  resync(): void {
    this.#subscribers.resync(this.#store, (line) => this.#log(line));
  }

  /**
   * ClusterHost: this instance adopted the lease of `taskId` from a dead instance. A task that was running
   * (not interrupted, not ended) is continued by the agent's `resume` when it has one, else failed with a
   * status message saying so and the lease dropped.
   */
  recover(taskId: string, restart = false): Promise<void> {
    return this.#locked(taskId, async () => {
      const read = await this.#ledger.read(taskId);
      const state = read?.task.status.state;
      if (read && state !== undefined && !isTerminal(state) && !INTERRUPTED_STATES.has(state) && !this.#running.has(taskId)) {
        const resume = this.#options.executor.resume?.bind(this.#options.executor);
        // The lease stays this instance's while the agent continues the task (the run's end drops it).
        if (resume) return this.#resume(read.task, resume);
        const message: Message = this.#agentMessage(read.task.contextId ?? '', taskId, restart ? RESTARTED_STATUS : ORPHANED_STATUS);
        await this.#writes.apply(taskId, { kind: 'status', status: { message, state: 'TASK_STATE_FAILED', timestamp: this.#now() } }, undefined);
        this.#log(`task ${taskId} failed: ${restart ? 'the agent stopped' : 'its instance stopped'} while it ran`);
      }
      await this.#ledger.release(taskId);
    });
  }

  /**
   * ClusterHost: the tasks left half-done here while the store was unavailable (an execution stopped by it, a
   * lease not dropped) are taken up again: each whose lease this instance still holds, or can take as no live
   * instance holds it, is recovered as an adopted one (resumed or failed, the lease dropped); one another
   * instance adopted meanwhile is left to it. What fails again stays for the next call.
   */
  async recoverStranded(): Promise<void> {
    for (const taskId of [...this.#stranded]) {
      if (this.#running.has(taskId)) continue;
      this.#stranded.delete(taskId);
      try {
        if (await this.#ledger.claim(taskId)) await this.recover(taskId);
      } catch (err) {
        this.#stranded.add(taskId);
        this.#log(`task ${taskId} not recovered yet: ${(err as Error).message}`);
      }
    }
  }

  /** Runs `step` after every earlier step on the same task (a read-modify-write never interleaves). */
  #locked<T>(taskId: string, step: () => Promise<T>): Promise<T> {
    return this.#locks.run(taskId, step);
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
    this.#writes.forgetConfigs(taskId);
  }

  /** The task as the write of `update` left it, when that write ended or interrupted it (a cluster; task-writes.ts). */
  taskAfter(update: StreamResponse | undefined): Task | undefined {
    return this.#writes.taskAfter(update);
  }

  /**
   * Checks the incoming message, prepares the task it continues, and starts the agent. `blocking`: the caller
   * answers only once the task is interrupted or ended (a SendMessage without returnImmediately).
   */
  async begin(req: SendMessageRequest, auth?: AuthInfo, blocking = false): Promise<Run> {
    const incoming = req.message;
    checkIncoming(req, this.#options.card, this.#behaviour, this.#push);
    const contextIdOf = (task: Task | undefined) => incoming.contextId || task?.contextId || this.#ids();
    const events = new AsyncQueue<StreamResponse>();
    let task: Task | undefined;
    let message: Message = { ...incoming };
    if (incoming.taskId) {
      const taskId = incoming.taskId;
      // One read-modify-write, and the claim that keeps a second answer out until this one's execution is tracked.
      ({ task, message } = await this.#locked(taskId, async () => {
        const continued = await continueTask(this.#continueHost, incoming, taskId, contextIdOf);
        this.#resuming.set(taskId, events);
        return continued;
      }));
    } else message = { ...incoming, contextId: contextIdOf(undefined) };
    const pushConfig = req.configuration?.taskPushNotificationConfig;
    // In a cluster a task nobody else can know of yet (its id only in the blocking answer, no webhook) is
    // inserted by the commit of its first event, not one of its own: one transaction fewer per task.
    const storeWithFirstEvent = blocking && this.#ledger.shared && !pushConfig;
    const run: Run = { events, finished: Promise.resolve(), taskId: task?.id, storeWithFirstEvent };
    const abort = new LazyAbort();

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

    const handle = task ? this.#handle(task.id, message.contextId!, events) : undefined;
    const ctx = new MessageContext(this.#contextHost, message, task && copyJson(task), run, abort, pushConfig, handle, auth);
    this.#launch(run, abort, () => this.#options.executor.execute(ctx), task && handle ? { taskId: task.id, handle } : undefined);
    return run;
  }

  /** ExecutionContext.startTask of a message that continues no task: the task, stored, streamed, and tracked. */
  async #startTask(ctx: MessageContext): Promise<TaskHandle> {
    const { contextId, run, events, pushConfig } = ctx;
    const taskId = this.#ids();
    const created: Task = {
      id: taskId,
      contextId,
      history: [{ ...ctx.message, taskId }],
      status: this.#behaviour.stampSubmitted ? { state: 'TASK_STATE_SUBMITTED', timestamp: this.#now() } : { state: 'TASK_STATE_SUBMITTED' },
    };
    this.#writes.forget(taskId);
    let version = 0;
    if (!run.storeWithFirstEvent) {
      try {
        version = await this.#ledger.create(created);
      } catch (err) {
        // Stored perhaps (the answer lost): recovered later if so; the caller is told to retry either way.
        throw this.#unstarted(run, taskId, err);
      }
    }
    // The first event applies to `created` itself (on one instance the store's own object or its latest
    // version) rather than reading the task back; in a cluster, another instance's write meanwhile is a conflict.
    this.#writes.remember(created, version, run.storeWithFirstEvent);
    run.taskId = taskId;
    try {
      if (pushConfig) await this.savePushConfig(taskId, pushConfig);
      // A snapshot one level deep: events replace the task's members, never change them (task-events.ts applyEvent).
      const first: Task = { ...created };
      events.push({ task: first });
      // A task stored with its first event has no config to push to (none in the request, its id known to nobody).
      if (this.#behaviour.pushFirstTask && !run.storeWithFirstEvent) await this.#ledger.pushFirst(first);
    } catch (err) {
      this.#writes.forget(taskId);
      // Its webhook perhaps not saved: the caller is told to retry rather than given a task that would never push.
      throw this.#unstarted(run, taskId, err);
    }
    const handle = this.#handle(taskId, contextId, events);
    ctx.handle = handle;
    this.#track(taskId, ctx.abort, handle, run.finished);
    return handle;
  }

  /** A new task the store's unavailability cut short before it reached the caller: kept for recovery, the caller told to retry. */
  #unstarted(run: Run, taskId: string, err: unknown): unknown {
    if (!(err instanceof StoreUnavailableError) || !this.#ledger.shared) return err;
    this.#stranded.add(taskId);
    run.taskId = undefined;
    run.unavailable = true;
    return err;
  }

  /**
   * Starts `execute` as `run`'s execution (its promise is run.finished): a failure fails the run's task (if not
   * ended); the end releases the run's claim, stops tracking it and, in a cluster, drops the lease. `tracked`:
   * the task it continues, tracked once run.finished is the execution's own promise, so cancel and close() wait for it.
   */
  #launch(run: Run, abort: LazyAbort, execute: () => Promise<void>, tracked?: { readonly taskId: string; readonly handle: TaskHandle }): void {
    const events = run.events;
    // A task its agent left without a single event is stored as it is (the caller's answer reads it).
    const stored = (id = run.taskId) => (id && this.#writes.unstored(id) ? this.#locked(id, () => this.#writes.store(id)) : undefined);
    run.finished = execute()
      .then(() => stored())
      .then(
        () => events.close(),
        async (err: unknown) => {
          // The store went away under the agent (a cluster): the task is recovered once it is back, not failed now.
          if (run.unavailable) return events.close();
          if (run.taskId && this.#ledger.shared && err instanceof StoreUnavailableError) {
            // Never stored, or its first commit's answer lost: the caller is told to retry, as when a create fails.
            if (this.#writes.unstored(run.taskId)) run.unavailable = true;
            this.#log(`task ${run.taskId} stopped, the store being unavailable: recovered once it is back (${err.message})`);
            this.#stranded.add(run.taskId);
            events.close();
            return;
          }
          this.#log(`agent execution failed: ${(err as Error)?.stack ?? String(err)}`);
          try {
            const current = run.taskId ? (this.#writes.unstored(run.taskId) ?? (await this.#store.getTask(run.taskId))) : undefined;
            if (current && !isTerminal(current.status.state))
              await this.#apply(current.id, { kind: 'status', status: { state: 'TASK_STATE_FAILED', timestamp: this.#now() } }, events);
          } catch (again) {
            this.#log(`could not mark the task failed: ${(again as Error)?.message ?? String(again)}`);
            if (run.taskId && this.#ledger.shared) this.#stranded.add(run.taskId);
          }
          events.close(run.taskId ? undefined : A2aErrors.internal());
        },
      );
    if (tracked) this.#track(tracked.taskId, abort, tracked.handle, run.finished);
    void run.finished.finally(() => {
      if (run.taskId) this.#release(run.taskId, events);
      if (run.taskId && this.#running.get(run.taskId)?.abort === abort) {
        this.#running.delete(run.taskId);
        this.#writes.forget(run.taskId);
      }
      if (run.taskId && this.#ledger.shared) this.#drop(run.taskId);
    });
  }

  /** Continues `task`, adopted from a dead instance, through the agent's `resume` (its updates reach the task's followers). */
  #resume(task: Task, resume: NonNullable<AgentExecutor['resume']>): void {
    const contextId = task.contextId ?? '';
    const run: Run = { events: new AsyncQueue<StreamResponse>(), finished: Promise.resolve(), taskId: task.id };
    const abort = new LazyAbort();
    const handle = this.#handle(task.id, contextId, run.events);
    const ctx = resumedContext(copyJson(task), handle, abort.signal);
    this.#launch(run, abort, () => resume(ctx), { taskId: task.id, handle });
  }

  /** Drops this instance's lease of a task once nothing here runs or resumes it (after the task's earlier writes). */
  #drop(taskId: string): void {
    this.#locked(taskId, async () => {
      // The commit that ended the task dropped it already (task-writes.ts).
      if (this.#writes.unleased(taskId)) return;
      if (!this.#running.has(taskId) && !this.#resuming.has(taskId)) await this.#ledger.release(taskId);
    }).catch((err: unknown) => {
      this.#log(`lease of ${taskId} not released: ${(err as Error).message}`);
      this.#stranded.add(taskId);
    });
  }

  /** Ends the claim of the execution whose events are `events` on `taskId`, if it still holds it. */
  #release(taskId: string, events: AsyncQueue<StreamResponse>): void {
    if (this.#resuming.get(taskId) === events) this.#resuming.delete(taskId);
  }

  #track(taskId: string, abort: LazyAbort, handle: TaskHandle, done: Promise<void>): void {
    this.#running.set(taskId, { abort, handle, done });
  }

  #agentMessage(contextId: string, taskId: string | undefined, content: string | readonly Part[]): Message {
    return agentMessage(this.#ids(), contextId, taskId, content);
  }

  #handle(taskId: string, contextId: string, events: AsyncQueue<StreamResponse>): TaskHandle {
    return taskHandle(taskId, contextId, this.#ids, this.#stamp, async (event) => {
      await this.#apply(taskId, event, events);
      this.#release(taskId, events);
    });
  }

  /** Applies one event to the stored task (task-writes.ts), after every earlier step on it. */
  #apply(taskId: string, event: AgentEvent, events: AsyncQueue<StreamResponse> | undefined): Promise<void> {
    return this.#locked(taskId, () => this.#writes.apply(taskId, event, events));
  }
}
