/**
 * @module workers/validators-worker — one thread of a full generate's validator compilation (validator-threads.ts):
 * claims the pins it is given from the last one down, each one the main thread has not claimed yet (a
 * compare-and-swap on the shared claim list, so no pin is compiled twice and the main thread never waits on
 * this thread's event loop), compiles its validators with the same function the main thread uses
 * (emit/validators/index.ts emitValidators), and posts the result or the error. It ends when no pin is left.
 *
 * Plain JavaScript, so the thread starts without a TypeScript loader; when the generator runs from its
 * sources, it loads tsx first with the repository's tsconfig (whose `paths` resolve `@wiregen/*`).
 */
import { parentPort, workerData } from 'node:worker_threads';

const { plans, claims, tag, module, tsconfig } = workerData;
if (tsconfig) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig });
}
const { emitValidators } = await import(module);
const claimed = new Int32Array(claims);
for (let index = plans.length - 1; index >= 0; index--) {
  if (Atomics.compareExchange(claimed, index, 0, tag) !== 0) continue;
  try {
    parentPort.postMessage({ index, result: emitValidators(plans[index]) });
  } catch (err) {
    parentPort.postMessage({ index, error: { message: err instanceof Error ? err.message : String(err), stack: err?.stack } });
  }
}
