/**
 * @module a2a/task-events — what one agent event does to a task, apart from where the task is stored: a new
 * status moves the previous status message into history (as the official SDK keeps it), an artifact chunk
 * replaces or extends the artifact of its id; and the StreamResponse update that tells the task's streams
 * and webhooks (https://a2a-protocol.org/latest/specification/, TaskStatusUpdateEvent, TaskArtifactUpdateEvent).
 */
import type { CapabilityGate, MethodEntry, StreamResponse } from '@wiregen/a2a-1.0';
import { A2aErrors } from './errors.ts';
import type { AgentCard, AgentEvent, ExecutionContext, Message, Part, Task, TaskHandle, TaskState } from './types.ts';

/** The status message of a task whose instance stopped while it ran, failed by the instance adopting it (ledger.ts). */
export const ORPHANED_STATUS = 'The instance running this task stopped before the task finished; it was failed by another instance.';
/** The status message of a task a single instance finds unfinished in its store when it starts again. */
export const RESTARTED_STATUS = 'The agent stopped before this task finished; it was failed when the agent started again.';

/** The first of `entry`'s agent gates the card's capabilities leave closed, or undefined when all are open. */
export function closedGate(entry: MethodEntry, card: AgentCard): CapabilityGate | undefined {
  const caps = card.capabilities as Record<string, unknown>;
  return entry.capabilities.find((gate) => gate.side === 'agent' && caps[gate.path[0]!] !== true);
}

/** The text of `parts`' text parts, joined by newlines. */
export function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/** Throws -32005 for the first part whose media type the card's default input modes leave out. */
export function checkInputModes(card: AgentCard, parts: readonly Part[]): void {
  const modes = card.defaultInputModes;
  for (const part of parts) {
    const type = part.mediaType || (part.text !== undefined ? 'text/plain' : part.data !== undefined ? 'application/json' : undefined);
    if (type !== undefined && !modes.includes(type)) throw A2aErrors.contentType(type);
  }
}

/** Applies `event` to `task` (changed in place) and returns the update announcing it. */
export function applyEvent(task: Task, event: AgentEvent): StreamResponse {
  const taskId = task.id;
  if (event.kind === 'status') {
    const previous = task.status.message;
    if (previous && event.status.message?.messageId !== previous.messageId) task.history = [...(task.history ?? []), previous];
    task.status = event.status;
    return { statusUpdate: { contextId: task.contextId ?? '', status: event.status, taskId } };
  }
  const artifacts = [...(task.artifacts ?? [])];
  const at = artifacts.findIndex((a) => a.artifactId === event.artifact.artifactId);
  if (at >= 0 && event.append) artifacts[at] = { ...artifacts[at]!, parts: [...artifacts[at]!.parts, ...event.artifact.parts] };
  else if (at >= 0) artifacts[at] = event.artifact;
  else artifacts.push(event.artifact);
  task.artifacts = artifacts;
  return {
    artifactUpdate: {
      ...(event.append ? { append: true } : {}),
      artifact: event.artifact,
      contextId: task.contextId ?? '',
      ...(event.lastChunk ? { lastChunk: true } : {}),
      taskId,
    },
  };
}

/** An agent message in `contextId` (and `taskId`, when given), with a fresh id. */
export function agentMessage(messageId: string, contextId: string, taskId: string | undefined, content: string | readonly Part[]): Message {
  const parts = typeof content === 'string' ? [{ text: content }] : [...content];
  return { contextId, messageId, parts, role: 'ROLE_AGENT', ...(taskId ? { taskId } : {}) };
}

/** The TaskHandle of `taskId`: each call becomes one event given to `apply`, stamped by `now`. */
export function taskHandle(
  taskId: string,
  contextId: string,
  ids: () => string,
  now: () => string,
  apply: (event: AgentEvent) => Promise<void>,
): TaskHandle {
  return new Handle(taskId, contextId, ids, now, apply);
}

/**
 * A task's handle: a class, its methods on the prototype, rather than an object literal of nine closures per
 * task (the per-request object graph the scavenger has to walk; see runtime/mcp/server/context.ts). The methods are
 * called on the handle (`task.complete()`), as TaskHandle's users do.
 */
class Handle implements TaskHandle {
  readonly taskId: string;
  readonly contextId: string;
  readonly #ids: () => string;
  readonly #now: () => string;
  readonly #apply: (event: AgentEvent) => Promise<void>;

  constructor(taskId: string, contextId: string, ids: () => string, now: () => string, apply: (event: AgentEvent) => Promise<void>) {
    this.taskId = taskId;
    this.contextId = contextId;
    this.#ids = ids;
    this.#now = now;
    this.#apply = apply;
  }

  #status(state: TaskState, message: Message | undefined): Promise<void> {
    return this.#apply({ kind: 'status', status: { ...(message ? { message } : {}), state, timestamp: this.#now() } });
  }

  agentMessage(content: string | readonly Part[]): Message {
    return agentMessage(this.#ids(), this.contextId, this.taskId, content);
  }

  working(message?: Message): Promise<void> {
    return this.#status('TASK_STATE_WORKING', message);
  }

  inputRequired(message: Message): Promise<void> {
    return this.#status('TASK_STATE_INPUT_REQUIRED', message);
  }

  authRequired(message: Message): Promise<void> {
    return this.#status('TASK_STATE_AUTH_REQUIRED', message);
  }

  complete(message?: Message): Promise<void> {
    return this.#status('TASK_STATE_COMPLETED', message);
  }

  fail(message?: Message): Promise<void> {
    return this.#status('TASK_STATE_FAILED', message);
  }

  reject(message?: Message): Promise<void> {
    return this.#status('TASK_STATE_REJECTED', message);
  }

  cancel(message?: Message): Promise<void> {
    return this.#status('TASK_STATE_CANCELED', message);
  }

  async artifact(chunk: Parameters<TaskHandle['artifact']>[0]): Promise<string> {
    const artifactId = chunk.artifactId ?? this.#ids();
    const artifact = { artifactId, ...(chunk.name !== undefined ? { name: chunk.name } : {}), parts: [...chunk.parts] };
    await this.#apply({ kind: 'artifact', artifact, ...(chunk.append ? { append: true } : {}), ...(chunk.lastChunk ? { lastChunk: true } : {}) });
    return artifactId;
  }
}

/** What AgentExecutor.resume sees of an adopted task: the task, its last user message, and its handle. */
export function resumedContext(task: Task, handle: TaskHandle, signal: AbortSignal): ExecutionContext {
  const message: Message = [...(task.history ?? [])].reverse().find((m) => m.role === 'ROLE_USER') ?? { messageId: '', role: 'ROLE_USER', parts: [] };
  return {
    message,
    task,
    contextId: handle.contextId,
    text: textOf(message.parts),
    signal,
    reply: async () => {
      throw new Error('a resumed task answers through its handle (ctx.currentTask())');
    },
    startTask: async () => handle,
    currentTask: () => handle,
  };
}
