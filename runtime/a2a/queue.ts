/**
 * @module a2a/queue — an unbounded async queue: producers push, one consumer iterates until it is closed.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #waiting: ((r: IteratorResult<T, undefined>) => void) | undefined;
  #closed = false;
  #error: unknown;

  push(item: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting({ value: item, done: false });
    } else this.#items.push(item);
  }

  /** Ends the iteration once the queued items are consumed (with `error` thrown, if given). */
  close(error?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#error = error;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    // A consumer already waiting ends now; the error, if any, reaches the next call.
    if (waiting) waiting({ value: undefined, done: true });
  }

  get closed(): boolean {
    return this.#closed;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#items.length) return Promise.resolve({ value: this.#items.shift()!, done: false });
    if (this.#closed) return this.#error !== undefined ? Promise.reject(this.#error) : Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return { next: () => this.next(), return: async () => (this.close(), { value: undefined, done: true }) };
  }
}

/** Steps queued per key: each runs after every earlier step of its key has settled (a per-task lock). */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(step, step);
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }
}
