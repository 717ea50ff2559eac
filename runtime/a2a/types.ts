/**
 * @module a2a/types — an A2A agent's configuration, the small API an agent's code implements (an executor
 * that emits messages, tasks and updates), and the behaviour choices where the specification leaves room
 * (the official SDK's choices and the A2A 101 kit's differ; a server picks one set).
 */
import type { AuthInfo } from '../auth/info.ts';
import type { AgentCard, Artifact, Message, Part, Task, TaskPushNotificationConfig, TaskState, TaskStatus } from '@wiregen/a2a-1.0';

export type { AgentCard, Artifact, Message, Part, Task, TaskPushNotificationConfig, TaskState, TaskStatus };

/** What one execution of the agent emits; the server applies each to the stored task in order. */
export type AgentEvent =
  | { readonly kind: 'status'; readonly status: TaskStatus }
  | { readonly kind: 'artifact'; readonly artifact: Artifact; readonly append?: boolean; readonly lastChunk?: boolean };

/** The status calls of a task the agent is working on (the shape of the SDK's TaskUpdater). */
export interface TaskHandle {
  readonly taskId: string;
  readonly contextId: string;
  /** An agent message in this task's context, for a status or a reply. */
  agentMessage(content: string | readonly Part[]): Message;
  working(message?: Message): Promise<void>;
  inputRequired(message: Message): Promise<void>;
  authRequired(message: Message): Promise<void>;
  complete(message?: Message): Promise<void>;
  fail(message?: Message): Promise<void>;
  reject(message?: Message): Promise<void>;
  cancel(message?: Message): Promise<void>;
  /** One artifact chunk: `append` adds its parts to the artifact of the same id, `lastChunk` ends it. */
  artifact(chunk: { artifactId?: string; name?: string; parts: readonly Part[]; append?: boolean; lastChunk?: boolean }): Promise<string>;
}

/** What the agent's code sees for one incoming message. */
export interface ExecutionContext {
  /** The client's message, with its contextId (and taskId, for a task) filled in. */
  readonly message: Message;
  /** The task the message continues, as stored (its history already holds the message), or undefined. */
  readonly task: Task | undefined;
  readonly contextId: string;
  /** The text of the message's text parts, joined. */
  readonly text: string;
  /** Aborted when the task is cancelled. */
  readonly signal: AbortSignal;
  /**
   * Who is calling: the bearer token the HTTP request of this message presented, as the agent's security
   * verified it (its `verifiers.bearer`, e.g. `jwtVerifier` of @wiregen/runtime/auth, or an `authenticate` of
   * its own that returns `auth`). Undefined for an agent without security, a requirement met by an API key
   * only, and an execution resumed after a restart (`AgentExecutor.resume`: no request carries it).
   */
  readonly auth?: AuthInfo | undefined;
  /** Answers with a message and no task. */
  reply(content: string | readonly Part[]): Promise<void>;
  /** Creates the task for this message (state submitted) and returns its handle. */
  startTask(): Promise<TaskHandle>;
  /** The handle of the task this message continues (throws when there is none). */
  currentTask(): TaskHandle;
}

/** The agent's code: one method per incoming message, and how to cancel a running task. */
export interface AgentExecutor {
  execute(ctx: ExecutionContext): Promise<void>;
  /** Called to cancel a running task; the default emits the canceled status. */
  cancel?(task: TaskHandle): Promise<void>;
  /**
   * Called for a task left running (SUBMITTED or WORKING) by an agent that stopped: in a cluster (A2aServer's
   * `cluster` option) on the instance that adopted it; on a single instance with a persistent store (SQLite),
   * when the agent starts again (its first call or `ready()`). `ctx.task` is the task as stored, `ctx.message`
   * its last user message, and `ctx.currentTask()` its handle: continue from there. Absent: the task is failed
   * with a status message saying why.
   */
  resume?(ctx: ExecutionContext): Promise<void>;
}

/**
 * Where the specification leaves a choice, or says one thing and the reference SDK does another. The two
 * presets below are the official Python SDK's choices (a2a-sdk 1.2.2, what the recordings show) and the A2A 101
 * kit's (kit/README.md; it follows the specification's text where the SDK does not).
 */
export interface A2aBehaviour {
  /** Stamp the first TASK_STATE_SUBMITTED status with a time (the field is optional). */
  readonly stampSubmitted: boolean;
  /** Error details' ErrorInfo metadata: empty, or naming the task (as the specification's examples). */
  readonly errorMetadata: 'empty' | 'context';
  /** What DeleteTaskPushNotificationConfig returns over JSON-RPC: null, or `{}` (the JSON of an empty message). */
  readonly deleteResult: 'null' | 'empty';
  /** Content type of HTTP+JSON responses and errors, and of push notifications. */
  readonly jsonContentType: 'application/json' | 'application/a2a+json';
  /** A push config created without an id gets the task's id, or a new id. */
  readonly pushConfigId: 'taskId' | 'new';
  /** Webhooks also receive the first Task snapshot (not only status and artifact updates). */
  readonly pushFirstTask: boolean;
  /** Version check: the major version from the header, or exactly `1.0` from the header or the query. */
  readonly versionCheck: 'major-header' | 'exact-header-or-query';
  /** The card is served with a weak ETag (and 304 to a matching If-None-Match). */
  readonly cardEtag: boolean;
  /** SSE keep-alive comment interval; 0 for none. */
  readonly keepAliveMs: number;
  /** When a stream closes: when the agent's execute() returns, or at a terminal or input-required state. */
  readonly streamClose: 'execute-returns' | 'terminal-or-input-required';
  /** Refuse parts whose media type is not in the card's defaultInputModes (-32005). */
  readonly inputModeCheck: boolean;
  /** When a client answers an interrupted task, the server sets TASK_STATE_WORKING itself before the agent resumes. */
  readonly resumeSetsWorking: boolean;
  /** Member order of JSON-RPC responses and stream frames: `result|error, id, jsonrpc`, or `jsonrpc, id, result|error`. */
  readonly envelopeOrder: 'result-first' | 'jsonrpc-first';
}

export const SDK_BEHAVIOUR: A2aBehaviour = {
  stampSubmitted: false,
  errorMetadata: 'empty',
  deleteResult: 'null',
  jsonContentType: 'application/json',
  pushConfigId: 'taskId',
  pushFirstTask: true,
  versionCheck: 'major-header',
  cardEtag: true,
  keepAliveMs: 15_000,
  streamClose: 'execute-returns',
  inputModeCheck: false,
  resumeSetsWorking: false,
  envelopeOrder: 'result-first',
};

export const KIT_BEHAVIOUR: A2aBehaviour = {
  stampSubmitted: true,
  errorMetadata: 'context',
  deleteResult: 'empty',
  jsonContentType: 'application/a2a+json',
  pushConfigId: 'new',
  pushFirstTask: false,
  versionCheck: 'exact-header-or-query',
  cardEtag: false,
  keepAliveMs: 0,
  streamClose: 'terminal-or-input-required',
  inputModeCheck: true,
  resumeSetsWorking: true,
  envelopeOrder: 'jsonrpc-first',
};

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);
