/**
 * @module kit/pacer — where the kit holds an agent's execution so a scenario sees a task in a known state
 * (working when it polls, running when it cancels, four frames out when it drops a stream). An executor
 * calls `at(point, signal)` at its named points; with no hold there it goes on at once, with one it waits
 * until the scenario releases it or the task is cancelled. Nothing depends on timing.
 */

import type { Pace } from '../samples/test-runner.ts';

/** What an executor calls at a named point of its run (samples/test-runner.ts's `pace` option). */
export type { Pace };

export interface Hold {
  /** Resolves with the task id when an execution reaches the point. */
  readonly reached: Promise<string>;
  /** Lets the execution go on. */
  release(): void;
}

export class Pacer {
  readonly #holds = new Map<string, { reach(taskId: string): void; released: Promise<void> } & Hold>();
  /** Every hold made, reached or not: `releaseAll` lets them all go. */
  readonly #made: Hold[] = [];

  /** Holds the next execution that reaches `point` (one execution; hold again for the next). */
  hold(point: string): Hold {
    if (this.#holds.has(point)) throw new Error(`the kit already holds ${point}`);
    let reach: (taskId: string) => void = () => {};
    let release: () => void = () => {};
    const reached = new Promise<string>((resolve) => (reach = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold = { reached, released, reach, release: () => release() };
    this.#holds.set(point, hold);
    this.#made.push(hold);
    return hold;
  }

  /** The executor's side: waits at `point` while the kit holds it (or until `signal` aborts). */
  readonly at: Pace = async (point, taskId, signal) => {
    const hold = this.#holds.get(point);
    if (!hold) return;
    this.#holds.delete(point);
    hold.reach(taskId);
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => resolve(), { once: true });
      void hold.released.then(resolve);
    });
  };

  /** Releases every hold (at shutdown, so no execution stays parked) and forgets those not reached. */
  releaseAll(): void {
    for (const hold of this.#made.splice(0)) hold.release();
    this.#holds.clear();
  }

  /** Points held but never reached (a scenario that holds more than it uses is a bug). */
  pending(): string[] {
    return [...this.#holds.keys()].sort();
  }
}
