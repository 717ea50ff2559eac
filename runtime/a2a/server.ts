/**
 * @module a2a/server — an A2A agent's operations, independent of the binding (JSON-RPC or HTTP+JSON): one
 * per method of the manifest, typed by the generated ServerHandlers (a method the manifest adds, or a result
 * that no longer matches the schema, fails to compile here), behind the capability gates of the dispatch
 * table. Params arrive already checked against the schema by the binding. Running the agent for a message is
 * executions.ts's; when its streams end, streams.ts's. With the `cluster` option, the server is one of many
 * instances behind one address sharing tasks, streams, cancellation and push delivery (cluster.ts, ledger.ts).
 */
import type { AuthInfo } from '../auth/info.ts';
import type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  HandlerParams,
  HandlerResult,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Method,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
} from '@wiregen/a2a-1.0';
import { lookup } from '@wiregen/a2a-1.0';
import type { A2aCluster } from './cluster.ts';
import { A2aErrors } from './errors.ts';
import { closedGate, TaskExecutions } from './executions.ts';
import type { A2aHttpOptions } from './http-options.ts';
import { cardAt } from './http-routes.ts';
import { ClusterLedger, LocalLedger, type ClusterLedgerOptions, type TaskLedger } from './ledger.ts';
import { PushSender, type PushOptions } from './push.ts';
import type { A2aVerifiers } from './security.ts';
import { InMemoryTaskStore, snapshotTask, StoreUnavailableError, type TaskStore } from './store.ts';
import {
  INTERRUPTED_STATES,
  SDK_BEHAVIOUR,
  TERMINAL_STATES,
  type A2aBehaviour,
  type AgentCard,
  type AgentExecutor,
  type Task,
  type TaskPushNotificationConfig,
} from './types.ts';
import { stderrLine } from '../jsonrpc/stderr.ts';

export interface A2aServerOptions {
  readonly card: AgentCard;
  /** The card GetExtendedAgentCard returns (to an authenticated caller); absent: -32004. */
  readonly extendedCard?: AgentCard;
  readonly executor: AgentExecutor;
  /** Default: in memory (or the cluster's store). */
  readonly store?: TaskStore;
  /**
   * Runs this server as one of many instances sharing `cluster.store` (e.g. PostgresCluster from
   * `@wiregen/runtime/a2a/postgres`); `store` is then ignored. The server joins the cluster at its first call
   * (or at `ready()`) and leaves it at `close()`. Default: none (a single instance, which at its first call or
   * `ready()` resumes or fails the tasks its store holds as SUBMITTED or WORKING: ledger.ts LocalLedger.start).
   */
  readonly cluster?: A2aCluster;
  /** How the instance recovers what dead instances left (ledger.ts). Default: every half lease time. */
  readonly recovery?: ClusterLedgerOptions;
  /** Default: the official SDK's choices. */
  readonly behaviour?: A2aBehaviour;
  /** Id generator (tasks, contexts, messages, artifacts, push configs). Default: random UUIDs. */
  readonly ids?: () => string;
  /** Clock for status timestamps. Default: the system clock. */
  readonly clock?: () => Date;
  readonly push?: PushOptions;
  readonly log?: (line: string) => void;
  /**
   * Check the credentials the card's `securityRequirements` ask for (security.ts): a bearer token (HTTP bearer,
   * OAuth 2, OpenID Connect) by `bearer`, an API key by `apiKey`. Every HTTP adapter applies them to every A2A
   * method on both bindings (not to the public card, which clients read to learn what to present); an adapter
   * refuses to start when the card requires a scheme and neither these nor an `authenticate` can check it.
   */
  readonly verifiers?: A2aVerifiers;
  /**
   * What the agent serves over HTTP beside A2A, applied by every adapter (an adapter's own options first):
   * `authenticate`, a check of your own in front of every A2A method (instead of `verifiers`), and `routes`
   * (node:http adapters only; the fetch handler refuses an agent that has them).
   */
  readonly http?: Pick<A2aHttpOptions, 'authenticate' | 'routes'>;
}

/**
 * One operation per method of the manifest, with the method's params and result types. DeleteTaskPushNotificationConfig
 * may also answer null: what the official SDK sends over JSON-RPC for its `google.protobuf.Empty` (behaviour `deleteResult`).
 */
type Operations = {
  readonly [M in Method]: (
    params: HandlerParams<M>,
    auth: AuthInfo | undefined,
  ) => Promise<HandlerResult<M> | (M extends 'DeleteTaskPushNotificationConfig' ? null : never)>;
};

/** ListTasks' page size when the request gives none, and the largest it may ask for. */
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

/** `historyLength` semantics (§3.2.4): unset all, 0 none (field omitted), n the last n. */
function withHistory(task: Task, historyLength: number | string | undefined): Task {
  if (historyLength === undefined) return task;
  const n = Number(historyLength);
  const out = { ...task };
  if (n <= 0) delete out.history;
  else if (task.history) out.history = task.history.slice(-n);
  return out;
}

/**
 * The system clock as an ISO 8601 stamp, formatted once per millisecond: one message stamps several statuses
 * (submitted, working, completed), most of them within the same millisecond under load.
 */
function systemStamp(): () => string {
  let ms = Number.NaN;
  let iso = '';
  return () => {
    const now = Date.now();
    if (now !== ms) {
      ms = now;
      iso = new Date(now).toISOString();
    }
    return iso;
  };
}

const isMethod = (method: string): method is Method => lookup(method) !== undefined;

export class A2aServer {
  readonly options: A2aServerOptions;
  readonly behaviour: A2aBehaviour;
  readonly store: TaskStore;
  readonly #ids: () => string;
  readonly #clock: () => Date;
  readonly #executions: TaskExecutions;
  readonly #ledger: TaskLedger;
  #joined: Promise<void> | undefined;
  /** Set once `ready()` has finished: calls no longer wait for it. */
  #started = false;
  /** The cards as advertised where the agent is reached (advertiseAt), when that is not what the options say. */
  #advertised: { readonly card: AgentCard; readonly extendedCard: AgentCard | undefined } | undefined;

  constructor(options: A2aServerOptions) {
    this.options = options;
    this.behaviour = options.behaviour ?? SDK_BEHAVIOUR;
    this.store = options.cluster?.store ?? options.store ?? new InMemoryTaskStore();
    this.#ids = options.ids ?? (() => crypto.randomUUID());
    this.#clock = options.clock ?? (() => new Date());
    const push = new PushSender(options.push ?? {}, this.behaviour, options.log);
    const log = (line: string) => this.log(line);
    this.#ledger = options.cluster ? new ClusterLedger(options.cluster, push, log, options.recovery) : new LocalLedger(this.store, push);
    this.#executions = new TaskExecutions({
      card: options.card,
      executor: options.executor,
      store: this.store,
      behaviour: this.behaviour,
      ids: this.#ids,
      now: options.clock ? () => this.#clock().toISOString() : systemStamp(),
      push,
      ledger: this.#ledger,
      log,
    });
  }

  /** Joins the cluster (once; a no-op without one): its messages start arriving and its recovery runs. */
  ready(): Promise<void> {
    this.#joined ??= this.#ledger.start(this.#executions).then(
      () => {
        this.#started = true;
      },
      (err: unknown) => {
        // Not joined (the store unreachable, say): the next call tries again.
        this.#joined = undefined;
        throw err;
      },
    );
    return this.#joined;
  }

  /** The public card as served: the options' card, its interface URLs moved by {@link advertiseAt}. */
  get card(): AgentCard {
    return this.#advertised?.card ?? this.options.card;
  }

  /**
   * Advertises the agent at `base` (http-routes.ts cardAt): the public and the extended card name interface
   * URLs under it, with their paths kept. The HTTP adapters call it with their `publicUrl`; `wiregen serve`
   * with the origin it listens on (or --public-url). Call it before serving, or between requests. A signed card
   * is left as it is (false: the public card was signed, so it still names the URLs it was signed with).
   */
  advertiseAt(base: string): boolean {
    const { card, extendedCard } = this.options;
    // A signed card (§8.4, AgentCard.signatures) is served as signed: moving its URLs would break the signature.
    const at = (c: AgentCard) => (c.signatures?.length ? c : cardAt(c, base));
    this.#advertised = { card: at(card), extendedCard: extendedCard && at(extendedCard) };
    return !card.signatures?.length;
  }

  newId(): string {
    return this.#ids();
  }

  log(line: string): void {
    (this.options.log ?? stderrLine)(line);
  }

  /**
   * One protocol call, as both bindings make it: the method's capability gates from the dispatch table (the
   * agent card's capabilities; -32003 for push, -32004 otherwise), then its operation. The methods below are
   * the operations themselves and check no gate. `params` have been checked against the method's params
   * schema by the binding (validation.ts checkParams), which is what makes them the method's HandlerParams.
   */
  async call(method: string, params: Record<string, unknown>, auth?: AuthInfo): Promise<unknown> {
    if (!isMethod(method)) throw A2aErrors.methodNotFound();
    const gate = closedGate(lookup(method)!, this.card);
    if (gate) throw A2aErrors.capabilityMissing(method, gate.path);
    // The first call waits for recovery (a cluster's join, or a restarted store's unfinished tasks).
    if (!this.#started) await this.ready();
    try {
      return await this.#run(method, params as HandlerParams<typeof method>, auth);
    } catch (err) {
      // The store's database is down or restarting: a retryable answer, not an internal error (docs/deployment.md).
      if (err instanceof StoreUnavailableError) throw A2aErrors.unavailable();
      throw err;
    }
  }

  /** The operation of `method`: the table is indexed by the method, so its params are that method's. */
  #run<M extends Method>(method: M, params: HandlerParams<M>, auth: AuthInfo | undefined) {
    return this.#operations[method](params, auth);
  }

  /** Each method's operation; keyed by the generated method names, so a method the manifest adds fails to compile here. */
  readonly #operations: Operations = {
    SendMessage: (p, auth) => this.sendMessage(p, auth),
    SendStreamingMessage: (p, auth) => this.sendStreamingMessage(p, auth),
    GetTask: (p) => this.getTask(p),
    ListTasks: (p) => this.listTasks(p),
    CancelTask: (p) => this.cancelTask(p),
    SubscribeToTask: (p) => this.subscribeToTask(p),
    CreateTaskPushNotificationConfig: (p) => this.createPushConfig(p),
    GetTaskPushNotificationConfig: (p) => this.getPushConfig(p),
    ListTaskPushNotificationConfigs: (p) => this.listPushConfigs(p),
    DeleteTaskPushNotificationConfig: (p) => this.deletePushConfig(p),
    GetExtendedAgentCard: async () => this.getExtendedAgentCard(),
  };

  /**
   * SendMessage: waits for a message, an interrupted or terminal task, or the agent returning. `auth`: who
   * is calling (the executor's `ctx.auth`), as the HTTP adapter's authentication verified it.
   */
  async sendMessage(req: SendMessageRequest, auth?: AuthInfo): Promise<SendMessageResponse> {
    const run = await this.#executions.begin(req, auth, !req.configuration?.returnImmediately);
    const historyLength = req.configuration?.historyLength;
    let ended: StreamResponse | undefined;
    for await (const event of run.events) {
      if (event.message) return { message: event.message };
      if (event.task && req.configuration?.returnImmediately) break;
      const state = event.statusUpdate?.status.state;
      if (state && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) {
        ended = event;
        break;
      }
    }
    // In a cluster, the task as the write that ended or interrupted it stored it, not read back (task-writes.ts).
    const task = run.taskId ? (this.#executions.taskAfter(ended) ?? (await snapshotTask(this.store, run.taskId))) : undefined;
    if (!task) throw run.unavailable ? A2aErrors.unavailable() : A2aErrors.internal();
    return { task: withHistory(task, historyLength) };
  }

  /** SendStreamingMessage: the task (or a message), then its updates until the stream closes. */
  async sendStreamingMessage(req: SendMessageRequest, auth?: AuthInfo): Promise<AsyncIterable<StreamResponse>> {
    const run = await this.#executions.begin(req, auth);
    return this.#executions.stream(run.events);
  }

  async getTask(req: GetTaskRequest): Promise<Task> {
    const task = await this.store.getTask(req.id);
    if (!task) throw A2aErrors.taskNotFound(req.id);
    return withHistory(task, req.historyLength);
  }

  async listTasks(req: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = req.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(req.pageSize);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
      throw A2aErrors.invalidParams([{ field: 'pageSize', message: `Field must be between 1 and ${MAX_PAGE_SIZE}.` }]);
    // Timestamps are compared as instants: the filter is normalised to the form the server stamps
    // (ISO 8601, UTC, milliseconds), which then also orders as text.
    let after: string | undefined;
    if (req.statusTimestampAfter) {
      const ms = Date.parse(req.statusTimestampAfter);
      if (Number.isNaN(ms)) throw A2aErrors.invalidParams([{ field: 'statusTimestampAfter', message: 'Field must be an ISO 8601 timestamp.' }]);
      after = new Date(ms).toISOString();
    }
    const query = {
      ...(req.contextId ? { contextId: req.contextId } : {}),
      ...(req.status && req.status !== 'TASK_STATE_UNSPECIFIED' ? { status: req.status } : {}),
      ...(after ? { statusTimestampAfter: after } : {}),
    };
    const total = await this.store.countTasks(query);
    let offset = 0;
    if (req.pageToken) {
      const token = Buffer.from(req.pageToken, 'base64url').toString('utf8');
      const decoded = Number(token.slice(2));
      if (!token.startsWith('o:') || !Number.isInteger(decoded) || decoded < 0 || decoded > total)
        throw A2aErrors.invalidParams([{ field: 'pageToken', message: 'Invalid page token.' }]);
      offset = decoded;
    }
    const page = (await this.store.listTasks(query, { offset, limit: pageSize })).map((task) => {
      const shaped = withHistory(task, req.historyLength);
      if (!req.includeArtifacts) delete shaped.artifacts;
      return shaped;
    });
    const next = offset + pageSize < total ? Buffer.from(`o:${offset + pageSize}`).toString('base64url') : '';
    return { tasks: page, nextPageToken: next, pageSize, totalSize: total };
  }

  async cancelTask(req: CancelTaskRequest): Promise<Task> {
    const task = await this.store.getTask(req.id);
    if (!task) throw A2aErrors.taskNotFound(req.id);
    if (TERMINAL_STATES.has(task.status.state)) throw A2aErrors.taskNotCancelable(req.id);
    await this.#executions.cancel(task);
    const after = await this.store.getTask(req.id);
    return after!;
  }

  async subscribeToTask(req: SubscribeToTaskRequest): Promise<AsyncIterable<StreamResponse>> {
    const task = await this.store.getTask(req.id);
    if (!task) throw A2aErrors.taskNotFound(req.id);
    if (TERMINAL_STATES.has(task.status.state)) throw A2aErrors.terminal(req.id, String(task.status.state));
    return this.#executions.subscribe(task);
  }

  async createPushConfig(req: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    const taskId = req.taskId ?? '';
    if (!(await this.store.getTask(taskId))) throw A2aErrors.taskNotFound(taskId);
    return this.#executions.savePushConfig(taskId, req);
  }

  async getPushConfig(req: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    const config = (await this.store.getPushConfigs(req.taskId)).find((c) => c.id === req.id);
    if (!config) throw A2aErrors.taskNotFound(req.taskId);
    return config;
  }

  async listPushConfigs(req: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    if (!(await this.store.getTask(req.taskId))) throw A2aErrors.taskNotFound(req.taskId);
    return { configs: await this.store.getPushConfigs(req.taskId), nextPageToken: '' };
  }

  async deletePushConfig(req: DeleteTaskPushNotificationConfigRequest): Promise<Record<string, never> | null> {
    if (!(await this.store.deletePushConfig(req.taskId, req.id))) throw A2aErrors.taskNotFound(req.taskId);
    this.#executions.forgetConfigs(req.taskId);
    return this.behaviour.deleteResult === 'empty' ? {} : null;
  }

  getExtendedAgentCard(): AgentCard {
    const card = this.#advertised ? this.#advertised.extendedCard : this.options.extendedCard;
    if (!card) throw A2aErrors.extendedCardNotConfigured();
    return card;
  }

  /**
   * Resolves once every execution running now and every push delivery has ended; nothing is stopped. What a
   * fetch-only platform's `waitUntil` keeps alive after the response (a2aFetchHandler's `waitUntil` option).
   */
  settled(): Promise<void> {
    return this.#executions.close();
  }

  /** Waits for every running execution and push delivery, leaves the cluster, then closes the store. */
  async close(): Promise<void> {
    await this.#executions.close();
    if (this.#joined) await this.#joined.then(() => this.#ledger.stop());
    await this.store.close?.();
  }
}
