/**
 * @module a2a/store — where tasks and push-notification configs live. The interface is small and
 * asynchronous so a durable store can stand behind it; InMemoryTaskStore is the default,
 * runtime/a2a/store-sqlite.ts keeps them in SQLite across restarts, and runtime/a2a/postgres/ in PostgreSQL,
 * shared by many instances. A store several writers share offers optimistic concurrency
 * ({@link VersionedTaskStore}): each stored task has a version, and a save names the version it was read at.
 */
import type { Task, TaskPushNotificationConfig, TaskState } from './types.ts';

export interface TaskQuery {
  readonly contextId?: string;
  readonly status?: TaskState;
  /** Only tasks whose status timestamp is at or after this instant (ISO 8601). */
  readonly statusTimestampAfter?: string;
}

/** One page of a query's tasks, in listTasks order. */
export interface TaskPage {
  readonly offset: number;
  readonly limit: number;
}

export interface TaskStore {
  /** The task, as a copy the caller owns. */
  getTask(id: string): Promise<Task | undefined>;
  /**
   * Inserts or replaces the task (by id). The store may keep `task` itself rather than a copy: after
   * saving, the caller changes it only in order to save it again (the server does so under the task's lock).
   */
  saveTask(task: Task): Promise<void>;
  /** Tasks matching `query`, most recently updated first (status timestamp, descending); only `page` of them when given. */
  listTasks(query: TaskQuery, page?: TaskPage): Promise<Task[]>;
  /** How many tasks match `query`. */
  countTasks(query: TaskQuery): Promise<number>;
  getPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]>;
  /** Inserts or replaces the config (by task id and id). */
  savePushConfig(config: TaskPushNotificationConfig): Promise<void>;
  /** Removes one config; false when there was none. */
  deletePushConfig(taskId: string, id: string): Promise<boolean>;
  close?(): Promise<void>;
}

/** A task as stored, and its version: 1 when created, one more at each save. */
export interface VersionedTask {
  readonly task: Task;
  readonly version: number;
}

/** A save that named a version the task no longer has (another writer saved it first): nothing was stored. */
export class TaskConflictError extends Error {
  readonly taskId: string;
  constructor(taskId: string, expected: number) {
    super(expected === 0 ? `task ${taskId} already exists` : `task ${taskId} changed since version ${expected} was read: read it again and retry`);
    this.name = 'TaskConflictError';
    this.taskId = taskId;
  }
}

/**
 * The store cannot be reached (its database is down, restarting, or dropped the connection): nothing was
 * stored by the call that failed, or, for a write whose answer was lost, possibly everything it asked. Callers
 * retry later; the server answers a retryable error (A2aErrors.unavailable) and recovers the tasks it ran.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** A store that several writers may share: compare-and-set saves of tasks. */
export interface VersionedTaskStore extends TaskStore {
  /** The task and its version (a copy the caller owns). */
  readTask(id: string): Promise<VersionedTask | undefined>;
  /**
   * Saves `task` if its stored version is still `expected` (0: only if no task has its id), and resolves to
   * the new version; otherwise rejects with TaskConflictError and stores nothing. saveTask, beside it, saves
   * whatever the version (and counts as a save).
   */
  saveTaskIf(task: Task, expected: number): Promise<number>;
}

export function isVersioned(store: TaskStore): store is VersionedTaskStore {
  const s = store as Partial<VersionedTaskStore>;
  return typeof s.readTask === 'function' && typeof s.saveTaskIf === 'function';
}

/** A deep copy of JSON data (tasks, messages, configs): faster than structuredClone for plain values. */
export const copyJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Orders tasks most recently updated first; ties keep their insertion order. */
function byRecentUpdate(a: Task, b: Task): number {
  const ta = a.status.timestamp ?? '';
  const tb = b.status.timestamp ?? '';
  return ta < tb ? 1 : ta > tb ? -1 : 0;
}

function matches(task: Task, query: TaskQuery): boolean {
  if (query.contextId !== undefined && task.contextId !== query.contextId) return false;
  if (query.status !== undefined && task.status.state !== query.status) return false;
  if (query.statusTimestampAfter !== undefined && !(task.status.timestamp !== undefined && task.status.timestamp >= query.statusTimestampAfter))
    return false;
  return true;
}

/** An InMemoryTaskStore's stored task itself (for snapshotTask, below), set by the class's static block. */
let stored: (store: InMemoryTaskStore, id: string) => Task | undefined;

export class InMemoryTaskStore implements VersionedTaskStore {
  static {
    stored = (store, id) => store.#tasks.get(id);
  }

  /** The saved objects themselves (see TaskStore.saveTask); reads copy. */
  readonly #tasks = new Map<string, Task>();
  readonly #versions = new Map<string, number>();
  readonly #configs = new Map<string, Map<string, TaskPushNotificationConfig>>();

  async getTask(id: string): Promise<Task | undefined> {
    const task = this.#tasks.get(id);
    return task && copyJson(task);
  }

  async saveTask(task: Task): Promise<void> {
    this.#tasks.set(task.id, task);
    this.#versions.set(task.id, (this.#versions.get(task.id) ?? 0) + 1);
  }

  async readTask(id: string): Promise<VersionedTask | undefined> {
    const task = this.#tasks.get(id);
    return task && { task: copyJson(task), version: this.#versions.get(id)! };
  }

  async saveTaskIf(task: Task, expected: number): Promise<number> {
    if ((this.#versions.get(task.id) ?? 0) !== expected) throw new TaskConflictError(task.id, expected);
    await this.saveTask(task);
    return expected + 1;
  }

  async listTasks(query: TaskQuery, page?: TaskPage): Promise<Task[]> {
    const all = [...this.#tasks.values()].filter((t) => matches(t, query)).sort(byRecentUpdate);
    return (page ? all.slice(page.offset, page.offset + page.limit) : all).map(copyJson);
  }

  async countTasks(query: TaskQuery): Promise<number> {
    let n = 0;
    for (const task of this.#tasks.values()) if (matches(task, query)) n++;
    return n;
  }

  async getPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    return [...(this.#configs.get(taskId)?.values() ?? [])].map(copyJson);
  }

  async savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    const taskId = config.taskId ?? '';
    let configs = this.#configs.get(taskId);
    if (!configs) this.#configs.set(taskId, (configs = new Map()));
    configs.set(config.id ?? '', copyJson(config));
  }

  async deletePushConfig(taskId: string, id: string): Promise<boolean> {
    return this.#configs.get(taskId)?.delete(id) ?? false;
  }
}

/**
 * The task `store` holds, for a caller that only serialises it and changes nothing in it (the server's
 * SendMessage answer). From an InMemoryTaskStore (itself, not a subclass), a copy one level deep: its members
 * are the stored ones, which is a consistent snapshot because the executions replace a stored task's members
 * (status, history, artifacts) and never change them in place (task-events.ts applyEvent, executions.ts);
 * from any other store, its getTask copy.
 */
export async function snapshotTask(store: TaskStore, id: string): Promise<Task | undefined> {
  if (store.constructor !== InMemoryTaskStore) return store.getTask(id);
  const task = stored(store as InMemoryTaskStore, id);
  return task && { ...task };
}
