/**
 * @module emit/thread — the entry of one pin-emission thread (emit/pool.ts). Plain JavaScript, so it starts
 * whether the generator runs from its sources or from its build: from the sources (`workerData.tsconfig`
 * set) it first registers tsx with the repository's tsconfig.json, as bin/wiregen.mjs does for the main
 * thread, so `.ts` modules and the `@wiregen/*` paths resolve the same way (the packages first: {@link PRELOAD});
 * then it loads the job module
 * (emit/thread-job.ts, or its build) that answers the pool's messages.
 */
import { workerData } from 'node:worker_threads';

/**
 * The packages the emitters load, imported before tsx is registered: so they load as plain Node modules,
 * without a round trip to tsx's loader thread for every file (about half a second of CPU per thread; ajv
 * alone is some hundred files). A package missing here only loads slower, through tsx.
 */
const PRELOAD = [
  'typescript',
  'ajv',
  'ajv/dist/2020.js',
  'ajv/dist/standalone/index.js',
  'ajv-formats',
  'prettier',
  'json-schema-to-typescript',
  'handlebars',
];

if (workerData.tsconfig) {
  await Promise.all(PRELOAD.map((m) => import(m)));
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: workerData.tsconfig });
}
await import(workerData.job);
