/**
 * @module a2a/cluster — what an A2aServer needs to run as one of many instances behind one address (the
 * `cluster` option): a shared VersionedTaskStore, task events that reach every instance, leases saying which
 * instance runs a task (so a dead instance's tasks are found and recovered), signals between instances
 * (cancel), and a push outbox whose every entry one instance delivers. The PostgreSQL implementation is
 * runtime/a2a/postgres/cluster.ts; nothing here depends on a database.
 *
 * Every instance must serve the same agent with the same card and behaviour, on the same store.
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { VersionedTaskStore } from './store.ts';
import type { Task, TaskPushNotificationConfig } from './types.ts';

/** What one instance tells the others. */
export type ClusterMessage =
  /** An update applied to a task (by `origin`), for the streams following it on other instances. */
  | { readonly kind: 'event'; readonly origin: string; readonly taskId: string; readonly update: StreamResponse }
  /** `origin` asks `to`, which runs the task, to cancel it. */
  | { readonly kind: 'cancel'; readonly origin: string; readonly to: string; readonly taskId: string }
  /** The instance's own connection to the others came back: messages may have been missed meanwhile. */
  | { readonly kind: 'resync' };

/** One push notification waiting in the outbox: its webhook, its JSON body, and who delivers it. */
export interface PushDelivery {
  readonly id: string;
  readonly config: TaskPushNotificationConfig;
  readonly body: string;
}

/** What a commit does to the committing instance's lease on the task. */
export type LeaseChange = 'take' | 'drop' | undefined;

export interface CommitResult {
  readonly version: number;
  /** The push deliveries the commit queued, for this instance to deliver (then settle). */
  readonly deliveries: readonly PushDelivery[];
}

export interface A2aCluster {
  /** This instance's id, unique among the instances sharing the store. */
  readonly instanceId: string;
  readonly store: VersionedTaskStore;
  /** How long an instance that stops renewing its lease is still taken for alive, in milliseconds. */
  readonly leaseMs: number;
  /** Registers this instance, starts renewing its lease and receiving messages. */
  join(listener: (message: ClusterMessage) => void): Promise<void>;
  /**
   * One atomic step: saves `task` if its stored version is `expected` (0: creates it; TaskConflictError
   * otherwise), records `update` for every other instance (a ClusterMessage of kind event) and queues its push
   * deliveries to the task's configs, claimed by this instance; `lease` takes or drops this instance's lease.
   */
  commit(task: Task, expected: number, update: StreamResponse | undefined, lease?: LeaseChange): Promise<CommitResult>;
  /** Queues the push deliveries of `update` to the task's configs without changing the task (its first snapshot). */
  queuePushes(taskId: string, update: StreamResponse): Promise<readonly PushDelivery[]>;
  /** Takes the lease on `taskId` unless a live instance other than this one holds it; that instance, if so. */
  lease(taskId: string): Promise<{ readonly taken: true } | { readonly taken: false; readonly holder: string }>;
  /** The live instance holding the lease on `taskId`, if any. */
  holder(taskId: string): Promise<string | undefined>;
  /** Drops this instance's lease on `taskId` (if it has it). */
  release(taskId: string): Promise<void>;
  /** Sends `message` to the other instances. */
  send(message: ClusterMessage): Promise<void>;
  /** Removes a delivery from the outbox: delivered, or given up after its retries. */
  settle(delivery: PushDelivery): Promise<void>;
  /** Takes over up to `limit` leases of instances that are no longer alive; their task ids. */
  adoptOrphans(limit: number): Promise<string[]>;
  /** Takes over up to `limit` outbox entries of instances no longer alive, oldest first. */
  adoptDeliveries(limit: number): Promise<PushDelivery[]>;
  /** Leaves: stops renewing and listening; what this instance still held becomes the others' to adopt. */
  leave(): Promise<void>;
}
