/**
 * @module mcp/ext/tasks/client — the tasks extension on the client (SEP-2663,
 * https://modelcontextprotocol.io/seps/2663-tasks-extension): given to an McpClient in `extensions`, it declares
 * `capabilities.extensions["io.modelcontextprotocol/tasks"]` (on every 2026-07-28 request: "Capability
 * Negotiation"), so the server may answer a `tools/call` with a `CreateTaskResult` (`resultType: "task"`, checked
 * by the pinned schema `@wiregen/mcp-ext-tasks`); then `wait` polls `tasks/get` at the interval the server
 * suggests (`pollIntervalMs`) until the task is terminal, answering an `input_required` task's `inputRequests`
 * with the client's handlers through `tasks/update`, and `tasks/cancel` gives a task up.
 *
 * ```ts
 * const tasks = new McpTasksClient();
 * const client = new McpClient(channel, { clientInfo, extensions: [tasks], handlers });
 * await client.connect();
 * const result = await tasks.callTool({ name: 'build', arguments: {} }); // inline or as a task, the CallToolResult
 * ```
 */
import { AttachedClientExtension } from '../../client/extension.ts';
import type { CallParams, CallToolResult } from '@wiregen/mcp-2026-07-28';
import {
  methods as EXT,
  validators as V,
  type CancelTaskResult,
  type CreateTaskResult,
  type DetailedTask,
  type GetTaskResult,
  type InputResponses,
  type UpdateTaskResult,
} from '@wiregen/mcp-ext-tasks';
import { ErrorCode, isObject, type JsonObject } from '../../../jsonrpc/message.ts';
import { McpClientError } from '../../client/errors.ts';
import type { CallOptions, McpClientExtension } from '../../client/types.ts';
import { loadedRevision } from '../../revisions.ts';
import { TASKS_EXTENSION } from './protocol.ts';
import { TERMINAL } from './store.ts';

export interface WaitOptions {
  /** Aborting it gives the task up: tasks/cancel is sent and `wait` rejects. Default none. */
  readonly signal?: AbortSignal;
  /** Called with the task each time tasks/get reports a new status. Default none. */
  readonly onStatus?: (task: DetailedTask) => void;
  /** The polling interval when the server suggests none (the task's `pollIntervalMs`), in ms. Default 1,000. */
  readonly pollIntervalMs?: number;
  /** Answer an input_required task's inputRequests with the client's handlers (tasks/update). Default true. */
  readonly answerInput?: boolean;
  /** Give the task up (tasks/cancel) when it is not terminal after this long, in ms (CallOptions.timeoutMs bounds each request). Default none. */
  readonly waitMs?: number;
  /**
   * Also hold a `subscriptions/listen` stream asking for this task's `notifications/tasks` (SEP-2663 "Task Status
   * Notifications"; 2026-07-28 servers): each one for the task re-reads it at once instead of waiting out the
   * poll interval. Polling goes on beside it (a server may honour no taskIds, a stream may end); the stream is
   * closed when the wait ends. Default false.
   */
  readonly listen?: boolean;
}

/** A task that ended failed or cancelled: its code and message (a failed task's error), and the task. */
export class McpTaskError extends McpClientError {
  readonly task: DetailedTask;
  constructor(task: DetailedTask) {
    const failed = task.status === 'failed' ? task.error : undefined;
    super(
      failed?.code ?? ErrorCode.InternalError,
      failed
        ? `task ${task.taskId} failed: ${failed.message}`
        : `task ${task.taskId} was ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
      failed?.data,
    );
    this.name = 'McpTaskError';
    this.task = task;
  }
}

/** Whether a result is a CreateTaskResult (SEP-2663: `resultType: "task"`). */
export const isCreateTaskResult = (result: unknown): result is CreateTaskResult => isObject(result) && result['resultType'] === 'task';

/** Waits `ms`, or until `wake` is called (a status notification); rejects when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal, wake: { current: () => void }) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => (clearTimeout(timer), signal.removeEventListener('abort', abort), (wake.current = () => {}), resolve());
    const timer = setTimeout(done, ms);
    const abort = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener('abort', abort, { once: true });
    wake.current = done;
  });

export class McpTasksClient extends AttachedClientExtension implements McpClientExtension {
  readonly id = TASKS_EXTENSION;
  /** "An empty object indicates support" (SEP-2663 "Capability Negotiation"). */
  readonly capability = {};
  /** The pin's entries: params and result checks, and Mcp-Name (the taskId) over HTTP. */
  readonly methods = { 'tasks/get': EXT['tasks/get'], 'tasks/update': EXT['tasks/update'], 'tasks/cancel': EXT['tasks/cancel'] };
  /** SEP-2663 "Supported Methods": a tools/call may be answered with a CreateTaskResult. */
  readonly results = { task: { methods: ['tools/call'], check: V.CreateTaskResult } };
  /** Per task being waited for, what ends its current pause (a notifications/tasks for it arrived). */
  readonly #waking = new Map<string, Set<{ current: () => void }>>();

  /** notifications/tasks: wakes the waits of that task (they re-read it with tasks/get, which the schema checks). */
  notification(method: string, params: JsonObject): void {
    const taskId = params['taskId'];
    if (method !== 'notifications/tasks' || typeof taskId !== 'string') return;
    for (const wake of this.#waking.get(taskId) ?? []) wake.current();
  }

  /** tasks/get: the task as it is now (its result or error inline once terminal). */
  async get(taskId: string, options: CallOptions = {}): Promise<GetTaskResult> {
    // The client checked the result against the pin's GetTaskResult (the extension's entry).
    return (await this.connected.call('tasks/get', { taskId }, options)) as GetTaskResult;
  }

  /** tasks/update: answers for the task's outstanding inputRequests, by key. */
  async update(taskId: string, inputResponses: InputResponses, options: CallOptions = {}): Promise<UpdateTaskResult> {
    return (await this.connected.call('tasks/update', { taskId, inputResponses } as JsonObject, options)) as UpdateTaskResult;
  }

  /** tasks/cancel: the server stops the task (a terminal one is left as it is). */
  async cancel(taskId: string, options: CallOptions = {}): Promise<CancelTaskResult> {
    return (await this.connected.call('tasks/cancel', { taskId }, options)) as CancelTaskResult;
  }

  /**
   * Polls tasks/get until the task is terminal (completed, failed, cancelled) and returns it, waiting between
   * polls what the task's `pollIntervalMs` says ("Clients SHOULD" respect it, SEP-2663 "Polling"); an
   * input_required task's inputRequests are answered once each, with the client's handlers, by tasks/update.
   */
  async wait(task: string | CreateTaskResult, options: WaitOptions = {}): Promise<DetailedTask> {
    const taskId = typeof task === 'string' ? task : task.taskId;
    const controller = new AbortController();
    const stop = () => controller.abort(options.signal?.reason ?? new McpClientError(ErrorCode.InternalError, `task ${taskId}: gave up waiting`));
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    const timer = options.waitMs !== undefined ? setTimeout(stop, options.waitMs) : undefined;
    const answered = new Set<string>();
    let last: string | undefined;
    let interval = typeof task === 'string' ? undefined : task.pollIntervalMs;
    const wake = { current: () => {} };
    const waking = this.#waking.get(taskId) ?? this.#waking.set(taskId, new Set()).get(taskId)!;
    waking.add(wake);
    const listening = new AbortController();
    // The stream's end (closed, refused, timed out) leaves polling as it is.
    if (options.listen)
      this.connected.call('subscriptions/listen', { notifications: { taskIds: [taskId] } }, { signal: listening.signal }).catch(() => {});
    try {
      for (;;) {
        const current = await this.get(taskId, { signal: controller.signal });
        interval = current.pollIntervalMs ?? interval;
        if (current.status !== last) options.onStatus?.(current);
        last = current.status;
        if (TERMINAL.has(current.status)) return current;
        if (current.status === 'input_required' && options.answerInput !== false) {
          const responses: Record<string, unknown> = {};
          for (const [key, request] of Object.entries(current.inputRequests))
            if (!answered.has(key)) responses[key] = await this.connected.answerInput(request);
          if (Object.keys(responses).length) {
            // Each answer is what its request's result type says (answerInput checked the request and the handler's type).
            await this.update(taskId, responses as InputResponses, { signal: controller.signal });
            for (const key of Object.keys(responses)) answered.add(key);
            continue;
          }
        }
        await pause(interval ?? options.pollIntervalMs ?? 1_000, controller.signal, wake);
      }
    } catch (err) {
      if (controller.signal.aborted) {
        await this.cancel(taskId).catch(() => {});
        const reason: unknown = controller.signal.reason;
        throw reason instanceof Error ? reason : new McpClientError(ErrorCode.InternalError, `task ${taskId}: ${String(reason)}`);
      }
      throw err;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      listening.abort();
      waking.delete(wake);
      if (!waking.size) this.#waking.delete(taskId);
    }
  }

  /**
   * tools/call with the extension declared: the tool's result, whether the server answered it inline or as a
   * task (then waited for; a failed or cancelled task throws McpTaskError). The completed task's result is
   * checked against the negotiated revision's CallToolResult.
   */
  async callTool(params: CallParams<'tools/call'>, options: CallOptions & WaitOptions = {}): Promise<CallToolResult> {
    const client = this.connected;
    const answer = await client.call('tools/call', params as JsonObject, options);
    if (!isCreateTaskResult(answer)) return answer as CallToolResult;
    const task = await this.wait(answer, options);
    if (task.status !== 'completed') throw new McpTaskError(task);
    const result = { resultType: 'complete', ...task.result };
    const check = loadedRevision(client.protocolVersion ?? '')?.validators['CallToolResult'];
    if (check && !check(result))
      throw new McpClientError(
        ErrorCode.InternalError,
        `task ${task.taskId}: its result is not a ${client.protocolVersion} CallToolResult`,
        check.errors,
      );
    return result as CallToolResult;
  }
}
