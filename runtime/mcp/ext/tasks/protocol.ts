/**
 * @module mcp/ext/tasks/protocol — the facts of the tasks extension (SEP-2663,
 * https://modelcontextprotocol.io/seps/2663-tasks-extension) the runtime uses beside its pinned schema
 * (`@wiregen/mcp-ext-tasks`): the identifier, the negotiation check and the errors it answers with.
 */
import { ErrorCode, isObject, JsonRpcError, type JsonObject } from '../../../jsonrpc/message.ts';

/** SEP-2663 "Extension Identifier". */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether a request's client capabilities declare the extension (SEP-2663 "Capability Negotiation"). */
export function declaresTasks(capabilities: JsonObject | undefined): boolean {
  const extensions = capabilities?.['extensions'];
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/**
 * -32021 (schema 2026-07-28 `MissingRequiredClientCapabilityError`) naming the extension, as the SEP's examples
 * do: for tasks/* from a client that did not declare it, for task notifications on subscriptions/listen, and
 * for a request the server can only serve with a task.
 */
export const missingTasksCapability = () =>
  new JsonRpcError(-32021, 'Missing required client capability', { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });

/** -32602 for a task id the server does not know (SEP-2663 "Protocol Errors", the SEP's own messages). */
export const taskNotFound = (expired = false) =>
  new JsonRpcError(ErrorCode.InvalidParams, `Failed to retrieve task: ${expired ? 'Task has expired' : 'Task not found'}`);
