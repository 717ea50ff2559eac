/**
 * @module emit/thread-job — what a pin-emission thread does (emit/pool.ts): for every plan it is sent, the
 * pin's package by {@link emitPin}, each file formatted in this thread (format/index.ts formats on the
 * prettier pool only from the main thread), answered with the files in emission order and the milliseconds
 * it took; or with the error (emit/pool.ts serializeError), so the main thread throws the same one.
 */
import { parentPort } from 'node:worker_threads';
import type { PinPlan } from '../plan/index.ts';
import { emitPin } from './index.ts';
import { type JobReply, serializeError } from './pool.ts';

const port = parentPort;
if (!port) throw new Error('emit/thread-job.ts runs on a thread of emit/pool.ts');
port.on('message', async ({ id, plan }: { id: number; plan: PinPlan }) => {
  const t0 = performance.now();
  let reply: JobReply;
  try {
    reply = { id, files: [...(await emitPin(plan))], ms: performance.now() - t0 };
  } catch (err) {
    reply = { id, error: serializeError(err) };
  }
  port.postMessage(reply);
});
