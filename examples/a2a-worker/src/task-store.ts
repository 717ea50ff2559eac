/**
 * @module task-store — the A2A task store of a Worker served by several isolates: the tasks and push configs
 * live in one Durable Object (TaskStoreObject), which every isolate reaches over RPC (DurableTaskStore).
 *
 * Why a Durable Object and not Workers KV: a Durable Object's storage is strongly consistent and one object
 * runs one request's storage operations at a time (its input gate), so a task saved by one isolate is read
 * back by the next GetTask on any other, and a compare-and-set (`saveTaskIf`, VersionedTaskStore) is atomic.
 * KV is eventually consistent (a write may take up to a minute to be seen elsewhere) and has no
 * compare-and-set, so a GetTask right after a non-blocking SendMessage could miss the task, and two writers
 * could overwrite each other. The object lists tasks by reading them all: fine for an agent with hundreds of
 * tasks; beyond, keep them in its SQLite storage with an index.
 */
import { DurableObject } from 'cloudflare:workers';
import { TaskConflictError, type TaskPage, type TaskQuery, type VersionedTaskStore } from '@wiregen/runtime/a2a';
import type { Task, TaskPushNotificationConfig } from '@wiregen/a2a-1.0';

interface Stored {
  readonly task: Task;
  readonly version: number;
}

const TASK = 'task:';
const CONFIG = 'config:';
const configKey = (taskId: string, id: string) => `${CONFIG}${taskId}\u0000${id}`;

function matches(task: Task, query: TaskQuery): boolean {
  if (query.contextId !== undefined && task.contextId !== query.contextId) return false;
  if (query.status !== undefined && task.status.state !== query.status) return false;
  const at = task.status.timestamp;
  return query.statusTimestampAfter === undefined || (at !== undefined && at >= query.statusTimestampAfter);
}

/** The Durable Object holding every task; its methods are the store's, called over RPC. */
export class TaskStoreObject extends DurableObject {
  async read(id: string): Promise<Stored | undefined> {
    return this.ctx.storage.get<Stored>(TASK + id);
  }

  /** Saves whatever the version when `expected` is undefined; else only at that version (0: a new task). */
  async save(task: Task, expected?: number): Promise<number | 'conflict'> {
    const version = (await this.read(task.id))?.version ?? 0;
    if (expected !== undefined && version !== expected) return 'conflict';
    await this.ctx.storage.put<Stored>(TASK + task.id, { task, version: version + 1 });
    return version + 1;
  }

  /** Matching tasks, most recently updated first (TaskStore.listTasks). */
  async list(query: TaskQuery, page?: TaskPage): Promise<Task[]> {
    const all = [...(await this.ctx.storage.list<Stored>({ prefix: TASK })).values()].map((s) => s.task).filter((t) => matches(t, query));
    all.sort((a, b) =>
      (b.status.timestamp ?? '') > (a.status.timestamp ?? '') ? 1 : (b.status.timestamp ?? '') < (a.status.timestamp ?? '') ? -1 : 0,
    );
    return page ? all.slice(page.offset, page.offset + page.limit) : all;
  }

  async configs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    return [...(await this.ctx.storage.list<TaskPushNotificationConfig>({ prefix: `${CONFIG}${taskId}\u0000` })).values()];
  }

  async saveConfig(config: TaskPushNotificationConfig): Promise<void> {
    await this.ctx.storage.put(configKey(config.taskId ?? '', config.id ?? ''), config);
  }

  async deleteConfig(taskId: string, id: string): Promise<boolean> {
    return this.ctx.storage.delete(configKey(taskId, id));
  }
}

/** The TaskStore every isolate's A2aServer uses: each call is an RPC to the one TaskStoreObject. */
export class DurableTaskStore implements VersionedTaskStore {
  readonly #namespace: DurableObjectNamespace<TaskStoreObject>;
  readonly #name: string;

  constructor(namespace: DurableObjectNamespace<TaskStoreObject>, name = 'tasks') {
    this.#namespace = namespace;
    this.#name = name;
  }

  /** A stub per call: a stub is an I/O object of the request that made it, and the store outlives requests. */
  get #object(): DurableObjectStub<TaskStoreObject> {
    return this.#namespace.get(this.#namespace.idFromName(this.#name));
  }

  async getTask(id: string): Promise<Task | undefined> {
    return (await this.#object.read(id))?.task;
  }

  async saveTask(task: Task): Promise<void> {
    await this.#object.save(task);
  }

  readTask(id: string): Promise<Stored | undefined> {
    return this.#object.read(id);
  }

  async saveTaskIf(task: Task, expected: number): Promise<number> {
    const version = await this.#object.save(task, expected);
    if (version === 'conflict') throw new TaskConflictError(task.id, expected);
    return version;
  }

  listTasks(query: TaskQuery, page?: TaskPage): Promise<Task[]> {
    return this.#object.list(query, page);
  }

  async countTasks(query: TaskQuery): Promise<number> {
    return (await this.#object.list(query)).length;
  }

  getPushConfigs(taskId: string): Promise<TaskPushNotificationConfig[]> {
    return this.#object.configs(taskId);
  }

  savePushConfig(config: TaskPushNotificationConfig): Promise<void> {
    return this.#object.saveConfig(config);
  }

  deletePushConfig(taskId: string, id: string): Promise<boolean> {
    return this.#object.deleteConfig(taskId, id);
  }
}
