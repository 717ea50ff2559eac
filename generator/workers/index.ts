/**
 * @module workers — the worker threads of one full generate, owned by one object: made when the run starts
 * and closed when it ends, in one place (generate.ts generateAll, in a `finally`). It holds
 *
 * - the prettier threads (prettier-pool.ts), started at once so that they load prettier while the pins load,
 *   which then format the big files (format/index.ts) while the main thread emits the next ones;
 * - the validator threads (validator-threads.ts), started once the pins are planned, which compile the pins'
 *   validators (emit/validators/) beside the main thread.
 *
 * None of it is module state: each run has threads of its own, and a run that ends, or fails, leaves none
 * behind. An emitter given no Workers (a spec's module with `wiregen generate --spec`, one pin in the tests)
 * does the same work on the main thread, with the same functions, so the output is the same.
 */
import type * as prettier from 'prettier';
import type { ValidatorModules } from '../emit/validators/index.ts';
import type { PinPlan } from '../plan/index.ts';
import { PrettierPool } from './prettier-pool.ts';
import { compileHere, ValidatorThreads } from './validator-threads.ts';

export interface WorkersOptions {
  /** Called when a validator thread fails to start or dies; its pins are then compiled on the main thread. */
  readonly onThreadError?: (err: Error) => void;
}

/** A run's worker threads (see the module comment). */
export class Workers {
  readonly #prettier = new PrettierPool();
  readonly #onThreadError: (err: Error) => void;
  #validators: ValidatorThreads | undefined;

  constructor(options: WorkersOptions = {}) {
    this.#onThreadError = options.onThreadError ?? (() => {});
  }

  /** Starts compiling the validators of `plans` on threads (once per run; {@link validators} takes them). */
  compileValidators(plans: readonly PinPlan[]): void {
    if (this.#validators) throw new Error("a run's validator threads are started once");
    this.#validators = new ValidatorThreads(plans, { onThreadError: this.#onThreadError });
  }

  /** A pin's validators: a thread's, or compiled now when no thread has claimed the pin. */
  validators(plan: PinPlan): Promise<ValidatorModules> {
    return this.#validators ? this.#validators.take(plan) : compileHere(plan);
  }

  /** `prettier.format(text, options)` on one of the run's prettier threads. */
  format(text: string, options: prettier.Options): Promise<string> {
    return this.#prettier.format(text, options);
  }

  /** Ends every thread of the run. */
  async close(): Promise<void> {
    await Promise.all([this.#validators?.close(), this.#prettier.close()]);
  }
}
