/**
 * @module mcp/ext/tasks/task-state — how the server's tasks (server.ts) change state, as pure functions over the
 * pin's types (`@wiregen/mcp-ext-tasks` DetailedTask, SEP-2663 https://modelcontextprotocol.io/seps/2663-tasks-extension
 * "Task Status"): a new status with its payload, the failed status of an error, and the params check of
 * tasks/update. Kept apart from server.ts so that file stays readable.
 */
import { methods as EXT, type DetailedTask, type Error as WireError } from '@wiregen/mcp-ext-tasks';
import type { Validator } from '../../../core/index.ts';
import { ErrorCode, isObject, JsonRpcError } from '../../../jsonrpc/message.ts';

export const now = () => new Date().toISOString();

/** The statusMessage of the ends the server decides itself. */
export const STATUS_MESSAGES = {
  cancelled: 'The task was cancelled by the client.',
  restarted: 'The server restarted before the task finished.',
};

/** The task with a new status and its payload (the previous status's payload left out). */
export function withStatus(task: DetailedTask, next: Partial<DetailedTask>): DetailedTask {
  const { taskId, createdAt, ttlMs, pollIntervalMs } = task;
  const base = { taskId, createdAt, ttlMs, lastUpdatedAt: now(), ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}) };
  // `next` is one status with its payload; the union is checked by the pin's validator when it is sent.
  return { ...base, ...next } as DetailedTask;
}

/**
 * tasks/update's params as the pin's validator checks them, but for the values of `inputResponses`: SEP-2663
 * says "A server SHOULD ignore any inputResponses responses mapped to a key that is not currently outstanding",
 * so those are not read at all, and the outstanding ones are checked against their request's result when taken
 * (#update). The shape of everything else (taskId, the map itself, `_meta`) is the schema's.
 */
export const updateParams: Validator<unknown> = Object.assign(
  (data: unknown): data is unknown => {
    const strict = EXT['tasks/update'].params;
    const ok = strict(isObject(data) && isObject(data['inputResponses']) ? { ...data, inputResponses: {} } : data);
    updateParams.errors = strict.errors ?? null;
    return ok;
  },
  { errors: null as Validator<unknown>['errors'] },
);

/** The failed status for an error the work threw: a JsonRpcError as it is, anything else -32603. */
export function failed(error: unknown): Partial<DetailedTask> {
  const e = error instanceof JsonRpcError ? error : new JsonRpcError(ErrorCode.InternalError, 'Internal error');
  const wire: WireError = { code: e.code, message: e.message };
  // The schema leaves `data` free; its generated type is an object, so other values are left out.
  if (isObject(e.data)) wire.data = e.data;
  return { status: 'failed', statusMessage: `Task failed: ${e.message}`, error: wire };
}
