/**
 * @module samples/acts-agent — the executor of the ACTS test agent (card: schemas/samples/a2a/acts-agent.yaml):
 * the SUT behaviour contract of generator/acts/suites/acts-specification.md §11.2, chosen by the prefix of the
 * message's first text part. A message continuing a task is handled by the prefix that started it: a
 * tck-multi-turn task asks for more input until a message says "done"; tck-input-required and
 * tck-auth-required tasks complete on the next message. A message with no known prefix gets a direct reply
 * naming the prefixes. History, cancellation, streaming and push notifications are the runtime's.
 *
 * A message that starts a conversation may name only a context this agent issued (ACTS CORE-CTX-001: a
 * client-generated context id is refused with InvalidParamsError); the agent remembers the ids it issues.
 *
 * tck-long-running works for `ACTS_LONG_RUNNING_MS` milliseconds (default 5000, the §11 example's delay).
 */
import { defineAgent } from '../generated/samples/acts-agent/index.ts';
import type { AgentDefinition } from '../runtime/a2a/agent.ts';
import { A2aErrors } from '../runtime/a2a/errors.ts';
import type { A2aServerOptions } from '../runtime/a2a/server.ts';
import type { ExecutionContext, Part, TaskHandle } from '../runtime/a2a/types.ts';
import {
  CHUNKS,
  DATA_PART,
  DONE,
  FILE_PART,
  FILE_URL_PART,
  PREFIXES,
  type Prefix,
  prefixOf,
  STREAMED_CONTENT,
  TEXT_CONTENT,
} from './acts-agent/content.ts';

export interface ActsAgentOptions {
  /** How long tck-long-running works before it completes (milliseconds). */
  readonly longRunningMs?: number;
}

/** Resolves after `ms`, or as soon as `signal` aborts (a cancel). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Completes `task` with one whole artifact. */
async function completeWith(task: TaskHandle, name: string, parts: readonly Part[]): Promise<void> {
  await task.artifact({ name, parts, lastChunk: true });
  await task.complete(task.agentMessage(`Completed with the ${name} artifact.`));
}

/** A message that starts a task (or gets a reply), by its prefix. */
async function start(ctx: ExecutionContext, prefix: Prefix | undefined, longRunningMs: number): Promise<void> {
  if (prefix === undefined) return ctx.reply(`No ACTS behaviour named; start the first text part with one of: ${PREFIXES.join(', ')}.`);
  if (prefix === 'tck-message-response') return ctx.reply(`Message response to: ${ctx.text}`);
  const task = await ctx.startTask();
  if (prefix === 'tck-reject-task') return task.reject(task.agentMessage('Rejected: this agent refuses tck-reject-task requests.'));
  await task.working();
  switch (prefix) {
    case 'tck-complete-task':
      return task.complete(task.agentMessage(`Completed: ${ctx.text}`));
    case 'tck-input-required':
    case 'tck-multi-turn':
      return task.inputRequired(task.agentMessage(`More input needed; send "${DONE}" to finish.`));
    case 'tck-auth-required':
      return task.authRequired(task.agentMessage('Authorization required: sign in, then send any message.'));
    case 'tck-task-failure':
      return task.fail(task.agentMessage('Failed: tck-task-failure asks this task to fail.'));
    case 'tck-artifact-text':
      return completeWith(task, 'text', [{ text: TEXT_CONTENT }]);
    case 'tck-artifact-file':
      return completeWith(task, 'file', [FILE_PART]);
    case 'tck-artifact-file-url':
      return completeWith(task, 'file-url', [FILE_URL_PART]);
    case 'tck-artifact-data':
      return completeWith(task, 'data', [DATA_PART]);
    case 'tck-stream-basic':
      return completeWith(task, 'stream', [{ text: STREAMED_CONTENT }]);
    case 'tck-stream-chunked': {
      const artifactId = await task.artifact({ name: 'chunked', parts: [{ text: CHUNKS[0] }] });
      await task.artifact({ artifactId, name: 'chunked', parts: [{ text: CHUNKS[1] }], append: true });
      await task.artifact({ artifactId, name: 'chunked', parts: [{ text: CHUNKS[2] }], append: true, lastChunk: true });
      return task.complete();
    }
    case 'tck-long-running':
      await pause(longRunningMs, ctx.signal);
      if (ctx.signal.aborted) return;
      return completeWith(task, 'result', [{ text: `Finished after ${longRunningMs} ms.` }]);
    case 'tck-cancel':
      // Stays WORKING until CancelTask aborts the execution; the runtime then records TASK_STATE_CANCELED.
      return pause(Number.POSITIVE_INFINITY, ctx.signal);
  }
}

/** A message continuing an interrupted task, by the prefix of the message that started it. */
async function resume(ctx: ExecutionContext): Promise<void> {
  const task = ctx.currentTask();
  const started = prefixOf(ctx.task?.history?.[0]?.parts ?? []);
  await task.working();
  if (started === 'tck-multi-turn' && ctx.text.trim() !== DONE)
    return task.inputRequired(task.agentMessage(`Noted "${ctx.text}"; send "${DONE}" to finish.`));
  return task.complete(task.agentMessage(`Completed after ${(ctx.task?.history?.length ?? 0) + 1} messages.`));
}

/** The most ids remembered as issued (the oldest are forgotten first). */
const REMEMBERED_IDS = 100_000;

/** The ACTS test agent; `longRunningMs` sets tck-long-running's delay. */
export function actsAgent(options: ActsAgentOptions = {}): AgentDefinition & Pick<A2aServerOptions, 'ids'> {
  const longRunningMs = options.longRunningMs ?? 5000;
  const issued = new Set<string>();
  const ids = () => {
    const id = crypto.randomUUID();
    issued.add(id);
    if (issued.size > REMEMBERED_IDS) issued.delete(issued.values().next().value!);
    return id;
  };
  const definition = defineAgent({
    execute: (ctx) => {
      if (ctx.task) return resume(ctx);
      if (!issued.has(ctx.contextId))
        throw A2aErrors.invalidParams([{ field: 'message.contextId', message: 'Not a context this agent issued; omit it to start one.' }]);
      return start(ctx, prefixOf(ctx.message.parts), longRunningMs);
    },
  });
  return { ...definition, ids };
}

const fromEnv = Number(process.env['ACTS_LONG_RUNNING_MS']);
export default actsAgent(Number.isFinite(fromEnv) && fromEnv >= 0 && process.env['ACTS_LONG_RUNNING_MS'] ? { longRunningMs: fromEnv } : {});
