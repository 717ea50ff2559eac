/**
 * @module a2a/ledger — where the executions (executions.ts) read and write tasks. LocalLedger is one
 * instance's: the store, and webhooks called from this process. ClusterLedger is one of many instances'
 * (runtime/a2a/cluster.ts): compare-and-set commits whose updates reach the other instances' streams, a lease
 * on each task this instance runs, the push outbox (each update delivered by one instance, adopted from a dead
 * one), cancel requests to the instance running a task, and the recovery of a dead instance's tasks.
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { A2aCluster, ClusterMessage, LeaseChange, PushDelivery } from './cluster.ts';
import type { PushSender } from './push.ts';
import type { TaskStore, VersionedTask } from './store.ts';
import { TERMINAL_STATES, type Task, type TaskPushNotificationConfig } from './types.ts';

/** A save's outcome: the task's new version, and the webhook deliveries it queued (cluster). */
export interface Saved {
  readonly version: number;
  readonly deliveries: readonly PushDelivery[];
}

/** What a cluster's messages and timers ask of the executions. */
export interface ClusterHost {
  /** Another instance applied `update` to `taskId`: for this instance's streams following it. */
  onEvent(taskId: string, update: StreamResponse): void;
  /** Another instance asks this one to cancel `taskId`, which it runs. */
  onCancel(taskId: string): void;
  /**
   * This instance took over the lease of `taskId` from a dead instance (`restart`: a single instance found the
   * task unfinished in its store at start, left by an earlier run of itself).
   */
  recover(taskId: string, restart?: boolean): Promise<void>;
  /** Messages may have been missed (the bus reconnected): streams should catch up from the store. */
  resync(): void;
  /** Takes up again the tasks left half-done while the store was unavailable (each recovery sweep). */
  recoverStranded(): Promise<void>;
}

export interface TaskLedger {
  /** True when other instances share the tasks (their configs are then read by the store, not here). */
  readonly shared: boolean;
  /** The task and its version (a copy the caller owns). */
  read(taskId: string): Promise<VersionedTask | undefined>;
  /** Stores a new task this instance runs; its version. */
  create(task: Task): Promise<number>;
  /**
   * Saves `task` read at `version` (TaskConflictError when another writer was first); `update` tells the
   * others; `lease` takes or drops this instance's lease on the task in the same write (cluster).
   */
  save(task: Task, version: number, update: StreamResponse | undefined, lease?: LeaseChange): Promise<Saved>;
  /** Sends `update` to the webhooks: `configs` (local) or the deliveries `saved` queued (cluster). */
  deliver(saved: Saved, configs: readonly TaskPushNotificationConfig[], update: StreamResponse): void;
  /** Sends a task's first snapshot to its webhooks (behaviour pushFirstTask). */
  pushFirst(task: Task): Promise<void>;
  /** Takes the lease of `taskId` for this instance; false when a live instance other than this one holds it. */
  claim(taskId: string): Promise<boolean>;
  /** Drops this instance's lease of `taskId`. */
  release(taskId: string): Promise<void>;
  /**
   * When another live instance runs `taskId`: asks it to cancel the task, waits until the task has ended (at
   * most `waitMs`) and resolves to true. False when no other instance runs it.
   */
  forwardCancel(taskId: string, waitMs?: number): Promise<boolean>;
  start(host: ClusterHost): Promise<void>;
  stop(): Promise<void>;
}

export class LocalLedger implements TaskLedger {
  readonly shared = false;
  readonly #store: TaskStore;
  readonly #push: PushSender;

  constructor(store: TaskStore, push: PushSender) {
    this.#store = store;
    this.#push = push;
  }

  async read(taskId: string): Promise<VersionedTask | undefined> {
    const task = await this.#store.getTask(taskId);
    return task && { task, version: 0 };
  }

  async create(task: Task): Promise<number> {
    await this.#store.saveTask(task);
    return 0;
  }

  async save(task: Task, version: number): Promise<Saved> {
    await this.#store.saveTask(task);
    return { version, deliveries: [] };
  }

  deliver(_saved: Saved, configs: readonly TaskPushNotificationConfig[], update: StreamResponse): void {
    this.#push.deliver(configs, update);
  }

  async pushFirst(task: Task): Promise<void> {
    this.#push.deliver(await this.#store.getPushConfigs(task.id), { task });
  }

  async claim(): Promise<boolean> {
    return true;
  }

  async release(): Promise<void> {}

  async forwardCancel(): Promise<boolean> {
    return false;
  }

  /**
   * Recovers what an earlier run of this instance left running in a persistent store (SQLite): each task still
   * SUBMITTED or WORKING is resumed by the agent or failed (TaskExecutions.recover). Interrupted tasks
   * (input or auth required) wait for their client, as before the restart. An in-memory store starts empty.
   */
  async start(host: ClusterHost): Promise<void> {
    for (const status of RUNNING_STATES) for (const task of await this.#store.listTasks({ status })) await host.recover(task.id, true);
  }

  async stop(): Promise<void> {}
}

/** The states of a task some execution is working on: what a restart leaves without one. */
const RUNNING_STATES = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'] as const;

/** Options of ClusterLedger. */
export interface ClusterLedgerOptions {
  /** How often this instance looks for a dead instance's leases and outbox entries. Default: half the lease time. */
  readonly recoverEveryMs?: number;
  /** Leases and deliveries adopted per look. Default 32 and 256. */
  readonly adoptLeases?: number;
  readonly adoptDeliveries?: number;
}

export class ClusterLedger implements TaskLedger {
  readonly shared = true;
  readonly #cluster: A2aCluster;
  readonly #push: PushSender;
  readonly #log: (line: string) => void;
  readonly #options: ClusterLedgerOptions;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #sweeping: Promise<void> = Promise.resolve();
  /** Outbox entries being removed after their delivery (stop() waits for them). */
  readonly #settling = new Set<Promise<void>>();
  /** Delivered outbox entries whose removal failed (the store unavailable): retried each sweep. */
  readonly #unsettled = new Set<PushDelivery>();

  constructor(cluster: A2aCluster, push: PushSender, log: (line: string) => void, options: ClusterLedgerOptions = {}) {
    this.#cluster = cluster;
    this.#push = push;
    this.#log = log;
    this.#options = options;
  }

  read(taskId: string): Promise<VersionedTask | undefined> {
    return this.#cluster.store.readTask(taskId);
  }

  async create(task: Task): Promise<number> {
    return (await this.#cluster.commit(task, 0, undefined, 'take')).version;
  }

  save(task: Task, version: number, update: StreamResponse | undefined, lease?: LeaseChange): Promise<Saved> {
    return this.#cluster.commit(task, version, update, lease);
  }

  deliver(saved: Saved): void {
    this.#send(saved.deliveries);
  }

  #send(deliveries: readonly PushDelivery[]): void {
    if (deliveries.length === 0) return;
    this.#push.deliverPrepared(deliveries, (i) => {
      const delivery = deliveries[i]!;
      const p = this.#cluster
        .settle(delivery)
        .catch((err: unknown) => {
          // Delivered, but still in the outbox: removed by a later sweep (else sent again by whoever adopts it).
          this.#log(`push outbox entry ${delivery.id} not settled: ${(err as Error).message}`);
          this.#unsettled.add(delivery);
        })
        .finally(() => this.#settling.delete(p));
      this.#settling.add(p);
    });
  }

  async pushFirst(task: Task): Promise<void> {
    this.#send(await this.#cluster.queuePushes(task.id, { task }));
  }

  async claim(taskId: string): Promise<boolean> {
    return (await this.#cluster.lease(taskId)).taken;
  }

  release(taskId: string): Promise<void> {
    return this.#cluster.release(taskId);
  }

  /** The live instance other than this one that runs `taskId`, if any. */
  async runner(taskId: string): Promise<string | undefined> {
    const holder = await this.#cluster.holder(taskId);
    return holder === this.#cluster.instanceId ? undefined : holder;
  }

  async forwardCancel(taskId: string, waitMs = 10_000): Promise<boolean> {
    const runner = await this.runner(taskId);
    if (runner === undefined) return false;
    await this.#cluster.send({ kind: 'cancel', origin: this.#cluster.instanceId, to: runner, taskId });
    const deadline = Date.now() + waitMs;
    for (let wait = 10; Date.now() < deadline; wait = Math.min(wait * 2, 200)) {
      const task = await this.#cluster.store.getTask(taskId);
      if (!task || TERMINAL_STATES.has(task.status.state)) break;
      await new Promise((r) => setTimeout(r, wait));
    }
    return true;
  }

  async start(host: ClusterHost): Promise<void> {
    await this.#cluster.join((message: ClusterMessage) => {
      if (message.kind === 'event') host.onEvent(message.taskId, message.update);
      else if (message.kind === 'cancel') host.onCancel(message.taskId);
      else host.resync();
    });
    const every = this.#options.recoverEveryMs ?? this.#cluster.leaseMs / 2;
    const tick = () => {
      this.#timer = setTimeout(() => {
        this.#sweeping = this.#sweep(host).finally(() => {
          if (!this.#stopped) tick();
        });
      }, every);
      this.#timer.unref();
    };
    tick();
  }

  /** Adopts what dead instances left: their tasks (recovered by the host) and their undelivered pushes. */
  async #sweep(host: ClusterHost): Promise<void> {
    try {
      await this.#settleAgain();
      await host.recoverStranded();
      const tasks = await this.#cluster.adoptOrphans(this.#options.adoptLeases ?? 32);
      for (const taskId of tasks)
        await host.recover(taskId).catch((err: unknown) => this.#log(`task ${taskId} not recovered: ${(err as Error).message}`));
      this.#send(await this.#cluster.adoptDeliveries(this.#options.adoptDeliveries ?? 256));
    } catch (err) {
      this.#log(`cluster recovery failed: ${(err as Error).message}`);
    }
  }

  /** Removes the outbox entries delivered while the store was unavailable; stops at the first failure. */
  async #settleAgain(): Promise<void> {
    for (const delivery of [...this.#unsettled]) {
      await this.#cluster.settle(delivery);
      this.#unsettled.delete(delivery);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#sweeping;
    await this.#push.drain();
    while (this.#settling.size) await Promise.allSettled([...this.#settling]);
    await this.#cluster.leave();
  }
}
