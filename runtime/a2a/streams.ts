/**
 * @module a2a/streams — when a stream of task updates ends (SendStreamingMessage, SubscribeToTask): at a
 * message, at a terminal state, and otherwise as the behaviour says: when the agent's execute() returns (the
 * official SDK), or also at an input-required state (the A2A 101 kit). A subscription always ends at a
 * terminal state (https://a2a-protocol.org/latest/specification/, "SubscribeToTask").
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { AsyncQueue } from './queue.ts';
import type { TaskStore } from './store.ts';
import { TERMINAL_STATES, type A2aBehaviour } from './types.ts';

/**
 * `source` as the stream the caller reads, closed by `policy` (see the module comment); `onEnd` runs once the
 * stream has ended, whichever way. `subscription`: a SubscribeToTask stream.
 */
export function closingStream(
  source: AsyncQueue<StreamResponse>,
  policy: A2aBehaviour['streamClose'],
  onEnd?: () => void,
  subscription = false,
): AsyncIterable<StreamResponse> {
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
              (TERMINAL_STATES.has(state) || (!subscription && policy === 'terminal-or-input-required' && state === 'TASK_STATE_INPUT_REQUIRED')));
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

/** The streams following each task (SubscribeToTask) on this instance. */
export class TaskSubscribers {
  readonly #byTask = new Map<string, Set<AsyncQueue<StreamResponse>>>();

  /** Adds `queue` to `taskId`'s followers; returns what removes it. */
  add(taskId: string, queue: AsyncQueue<StreamResponse>): () => void {
    let set = this.#byTask.get(taskId);
    if (!set) this.#byTask.set(taskId, (set = new Set()));
    set.add(queue);
    return () => {
      set!.delete(queue);
      if (set!.size === 0) this.#byTask.delete(taskId);
    };
  }

  publish(taskId: string, update: StreamResponse): void {
    for (const queue of this.#byTask.get(taskId) ?? []) queue.push(update);
  }

  /** Sends each followed task's current status again from `store` (after updates may have been missed; a terminal one ends the streams). */
  resync(store: TaskStore, log: (line: string) => void): void {
    for (const taskId of this.#byTask.keys()) {
      store.getTask(taskId).then(
        (task) => task && this.publish(taskId, { statusUpdate: { contextId: task.contextId ?? '', status: task.status, taskId } }),
        (err: unknown) => log(`task ${taskId} not read again after a reconnect: ${(err as Error).message}`),
      );
    }
  }
}
