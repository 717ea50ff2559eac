/**
 * @module mcp/ext/tasks/store — where the tasks extension (io.modelcontextprotocol/tasks,
 * https://modelcontextprotocol.io/seps/2663-tasks-extension) keeps its tasks: a small asynchronous interface,
 * so a task outlives the request that created it (and, with a durable store, the process), and an in-memory
 * implementation. `store-sqlite.ts` is the durable one; both pass the same suite (test/mcp/tasks-store.test.ts),
 * which another store (PostgreSQL) can run too.
 */
import type { DetailedTask } from '@wiregen/mcp-ext-tasks';
import type { JsonObject } from '../../../jsonrpc/message.ts';

/** What the store keeps of one task. */
export interface StoredTask {
  /** The task as `tasks/get` answers it (schema `DetailedTask`: its status with the payload of that status). */
  readonly task: DetailedTask;
  /**
   * Keys of `inputRequests` already answered: the SEP makes each key unique over the task's lifetime ("A server
   * MUST NOT reuse a key … after a response for that key has been delivered").
   */
  readonly answered: readonly string[];
  /** Answers `tasks/update` delivered for outstanding keys that the work has not taken yet. */
  readonly responses: Readonly<Record<string, JsonObject>>;
}

/** The statuses after which a task never changes (SEP-2663 "Task Status"). */
export const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** When a task may be discarded (its `createdAt` plus `ttlMs`), in ms since the epoch; undefined for never. */
export function expiresAt(task: DetailedTask): number | undefined {
  return task.ttlMs === null ? undefined : Date.parse(task.createdAt) + task.ttlMs;
}

export interface McpTaskStore {
  /** Stores a new task; rejects when its id is taken. Resolves once a `get` would find it (durably created). */
  create(record: StoredTask): Promise<void>;
  get(taskId: string): Promise<StoredTask | undefined>;
  /** Replaces a stored task (a no-op for an unknown id). */
  put(record: StoredTask): Promise<void>;
  /** Deletes a task; resolves whether it was there. */
  delete(taskId: string): Promise<boolean>;
  /** The ids of the tasks not in a terminal status (what a restart left behind). */
  unfinished(): Promise<string[]>;
  /** The ids of the tasks whose time to live ran out before `now` (ms since the epoch). */
  expired(now: number): Promise<string[]>;
  close(): Promise<void>;
}

/** A deep copy of a JSON value: what a store hands out is never what it holds. */
export const copyJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Tasks in a Map, for one process (they do not survive a restart). */
export class InMemoryMcpTaskStore implements McpTaskStore {
  readonly #tasks = new Map<string, StoredTask>();

  async create(record: StoredTask): Promise<void> {
    if (this.#tasks.has(record.task.taskId)) throw new Error(`task ${record.task.taskId} exists`);
    this.#tasks.set(record.task.taskId, copyJson(record));
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const record = this.#tasks.get(taskId);
    return record && copyJson(record);
  }

  async put(record: StoredTask): Promise<void> {
    if (this.#tasks.has(record.task.taskId)) this.#tasks.set(record.task.taskId, copyJson(record));
  }

  async delete(taskId: string): Promise<boolean> {
    return this.#tasks.delete(taskId);
  }

  async unfinished(): Promise<string[]> {
    return [...this.#tasks.values()].filter((r) => !TERMINAL.has(r.task.status)).map((r) => r.task.taskId);
  }

  async expired(now: number): Promise<string[]> {
    return [...this.#tasks.values()].filter((r) => (expiresAt(r.task) ?? Infinity) < now).map((r) => r.task.taskId);
  }

  async close(): Promise<void> {}
}
