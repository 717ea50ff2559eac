/**
 * @module a2a/task-writes — one agent event written to its stored task (executions.ts calls it under the
 * task's lock): read (or the version this instance wrote last), apply, save through the ledger (a cluster's
 * compare-and-set commit, read again on a conflict), then the update to the execution's stream, the task's
 * subscribers and its webhooks. In a cluster the writes of one blocking SendMessage are kept to as few
 * database transactions as the protocol allows (docs/deployment.md, "Transactions per task"): no read-back
 * of a task this instance just wrote, the lease dropped by the commit that ends the task, the answer taken
 * from the write that ended (or interrupted) it.
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { LeaseChange } from './cluster.ts';
import { A2aErrors } from './errors.ts';
import type { Saved, TaskLedger } from './ledger.ts';
import type { AsyncQueue } from './queue.ts';
import { TaskConflictError, type TaskStore, type VersionedTask } from './store.ts';
import type { TaskSubscribers } from './streams.ts';
import { applyEvent } from './task-events.ts';
import { type AgentEvent, INTERRUPTED_STATES, type Task, type TaskPushNotificationConfig, TERMINAL_STATES } from './types.ts';

/** Saves of one event that may meet another instance's write before one of them is stored. */
const CONFLICT_ATTEMPTS = 8;

/** What the writes need of the executions that own them. */
export interface WriteHost {
  readonly ledger: TaskLedger;
  readonly store: TaskStore;
  readonly subscribers: TaskSubscribers;
  /** True while an execution of `taskId` runs on this instance (it then holds the task's lease, in a cluster). */
  running(taskId: string): boolean;
  log(line: string): void;
}

/** What this instance keeps of a task its execution writes (TaskWrites.#live). */
interface Live {
  task: Task;
  version: number;
  configs: readonly TaskPushNotificationConfig[] | undefined;
  /** Not stored yet: the next write inserts it. */
  unstored: boolean;
}

export class TaskWrites {
  readonly #host: WriteHost;
  /**
   * The last version of a task this instance wrote, and its push configs, kept while its execution runs so
   * each agent event costs one store write and no read. Only apply() touches these objects (under the task's
   * lock); every other write of the task drops the entry, a change of its configs drops `configs`, and a
   * terminal state or the end of the execution evicts it. In a cluster the entry is as safe: a commit names
   * the version it read, so another instance's write meanwhile is a conflict, and the task is read again.
   */
  readonly #live = new Map<string, Live>();
  /** Tasks (cluster) whose ending commit dropped this instance's lease: the end of their execution need not. */
  readonly #unleased = new Set<string>();
  /** The task as an update left it, when that update ended or interrupted it (cluster): the blocking answer. */
  readonly #after = new WeakMap<StreamResponse, Task>();

  constructor(host: WriteHost) {
    this.#host = host;
  }

  /**
   * `task`, just stored at `version` by this instance: the first event applies to it without reading it back.
   * `unstored` (a cluster's blocking SendMessage, version 0): not stored yet, the first event's commit inserts it.
   */
  remember(task: Task, version: number, unstored = false): void {
    this.#live.set(task.id, { task, version, configs: undefined, unstored });
  }

  /** The task as remembered, while it is not stored yet (remember at version 0, no event since). */
  unstored(taskId: string): Task | undefined {
    const live = this.#live.get(taskId);
    return live?.unstored ? live.task : undefined;
  }

  /** Stores a task still unstored (its agent returned before any event), taking the lease as a create does. */
  async store(taskId: string): Promise<void> {
    const task = this.unstored(taskId);
    if (task) this.#live.set(taskId, { task, version: await this.#host.ledger.create(task), configs: undefined, unstored: false });
  }

  forget(taskId: string): void {
    this.#live.delete(taskId);
  }

  forgetConfigs(taskId: string): void {
    const live = this.#live.get(taskId);
    if (live) live.configs = undefined;
  }

  /** True (once) when the commit that ended `taskId` already dropped this instance's lease. */
  unleased(taskId: string): boolean {
    return this.#unleased.delete(taskId);
  }

  /**
   * The task as stored by the write that produced `update`, when that write ended or interrupted it; a
   * snapshot one level deep (events replace a task's members, never change them: task-events.ts applyEvent).
   */
  taskAfter(update: StreamResponse | undefined): Task | undefined {
    return update && this.#after.get(update);
  }

  /**
   * Applies one event to the stored task, then sends its update to `events` (the execution's stream), to the
   * task's subscribers and to its webhooks. A new status moves the previous status message into history.
   */
  async apply(taskId: string, event: AgentEvent, events: AsyncQueue<StreamResponse> | undefined): Promise<void> {
    const { ledger } = this.#host;
    const live = this.#live.get(taskId);
    let read: VersionedTask | undefined = live ? { task: live.task, version: live.version } : await ledger.read(taskId);
    let unstored = live?.unstored === true;
    let update: StreamResponse;
    let saved: Saved;
    let lease: LeaseChange;
    for (let attempt = 1; ; attempt++) {
      if (!read) throw A2aErrors.taskNotFound(taskId);
      update = applyEvent(read.task, event);
      const ended = TERMINAL_STATES.has(read.task.status.state);
      // The execution running here holds the lease; the commit that ends the task drops it (nothing is left to
      // recover). A task not stored yet is inserted by this commit, which takes the lease unless it ends it.
      if (unstored) lease = ended ? undefined : 'take';
      else lease = ledger.shared && this.#host.running(taskId) && ended ? 'drop' : undefined;
      try {
        saved = await ledger.save(read.task, read.version, update, lease);
        break;
      } catch (err) {
        // Another instance wrote the task first (a cluster only): read it again; an event meets an ended task no more.
        if (!(err instanceof TaskConflictError) || attempt === CONFLICT_ATTEMPTS) throw err;
        this.#live.delete(taskId);
        unstored = false;
        read = await ledger.read(taskId);
        if (read && TERMINAL_STATES.has(read.task.status.state)) {
          this.#host.log(`task ${taskId} ended on another instance: ${event.kind} event not applied`);
          return;
        }
      }
    }
    const task = read.task;
    const state = task.status.state;
    if (lease === 'drop' || (unstored && lease === undefined)) this.#unleased.add(taskId);
    const configs = ledger.shared ? [] : (live?.configs ?? (await this.#host.store.getPushConfigs(taskId)));
    if (this.#host.running(taskId) && !TERMINAL_STATES.has(state)) this.#live.set(taskId, { task, version: saved.version, configs, unstored: false });
    else this.#live.delete(taskId);
    if (ledger.shared && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) this.#after.set(update, { ...task });
    events?.push(update);
    this.#host.subscribers.publish(taskId, update);
    ledger.deliver(saved, configs, update);
  }
}
