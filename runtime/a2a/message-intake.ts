/**
 * @module a2a/message-intake — what happens to a client's message before the agent runs (executions.ts): the
 * checks made before anything is stored, and the read-modify-write that adds a message to the task it
 * continues (the interrupted status's question moved into history, then the client's message).
 */
import type { SendMessageRequest } from '@wiregen/a2a-1.0';
import { lookup } from '@wiregen/a2a-1.0';
import { A2aErrors } from './errors.ts';
import type { TaskLedger } from './ledger.ts';
import type { PushSender } from './push.ts';
import { copyJson, TaskConflictError } from './store.ts';
import { checkInputModes, closedGate } from './task-events.ts';
import { INTERRUPTED_STATES, TERMINAL_STATES, type A2aBehaviour, type AgentCard, type Message, type Task } from './types.ts';

/**
 * Refuses a message before anything is stored: not the user's (a2a.proto SendMessageRequest: the client sends
 * ROLE_USER), parts the card's defaultInputModes do not take, or a webhook given with it where the card does
 * not offer push notifications or the URL is not allowed.
 */
export function checkIncoming(req: SendMessageRequest, card: AgentCard, behaviour: A2aBehaviour, push: PushSender): void {
  const incoming = req.message;
  if (incoming.role !== 'ROLE_USER') throw A2aErrors.invalidParams([{ field: 'message.role', message: 'Field must be ROLE_USER.' }]);
  if (behaviour.inputModeCheck) checkInputModes(card, incoming.parts);
  const webhook = req.configuration?.taskPushNotificationConfig;
  if (webhook) {
    // A webhook given with the message is a push config created with it: the gate of creating one.
    const gate = closedGate(lookup('CreateTaskPushNotificationConfig')!, card);
    if (gate) throw A2aErrors.capabilityMissing('CreateTaskPushNotificationConfig', gate.path);
    push.assertAllowed(webhook.url);
  }
}

/** What adding a message to a task asks of the executions. */
export interface ContinueHost {
  readonly ledger: TaskLedger;
  /** Whether the task is working here (not waiting for the client), so it takes no new message. */
  busy(taskId: string, state: Task['status']['state']): boolean;
  /** The task is about to be written: drop what is kept of it. */
  forget(taskId: string): void;
}

/**
 * Adds the client's message to the task it names (call it under the task's lock): the checks, the status
 * message moving into history, then the message, saved; returns a copy of the task and the message as stored.
 */
export async function continueTask(
  host: ContinueHost,
  incoming: Message,
  taskId: string,
  contextIdOf: (task: Task) => string,
): Promise<{ task: Task; message: Message }> {
  const read = await host.ledger.read(taskId);
  const found = read?.task;
  if (!read || !found) throw A2aErrors.taskNotFound(taskId);
  if (TERMINAL_STATES.has(found.status.state)) throw A2aErrors.terminal(found.id, String(found.status.state));
  // a2a.proto Message: a client message naming both a task and a context must name the task's context.
  if (incoming.contextId && found.contextId && incoming.contextId !== found.contextId)
    throw A2aErrors.invalidParams([{ field: 'message.contextId', message: `Task ${taskId} belongs to context ${found.contextId}.` }]);
  // A task that is working (not waiting for the client) takes no new message until it stops or is cancelled.
  if (host.busy(taskId, found.status.state)) throw A2aErrors.unsupported(`Task ${taskId} is still running; wait for it or cancel it`, { taskId });
  // In a cluster, a task another live instance runs (and is not waiting for the client) is refused the same way.
  if (host.ledger.shared && !INTERRUPTED_STATES.has(found.status.state) && !(await host.ledger.claim(taskId)))
    throw A2aErrors.unsupported(`Task ${taskId} is still running; wait for it or cancel it`, { taskId });
  const message: Message = { ...incoming, contextId: contextIdOf(found), taskId };
  if (found.status.message) found.history = [...(found.history ?? []), found.status.message];
  found.history = [...(found.history ?? []), message];
  found.status = { ...found.status };
  delete found.status.message;
  host.forget(taskId);
  try {
    await host.ledger.save(found, read.version, undefined, 'take');
  } catch (err) {
    if (err instanceof TaskConflictError)
      throw A2aErrors.unsupported(`Task ${taskId} changed while this message was being added; send it again`, { taskId });
    throw err;
  }
  return { task: copyJson(found), message };
}
