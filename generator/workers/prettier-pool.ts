/**
 * @module workers/prettier-pool — prettier on worker threads for a run's files (a pin's types.ts is about a
 * second of prettier): the main thread goes on emitting and compiling validators while a thread formats what is
 * ready. The same prettier with the same options, so the same output as formatting on the main thread. A pool
 * belongs to one run (index.ts Workers), which closes it when it ends.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type * as prettier from 'prettier';

interface Job {
  readonly resolve: (text: string) => void;
  readonly reject: (err: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
}

/** One thread per core but the main thread's (at least one, at most four). */
function poolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A run's formatting threads, started when the pool is made, so they load prettier while the run compiles. */
export class PrettierPool {
  #threads: Thread[];
  #nextId = 0;
  #closed = false;

  constructor(size = poolSize()) {
    this.#threads = Array.from({ length: size }, () => this.#startThread());
  }

  /** `prettier.format(text, options)` on the least busy thread. */
  format(text: string, options: prettier.Options): Promise<string> {
    if (this.#closed) return Promise.reject(new Error('the prettier pool of a finished run was asked to format'));
    // Every thread died (each 'error' removes its own): a new one takes the job.
    if (this.#threads.length === 0) this.#threads.push(this.#startThread());
    const thread = this.#threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      thread.jobs.set(id, { resolve, reject });
      thread.worker.postMessage({ id, text, options });
    });
  }

  /** Ends every thread; a job still running is rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    const threads = this.#threads;
    this.#threads = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
    for (const t of threads) for (const job of t.jobs.values()) job.reject(new Error('the run ended before prettier answered'));
  }

  #startThread(): Thread {
    const worker = new Worker(new URL('./prettier-worker.mjs', import.meta.url));
    const thread: Thread = { worker, jobs: new Map() };
    worker.on('message', (message: { id: number; text?: string; error?: string }) => {
      const job = thread.jobs.get(message.id);
      if (!job) return;
      thread.jobs.delete(message.id);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.text!);
    });
    worker.on('error', (err) => {
      for (const job of thread.jobs.values()) job.reject(err);
      thread.jobs.clear();
      this.#threads = this.#threads.filter((t) => t !== thread);
    });
    return thread;
  }
}
