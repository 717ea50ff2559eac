/**
 * @module workers/validator-threads — a full generate's validators compiled on worker threads as well as on
 * the main thread. Compiling a pin's two validator sets is the largest single piece of a generate (about half
 * a second a pin) and ran on the main thread only, which made it the run's critical path while the other core
 * was often idle. Now every pin is offered to both sides: worker threads (validators-worker.mjs) claim pins
 * from the last one down, starting as soon as the plans exist (so while the main thread generates the
 * repository's specs), and the main thread claims a pin when its emission reaches the validators
 * (emit/index.ts emitPin, through index.ts Workers) and compiles it itself if no thread has. The claims are a
 * compare-and-swap on shared memory, so neither side waits on the other's event loop and no pin is compiled
 * twice.
 *
 * Whoever compiles a pin, the output is the same: the same function (emit/validators/index.ts
 * emitValidators) over the same plan (a structured clone of it), and that function keeps no state from one
 * pin to the next that reaches its output. test/generator/validator-threads.test.ts compares both sides'
 * output for every pin.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PinPlan } from '../plan/index.ts';
import { emitValidators, type ValidatorModules } from '../emit/validators/index.ts';

/** A pin's validators: compiled now, or from whoever claimed the pin first. */
export type ValidatorSource = (plan: PinPlan) => Promise<ValidatorModules>;

/** The main thread's claim tag; thread k's is k + 2 (0 is unclaimed). */
const MAIN = 1;

/** Compiles on the main thread, as a {@link ValidatorSource}. */
export const compileHere: ValidatorSource = async (plan) => emitValidators(plan);

/** One worker per core but the main thread's, at most three; none on one core. */
export function defaultThreadCount(): number {
  return Math.max(0, Math.min(3, availableParallelism() - 1));
}

interface Pending {
  readonly resolve: (modules: ValidatorModules) => void;
  readonly reject: (err: Error) => void;
  readonly promise: Promise<ValidatorModules>;
  settled: boolean;
}

export interface ValidatorThreadsOptions {
  /** Worker threads to start (default {@link defaultThreadCount}; none when there are fewer than two plans). */
  readonly threads?: number;
  /** Called when a thread fails to start or dies; its pins are then compiled on the main thread. */
  readonly onThreadError?: (err: Error) => void;
  /** The thread's module (default validators-worker.mjs); tests give one that fails. */
  readonly workerUrl?: URL;
}

/** The validators of a run's plans, shared out between the main thread and worker threads. */
export class ValidatorThreads {
  readonly #plans: readonly PinPlan[];
  readonly #claims: Int32Array;
  readonly #pending: Pending[];
  readonly #workers = new Set<Worker>();
  readonly #exited: Promise<void>[] = [];
  readonly #workerUrl: URL;
  readonly #onThreadError: (err: Error) => void;
  #closed = false;
  /** Who compiled each pin compiled so far: `main`, or a thread's tag (for tests). */
  readonly compiledBy = new Map<PinPlan, 'main' | number>();

  constructor(plans: readonly PinPlan[], options: ValidatorThreadsOptions = {}) {
    this.#plans = plans;
    this.#claims = new Int32Array(new SharedArrayBuffer(Math.max(1, plans.length) * Int32Array.BYTES_PER_ELEMENT));
    this.#pending = plans.map(() => deferred());
    this.#onThreadError = options.onThreadError ?? (() => {});
    this.#workerUrl = options.workerUrl ?? new URL('./validators-worker.mjs', import.meta.url);
    const threads = plans.length < 2 ? 0 : (options.threads ?? defaultThreadCount());
    for (let k = 0; k < threads; k++) this.#start(k + 2);
  }

  /** The worker threads still running. */
  get running(): number {
    return this.#workers.size;
  }

  /** Resolves when every thread has ended (each ends when no pin is left to claim). */
  async threadsDone(): Promise<void> {
    await Promise.all(this.#exited);
  }

  /** A pin's validators: compiled now if no thread has claimed the pin, else the thread's result. */
  readonly take: ValidatorSource = (plan) => {
    const index = this.#plans.indexOf(plan);
    if (index < 0) return compileHere(plan);
    const pending = this.#pending[index]!;
    // Unclaimed, or claimed by a thread that close() stopped before it answered: compiled here, now.
    if (Atomics.compareExchange(this.#claims, index, 0, MAIN) === 0 || (this.#closed && !pending.settled)) this.#compileHere(index);
    return pending.promise;
  };

  /**
   * Stops every thread (a run that failed before its pins needs none of their work). A pin taken afterwards
   * that a stopped thread had claimed is compiled on the main thread.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#workers].map((w) => w.terminate()));
    this.#workers.clear();
  }

  #compileHere(index: number): void {
    const pending = this.#pending[index]!;
    if (pending.settled) return;
    try {
      const modules = emitValidators(this.#plans[index]!);
      this.compiledBy.set(this.#plans[index]!, 'main');
      settle(pending, modules);
    } catch (err) {
      settle(pending, undefined, err instanceof Error ? err : new Error(String(err)));
    }
  }

  #start(tag: number): void {
    const isSource = import.meta.url.endsWith('.ts');
    const worker = new Worker(this.#workerUrl, {
      workerData: {
        plans: this.#plans,
        claims: this.#claims.buffer,
        tag,
        module: new URL(`../emit/validators/index.${isSource ? 'ts' : 'js'}`, import.meta.url).href,
        // From the sources (the repository's bin/wiregen.mjs, the tests): the thread loads tsx with the
        // repository's tsconfig, as the main thread was.
        tsconfig: isSource ? fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) : undefined,
      },
    });
    this.#workers.add(worker);
    this.#exited.push(new Promise((resolve) => worker.once('exit', () => resolve())));
    worker.on('message', (message: { index: number; result?: ValidatorModules; error?: { message: string; stack?: string } }) => {
      const pending = this.#pending[message.index]!;
      if (message.error) {
        const err = new Error(message.error.message);
        if (message.error.stack) err.stack = message.error.stack;
        settle(pending, undefined, err);
      } else {
        this.compiledBy.set(this.#plans[message.index]!, tag);
        settle(pending, message.result);
      }
    });
    worker.on('error', (err) => this.#onThreadError(err));
    worker.on('exit', () => {
      this.#workers.delete(worker);
      if (this.#closed) return;
      // A pin this thread claimed and never answered for (it died, or was stopped): compiled here instead.
      for (let index = 0; index < this.#plans.length; index++)
        if (Atomics.load(this.#claims, index) === tag && !this.#pending[index]!.settled) this.#compileHere(index);
    });
  }
}

function deferred(): Pending {
  let resolve!: (modules: ValidatorModules) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<ValidatorModules>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // taken and awaited in pin order; a failure before that must not go unhandled
  return { resolve, reject, promise, settled: false };
}

function settle(pending: Pending, modules: ValidatorModules | undefined, err?: Error): void {
  if (pending.settled) return;
  pending.settled = true;
  if (err) pending.reject(err);
  else pending.resolve(modules!);
}
