/**
 * @module test/helpers/wait — waiting in tests, written once: `sleep`, `eventually` (poll a condition), and
 * `watch`, the first item of a growing list that satisfies a predicate (present or future) with a timeout.
 * The in-memory MCP pair (mcp-pair.ts) waits on the frames its client received with it, the raw HTTP client
 * (http-client.ts) on the SSE frames of a response.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

/** How long waitFor() and eventually() wait by default. */
export const WAIT_MS = 2000;

/** Polls `check` every 10 ms until it returns true, or fails after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

export interface Watched<T> {
  /** Call whenever `items` grew (or the source ended): every waitFor whose predicate now holds resolves. */
  changed(): void;
  /** The first item (present or future) satisfying `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (item: T) => boolean, timeoutMs?: number): Promise<T>;
}

/** Waits on `items`, a list its owner appends to; `timedOut` says what a failed wait shows. */
export function watch<T>(items: readonly T[], timedOut: (timeoutMs: number) => string): Watched<T> {
  const waiters = new Set<() => void>();
  return {
    changed() {
      for (const wake of [...waiters]) wake();
    },
    waitFor(predicate, timeoutMs = WAIT_MS) {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = items.find(predicate);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(timedOut(timeoutMs)));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}
