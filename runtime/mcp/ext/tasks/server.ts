/**
 * @module mcp/ext/tasks/server — the tasks extension on the server (SEP-2663,
 * https://modelcontextprotocol.io/seps/2663-tasks-extension): a `tools/call` may be answered with a
 * `CreateTaskResult` (`resultType: "task"`) instead of its result, when the client declared the extension on
 * that request and the tool chose to run as a task (`tasks.begin(ctx)`); the client then polls `tasks/get`,
 * answers the task's `inputRequests` with `tasks/update`, may `tasks/cancel` it, and may listen for
 * `notifications/tasks` on `subscriptions/listen` (`notifications.taskIds`). Task state is kept in a
 * McpTaskStore (store.ts: in memory, or SQLite so tasks outlive the process).
 *
 * ```ts
 * const tasks = new McpTasks({ store: new SqliteMcpTaskStore('tasks.db') });
 * const server = new McpServer({ ...options, extensions: [tasks] });
 * // in a tool: run as a task when the client can take one, inline otherwise
 * async function build(args, ctx) {
 *   const task = await tasks.begin(ctx);          // { required: true }: -32021 for a client without the extension
 *   const ok = await task.input('confirm', form);  // a task asks through inputRequests / tasks/update
 *   return ...;                                    // the task's result (its CallToolResult)
 * }
 * ```
 */
import { methods as EXT, validators as V, type DetailedTask, type InputRequests, type ServerHandlers } from '@wiregen/mcp-ext-tasks';
import { ErrorCode, isObject, JsonRpcError, type JsonObject } from '../../../jsonrpc/message.ts';
import { createContext } from '../../server/context.ts';
import type { ExtensionMethod, ListenTarget, McpServerExtension } from '../../server/extensions.ts';
import { checkClientCapabilities } from '../../stateless/input-required.ts';
import { LATEST_STATELESS, loadedRevision } from '../../revisions.ts';
import type { Handler, RequestContext, WireInputRequest } from '../../server/types.ts';
import { declaresTasks, missingTasksCapability, TASKS_EXTENSION, taskNotFound } from './protocol.ts';
import { expiresAt, InMemoryMcpTaskStore, TERMINAL, type McpTaskStore, type StoredTask } from './store.ts';
import { failed, now, STATUS_MESSAGES, updateParams, withStatus } from './task-state.ts';

export interface McpTasksOptions {
  /** Where tasks are kept. Default an InMemoryMcpTaskStore (tasks end with the process). */
  readonly store?: McpTaskStore;
  /** A new task's time to live (`ttlMs`), in ms; null for unlimited. Default 3,600,000 (one hour). */
  readonly ttlMs?: number | null;
  /** The polling interval suggested to clients (`pollIntervalMs`). Default 500 ms. */
  readonly pollIntervalMs?: number;
  /** How often expired tasks are deleted. Default 60,000 ms. */
  readonly sweepMs?: number;
}

/** How a tool runs as a task: `required` (SEP-2663: a request the server cannot serve without a task). */
export interface BeginOptions {
  /** Answer -32021 to a client that did not declare the extension, instead of running inline. Default false. */
  readonly required?: boolean;
}

/** One running task of this process: its cancellation and the work waiting for input. */
interface Live {
  readonly controller: AbortController;
  readonly waiters: Map<string, (answer: JsonObject) => void>;
}

/** A request of tools/call waiting to learn whether its tool runs as a task. */
type Escalate = () => Promise<RequestContext>;

export class McpTasks implements McpServerExtension {
  readonly id = TASKS_EXTENSION;
  readonly store: McpTaskStore;
  readonly #ttlMs: number | null;
  readonly #pollIntervalMs: number;
  readonly #live = new Map<string, Live>();
  readonly #pending = new WeakMap<RequestContext, Escalate>();
  /** One write at a time per task (tasks/update and the work both change a record). */
  readonly #locks = new Map<string, Promise<unknown>>();
  /** Started with the first task, not at construction (a Worker makes its server at module scope, where timers are refused). */
  #sweeper: ReturnType<typeof setInterval> | undefined;
  readonly #sweepMs: number;
  #server: ListenTarget | undefined;
  /** Tasks a previous process left unfinished are failed before anything else is served (on the first use: no store I/O at construction). */
  #recovered: Promise<void> | undefined;

  constructor(options: McpTasksOptions = {}) {
    this.store = options.store ?? new InMemoryMcpTaskStore();
    this.#ttlMs = options.ttlMs === undefined ? 3_600_000 : options.ttlMs;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#sweepMs = options.sweepMs ?? 60_000;
  }

  get #ready(): Promise<void> {
    return (this.#recovered ??= this.#recover());
  }

  readonly methods: Readonly<Record<string, ExtensionMethod>> = {
    'tasks/get': { entry: EXT['tasks/get'], handler: this.#handler('tasks/get') },
    'tasks/update': { entry: { ...EXT['tasks/update'], params: updateParams }, handler: this.#handler('tasks/update') },
    'tasks/cancel': { entry: EXT['tasks/cancel'], handler: this.#handler('tasks/cancel') },
  };

  /** SEP-2663 "Supported Methods": tools/call may be answered with a CreateTaskResult. */
  readonly results = { task: { methods: ['tools/call'], check: V.CreateTaskResult } };

  attach(server: ListenTarget): void {
    this.#server = server;
  }

  close(): void {
    clearInterval(this.#sweeper);
    for (const live of this.#live.values()) live.controller.abort();
  }

  /** tools/call learns here whether its tool runs as a task (see begin). */
  wrap(method: string, handler: Handler): Handler {
    if (method !== 'tools/call') return handler;
    return (params, ctx) =>
      new Promise((resolve, reject) => {
        let task: string | undefined;
        this.#pending.set(ctx, async () => {
          const created = await this.#create(ctx);
          task = created.record.task.taskId;
          const { task: t } = created.record;
          resolve({
            resultType: 'task',
            taskId: t.taskId,
            status: t.status,
            createdAt: t.createdAt,
            lastUpdatedAt: t.lastUpdatedAt,
            ttlMs: t.ttlMs,
            ...(t.pollIntervalMs !== undefined ? { pollIntervalMs: t.pollIntervalMs } : {}),
          });
          return created.ctx;
        });
        Promise.resolve()
          .then(() => handler(params, ctx))
          .then(
            (value) => (task === undefined ? resolve(value) : this.#settled(task, { value })),
            (error: unknown) => (task === undefined ? reject(error) : this.#settled(task, { error })),
          );
      });
  }

  /**
   * Runs the rest of a tool as a task, when it can: in the 2026-07-28 era, for tools/call, with the extension
   * declared on the request. Then the tools/call is answered at once with the CreateTaskResult (the task is
   * stored first: "durably created") and the returned context is the task's: its signal aborts on tasks/cancel,
   * its `input` asks through the task's inputRequests, and progress and log notifications are not sent (SEP-2663:
   * not supported on tasks). Otherwise the tool goes on inline with `ctx`, or, when `required`, fails with -32021.
   * Multi round-trip input asked before begin (ctx.input) is resolved synchronously, as the SEP recommends.
   */
  async begin(ctx: RequestContext, options: BeginOptions = {}): Promise<RequestContext> {
    const escalate = this.#pending.get(ctx);
    if (ctx.era === 'stateless' && declaresTasks(ctx.clientCapabilities) && escalate) {
      this.#pending.delete(ctx);
      return escalate();
    }
    if (options.required) throw missingTasksCapability();
    return ctx;
  }

  /** subscriptions/listen `notifications.taskIds` (SEP-2663 "Task Status Notifications"): the known ones. */
  async listen(filter: JsonObject, ctx: RequestContext): Promise<JsonObject | undefined> {
    const ids = filter['taskIds'];
    if (!Array.isArray(ids)) return undefined;
    if (!declaresTasks(ctx.clientCapabilities)) throw missingTasksCapability();
    await this.#ready;
    const known: string[] = [];
    for (const id of ids) if (typeof id === 'string' && (await this.store.get(id))) known.push(id);
    return { taskIds: known };
  }

  #handler<M extends keyof ServerHandlers>(method: M): Handler {
    const handlers: Required<ServerHandlers<RequestContext>> = {
      'tasks/get': async ({ taskId }) => (await this.#found(taskId)).task,
      'tasks/update': async ({ taskId, inputResponses }) => {
        await this.#update(taskId, inputResponses);
        return {};
      },
      'tasks/cancel': async ({ taskId }) => {
        await this.#cancel(taskId);
        return {};
      },
    };
    const handle = handlers[method] as (params: never, ctx: RequestContext) => unknown;
    // Params have passed the pin's validator (GetTaskRequest params …) before a handler runs.
    return async (params, ctx) => {
      if (!declaresTasks(ctx.clientCapabilities)) throw missingTasksCapability();
      await this.#ready;
      return handle(params as never, ctx);
    };
  }

  /** The task, or -32602: unknown, or past its time to live (then deleted). */
  async #found(taskId: string): Promise<StoredTask> {
    const record = await this.store.get(taskId);
    if (!record) throw taskNotFound();
    if ((expiresAt(record.task) ?? Infinity) < Date.now()) {
      await this.store.delete(taskId);
      throw taskNotFound(true);
    }
    return record;
  }

  async #create(ctx: RequestContext): Promise<{ record: StoredTask; ctx: RequestContext }> {
    await this.#ready;
    if (!this.#sweeper) {
      this.#sweeper = setInterval(() => void this.#sweep(), this.#sweepMs);
      (this.#sweeper as { unref?: () => void }).unref?.();
    }
    const at = now();
    const taskId = crypto.randomUUID();
    const task: DetailedTask = {
      taskId,
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs: this.#ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
    };
    const record: StoredTask = { task, answered: [], responses: {} };
    await this.store.create(record);
    const live: Live = { controller: new AbortController(), waiters: new Map() };
    this.#live.set(taskId, live);
    const taskCtx = createContext({
      method: ctx.method,
      id: ctx.id,
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      signal: live.controller.signal,
      clientCapabilities: ctx.clientCapabilities,
      clientInfo: ctx.clientInfo,
      progressToken: undefined,
      logLevel: undefined,
      state: ctx.state,
      notify: () => {},
      changed: (kind) => (typeof kind === 'string' ? ctx.listChanged(kind) : ctx.resourceUpdated(kind.uri)),
      obtain: (requests) => this.#ask(taskId, ctx, requests),
    });
    return { record, ctx: taskCtx };
  }

  /** Runs `change` on the stored task, one change at a time; stores and announces what it returns. */
  #change(taskId: string, change: (record: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    const run = async () => {
      const record = await this.store.get(taskId);
      const next = record && change(record);
      if (!next) return record;
      await this.store.put(next);
      this.#announce(next.task);
      return next;
    };
    const done = (this.#locks.get(taskId) ?? Promise.resolve()).then(run, run);
    this.#locks.set(taskId, done);
    void done.finally(() => this.#locks.get(taskId) === done && this.#locks.delete(taskId)).catch(() => {});
    return done;
  }

  /** A task's input: answers tasks/update already delivered, or inputRequests the client sees on tasks/get. */
  async #ask(taskId: string, ctx: RequestContext, requests: Readonly<Record<string, WireInputRequest>>): Promise<Record<string, JsonObject>> {
    const revision = loadedRevision(ctx.protocolVersion) ?? loadedRevision(LATEST_STATELESS)!;
    checkClientCapabilities(requests, ctx.clientCapabilities, revision);
    const asked: unknown = requests;
    if (!V.InputRequests(asked)) throw new JsonRpcError(ErrorCode.InternalError, 'Invalid task input requests');
    const live = this.#live.get(taskId);
    if (!live || live.controller.signal.aborted) throw new JsonRpcError(ErrorCode.InternalError, 'The task is no longer running');
    const answers: Record<string, JsonObject> = {};
    const waits: Promise<void>[] = [];
    await this.#change(taskId, (record) => {
      const responses = { ...record.responses };
      const asking: InputRequests = {};
      for (const [key, request] of Object.entries(asked)) {
        if (record.answered.includes(key) && !(key in responses))
          throw new JsonRpcError(ErrorCode.InternalError, `Input key ${key} was used already`);
        if (key in responses) {
          answers[key] = responses[key]!;
          delete responses[key];
          continue;
        }
        asking[key] = request;
        waits.push(new Promise<void>((resolve) => live.waiters.set(key, (answer) => ((answers[key] = answer), resolve()))));
      }
      const outstanding = { ...(record.task.status === 'input_required' ? record.task.inputRequests : {}), ...asking };
      const task = withStatus(
        record.task,
        Object.keys(outstanding).length ? { status: 'input_required', inputRequests: outstanding } : { status: 'working' },
      );
      return { ...record, task, responses };
    });
    const aborted = new Promise<never>((_, reject) =>
      live.controller.signal.addEventListener('abort', () => reject(new JsonRpcError(ErrorCode.InternalError, 'Task cancelled')), { once: true }),
    );
    aborted.catch(() => {});
    await Promise.race([Promise.all(waits), aborted]);
    return answers;
  }

  /** tasks/update: answers for outstanding keys are checked and taken; any other key is ignored (SEP-2663). */
  async #update(taskId: string, responses: JsonObject): Promise<void> {
    await this.#found(taskId);
    const delivered: [string, JsonObject][] = [];
    await this.#change(taskId, (record) => {
      if (record.task.status !== 'input_required') return undefined;
      const outstanding: InputRequests = { ...record.task.inputRequests };
      const kept = { ...record.responses };
      const answered = [...record.answered];
      for (const [key, answer] of Object.entries(responses)) {
        const request = outstanding[key];
        if (!request) continue;
        const validate = EXT[request.method].result;
        if (!isObject(answer) || (validate && !validate(answer)))
          throw new JsonRpcError(ErrorCode.InvalidParams, `inputResponses.${key} is not a valid ${request.method} result`);
        delete outstanding[key];
        answered.push(key);
        kept[key] = answer;
        delivered.push([key, answer]);
      }
      if (!delivered.length) return undefined;
      const task = withStatus(
        record.task,
        Object.keys(outstanding).length ? { status: 'input_required', inputRequests: outstanding } : { status: 'working' },
      );
      // The running work takes its answers now; a task with no work in this process keeps them.
      const live = this.#live.get(taskId);
      for (const [key] of delivered) if (live?.waiters.has(key)) delete kept[key];
      return { task, answered, responses: kept };
    });
    const live = this.#live.get(taskId);
    for (const [key, answer] of delivered) {
      const waiter = live?.waiters.get(key);
      live?.waiters.delete(key);
      waiter?.(answer);
    }
  }

  /** tasks/cancel: a running task becomes cancelled and its work is aborted; a finished one is left as it is. */
  async #cancel(taskId: string): Promise<void> {
    await this.#found(taskId);
    await this.#change(taskId, (record) =>
      TERMINAL.has(record.task.status)
        ? undefined
        : { ...record, task: withStatus(record.task, { status: 'cancelled', statusMessage: STATUS_MESSAGES.cancelled }) },
    );
    const live = this.#live.get(taskId);
    this.#live.delete(taskId);
    live?.controller.abort();
  }

  /**
   * #settle without a caller to tell: a store that fails now (closed, unreachable) leaves the task as last
   * stored, which the next start fails (#recover); the server's log says so.
   */
  #settled(taskId: string, outcome: { value?: unknown; error?: unknown }): void {
    this.#settle(taskId, outcome).catch((err: unknown) => this.#server?.log(`tasks: could not store the end of task ${taskId}: ${String(err)}`));
  }

  /** The work ended: its CallToolResult (completed, even when isError) or its JSON-RPC error (failed). */
  async #settle(taskId: string, outcome: { value?: unknown; error?: unknown }): Promise<void> {
    this.#live.delete(taskId);
    let payload: Partial<DetailedTask>;
    if ('value' in outcome) {
      const result: JsonObject = isObject(outcome.value) ? { ...outcome.value } : {};
      result['resultType'] ??= 'complete';
      const check = loadedRevision(LATEST_STATELESS)?.validators['CallToolResult'];
      payload = check && !check(result) ? failed(new JsonRpcError(ErrorCode.InternalError, 'Internal error')) : { status: 'completed', result };
    } else payload = failed(outcome.error);
    await this.#change(taskId, (record) => (TERMINAL.has(record.task.status) ? undefined : { ...record, task: withStatus(record.task, payload) }));
  }

  /** notifications/tasks to the listen streams that asked for this task: the DetailedTask, as tasks/get would give it. */
  #announce(task: DetailedTask): void {
    this.#server?.notifyListeners((honored) => Array.isArray(honored['taskIds']) && honored['taskIds'].includes(task.taskId), 'notifications/tasks', {
      ...task,
    });
  }

  async #recover(): Promise<void> {
    for (const id of await this.store.unfinished()) {
      const record = await this.store.get(id);
      if (!record || this.#live.has(id)) continue;
      const error = new JsonRpcError(ErrorCode.InternalError, STATUS_MESSAGES.restarted);
      await this.store.put({ ...record, task: withStatus(record.task, failed(error)) });
    }
  }

  async #sweep(): Promise<void> {
    for (const id of await this.store.expired(Date.now())) {
      await this.store.delete(id);
      this.#live.get(id)?.controller.abort();
      this.#live.delete(id);
    }
  }
}
