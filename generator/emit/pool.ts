/**
 * @module emit/pool — pins emitted on worker threads, one pin at a time per thread, so the ajv compiles, the
 * TypeScript parses of ajv's output and the prettier runs of two pins use two cores. Each thread
 * (emit/thread.mjs, then emit/thread-job.ts) runs the same {@link emitPin} on a structured clone of the plan
 * (plan/index.ts: a plain, serialisable description), so its files are the ones the main thread would
 * emit. A job goes to the first free thread, in the order the jobs were asked for. A thread holds the process
 * open only while it has a job; {@link EmitPool.close} ends every thread.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Diagnostic, InputError } from '../errors.ts';
import type { FileSet } from '../format/index.ts';
import type { PinPlan } from '../plan/index.ts';

/** An error thrown on a thread, as it crosses to the main thread (an Error's class does not survive the copy). */
export type SerializedError =
  | { readonly kind: 'input'; readonly diagnostics: readonly Diagnostic[]; readonly exitCode: number; readonly message: string }
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly stack?: string };

/** A thread's answer to one job. */
export type JobReply =
  { readonly id: number; readonly files: [string, string][]; readonly ms: number } | { readonly id: number; readonly error: SerializedError };

/** One pin's package as a thread emitted it, and the milliseconds the thread spent on it. */
export interface EmittedPin {
  readonly files: FileSet;
  readonly ms: number;
}

export interface EmitPool {
  /** Emits `plan`'s package on the first free thread (emit/index.ts emitPin). */
  emit(plan: PinPlan): Promise<EmittedPin>;
  /** Ends every thread; jobs not answered yet are rejected. */
  close(): Promise<void>;
}

/** An error as a thread sends it: an InputError's diagnostics and exit code, or an Error's name, message and stack. */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof InputError) return { kind: 'input', diagnostics: err.diagnostics, exitCode: err.exitCode, message: err.message };
  if (err instanceof Error) return { kind: 'error', name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}) };
  return { kind: 'error', name: 'Error', message: String(err) };
}

/** The error a thread sent, as the main thread would have thrown it: the same InputError, or an Error. */
export function reviveError(e: SerializedError): Error {
  if (e.kind === 'input') return new InputError(e.diagnostics, e.exitCode);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack !== undefined) err.stack = e.stack;
  return err;
}

interface Job {
  readonly id: number;
  readonly plan: PinPlan;
  readonly resolve: (pin: EmittedPin) => void;
  readonly reject: (err: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  job?: Job;
  dead?: boolean;
}

/**
 * From the sources (this module is `.ts`: tsx or vitest) a thread registers tsx with the repository's
 * tsconfig.json, whose `paths` point `@wiregen/*` at the sources; from the build it loads the `.js` job.
 */
function threadData(): { job: string; tsconfig?: string } {
  const fromSources = import.meta.url.endsWith('.ts');
  const job = new URL(`./thread-job.${fromSources ? 'ts' : 'js'}`, import.meta.url).href;
  return fromSources ? { job, tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) } : { job };
}

/** Starts `size` threads (at least one); they load the emitters while the caller goes on. */
export function createEmitPool(size: number): EmitPool {
  const queue: Job[] = [];
  const threads: Thread[] = [];
  let nextId = 0;
  let closed = false;
  const data = threadData();

  const dispatch = (thread: Thread) => {
    const job = queue.shift();
    if (!job) return;
    thread.job = job;
    thread.worker.ref();
    thread.worker.postMessage({ id: job.id, plan: job.plan });
  };
  // A thread that failed (it could not load, or ran out of memory): its job fails with that error, and so
  // does every queued one once no thread is left to take it.
  const lose = (thread: Thread, err: Error) => {
    if (thread.dead) return;
    thread.dead = true;
    thread.job?.reject(err);
    thread.job = undefined;
    if (threads.every((t) => t.dead)) for (const job of queue.splice(0)) job.reject(err);
  };

  for (let i = 0; i < Math.max(1, size); i++) {
    const worker = new Worker(new URL('./thread.mjs', import.meta.url), { workerData: data });
    const thread: Thread = { worker };
    worker.unref();
    worker.on('message', (reply: JobReply) => {
      const job = thread.job;
      if (!job || job.id !== reply.id) return;
      thread.job = undefined;
      worker.unref();
      if ('error' in reply) job.reject(reviveError(reply.error));
      else job.resolve({ files: new Map(reply.files), ms: reply.ms });
      dispatch(thread);
    });
    worker.on('error', (err) => lose(thread, err));
    worker.on('exit', (code) => {
      if (!closed) lose(thread, new Error(`a pin-emission thread stopped (exit code ${code})`));
    });
    threads.push(thread);
  }

  return {
    emit(plan) {
      if (closed) return Promise.reject(new Error('the pin-emission pool is closed'));
      return new Promise<EmittedPin>((resolve, reject) => {
        queue.push({ id: nextId++, plan, resolve, reject });
        const idle = threads.find((t) => !t.dead && !t.job);
        if (idle) dispatch(idle);
        else if (threads.every((t) => t.dead)) queue.pop()!.reject(new Error('every pin-emission thread has stopped'));
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const err = new Error('the pin-emission pool was closed');
      for (const job of queue.splice(0)) job.reject(err);
      for (const t of threads) t.job?.reject(err);
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
