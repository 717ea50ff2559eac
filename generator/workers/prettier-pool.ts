/**
 * @module format/pool — prettier on worker threads for a run's files (a pin's types.ts is about a second of
 * prettier): the main thread goes on emitting and compiling validators (with emit/validator-threads.ts) while
 * a worker formats what is ready. The same prettier with the same options, so the same output as formatting in the
 * main thread. Workers start with the run and hold the process open only while they have work.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type * as prettier from 'prettier';

/**
 * Files at least this long go to a worker (every types.ts, most dispatch.ts and handlers.ts); shorter ones (a
 * package.json, an index) are formatted in the main thread.
 */
export const POOL_MIN_CHARS = 4 * 1024;

interface Job {
  readonly resolve: (text: string) => void;
  readonly reject: (err: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
}

let threads: Thread[] | undefined;
let nextId = 0;

/** One worker per core but the main thread's (at least one, at most four). */
function poolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

function startThread(): Thread {
  const worker = new Worker(new URL('./prettier-worker.mjs', import.meta.url));
  const thread: Thread = { worker, jobs: new Map() };
  worker.on('message', (message: { id: number; text?: string; error?: string }) => {
    const job = thread.jobs.get(message.id);
    if (!job) return;
    thread.jobs.delete(message.id);
    if (thread.jobs.size === 0) worker.unref();
    if (message.error !== undefined) job.reject(new Error(message.error));
    else job.resolve(message.text!);
  });
  worker.on('error', (err) => {
    for (const job of thread.jobs.values()) job.reject(err);
    thread.jobs.clear();
    threads = threads?.filter((t) => t !== thread);
  });
  // After the listeners: adding a 'message' listener refs the worker again, and an idle thread must not keep
  // the process alive.
  worker.unref();
  return thread;
}

/**
 * Starts the threads now, so they load prettier while the caller compiles (a full generate's first file comes
 * seconds later); idle threads do not keep the process alive.
 */
export function startPool(): void {
  pool();
}

/** The threads, started on first use. */
function pool(): Thread[] {
  threads ??= Array.from({ length: poolSize() }, startThread);
  return threads;
}

/** `prettier.format(text, options)` on the least busy worker thread. */
export function formatInPool(text: string, options: prettier.Options): Promise<string> {
  const all = pool();
  if (all.length === 0) all.push(startThread());
  const thread = all.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    thread.jobs.set(id, { resolve, reject });
    thread.worker.ref();
    thread.worker.postMessage({ id, text, options });
  });
}
