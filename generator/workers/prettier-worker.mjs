/**
 * @module workers/prettier-worker — one thread of a run's formatting pool (prettier-pool.ts): formats every text it
 * is sent with prettier and the options sent with it, and answers with the result or the error's message.
 * Plain JavaScript, so the thread needs no TypeScript loader whether the generator runs from its sources
 * (tsx) or from its build.
 */
import { parentPort } from 'node:worker_threads';
import * as prettier from 'prettier';

parentPort.on('message', async ({ id, text, options }) => {
  try {
    parentPort.postMessage({ id, text: await prettier.format(text, options) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
