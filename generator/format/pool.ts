/**
 * @module format/pool — prettier on worker threads for the big files of a run (a pin's validators.js is over
 * a megabyte, and prettier takes seconds on it): the main thread goes on compiling the next pin's validators
 * while a worker formats the last one's. The same prettier with the same options, so the same output as
 * formatting in the main thread. Workers start on the first big file and hold the process open only while
 * they have work.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type * as prettier from 'prettier';

/**
 * Files at least this long go to a worker (a pin's validators.js, 0.5–1.2 MB); shorter ones (types.ts, at most
 * about 100 kB) are formatted in the main thread, which would otherwise wait for the workers at the end.
 */
export const POOL_MIN_CHARS = 256 * 1024;

interface Job {
  /** The text's length: what the job costs, about. */
  readonly chars: number;
  readonly resolve: (text: string) => void;
  readonly reject: (err: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
}

let threads: Thread[] | undefined;
let nextId = 0;

/**
 * One worker per core (at most four): the main thread compiles the pins' validators first and is done long
 * before the formatting, so on two cores the second worker takes half of the files left when it is.
 */
function poolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

function startThread(): Thread {
  const worker = new Worker(new URL('./prettier-worker.mjs', import.meta.url));
  const thread: Thread = { worker, jobs: new Map() };
  worker.unref();
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
  return thread;
}

/**
 * Starts the workers now, if they are not running: each loads prettier while the caller goes on (generate.ts
 * calls it before compiling the first pin's validators). They hold the process open only with work.
 */
export function startFormatPool(): void {
  threads ??= Array.from({ length: poolSize() }, startThread);
  if (threads.length === 0) threads.push(startThread());
}

/** The characters a thread has yet to format. */
const backlog = (t: Thread) => [...t.jobs.values()].reduce((n, j) => n + j.chars, 0);

/** `prettier.format(text, options)` on the least busy worker thread (the fewest characters queued). */
export function formatInPool(text: string, options: prettier.Options): Promise<string> {
  startFormatPool();
  const thread = threads!.reduce((a, b) => (backlog(b) < backlog(a) ? b : a));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    thread.jobs.set(id, { chars: text.length, resolve, reject });
    thread.worker.ref();
    thread.worker.postMessage({ id, text, options });
  });
}
