/**
 * @module acts/wire/operations — the abstract operations of ACTS (§4.1) and the A2A methods they stand for.
 * The JSON-RPC method names and HTTP+JSON routes are not written here again: they are the generated A2A 1.0
 * package's dispatch table (the proto's method names and google.api.http annotations,
 * https://a2a-protocol.org/latest/specification/). ACTS's own table (§4.1) says `/pushNotifications` where the
 * A2A 1.0 proto says `/pushNotificationConfigs`; the proto wins, as §6.2's note has the A2A specification win.
 */
import { methods, type MethodEntry } from '@wiregen/a2a-1.0';

export type A2aMethod = keyof typeof methods;

/** What an abstract operation is: an A2A method (or the card's GET), and whether it streams. */
export interface Operation {
  /** The A2A method; undefined for `get_agent_card`, an HTTP GET of the card on either binding. */
  readonly method: A2aMethod | undefined;
  readonly streaming: boolean;
}

const op = (method: A2aMethod | undefined, streaming = false): Operation => ({ method, streaming });

/**
 * §4.1's operations, and the names the shipped suites use for the push operations (A2A 0.3's
 * `set/get/list/delete_push_notification_config[s]`), read as the same operations.
 */
export const OPERATIONS: Readonly<Record<string, Operation>> = {
  send_message: op('SendMessage'),
  send_streaming_message: op('SendStreamingMessage', true),
  get_task: op('GetTask'),
  list_tasks: op('ListTasks'),
  cancel_task: op('CancelTask'),
  subscribe_to_task: op('SubscribeToTask', true),
  get_agent_card: op(undefined),
  get_extended_agent_card: op('GetExtendedAgentCard'),
  create_push_config: op('CreateTaskPushNotificationConfig'),
  get_push_config: op('GetTaskPushNotificationConfig'),
  list_push_configs: op('ListTaskPushNotificationConfigs'),
  delete_push_config: op('DeleteTaskPushNotificationConfig'),
  set_push_notification_config: op('CreateTaskPushNotificationConfig'),
  get_push_notification_config: op('GetTaskPushNotificationConfig'),
  list_push_notification_configs: op('ListTaskPushNotificationConfigs'),
  delete_push_notification_config: op('DeleteTaskPushNotificationConfig'),
};

/** The dispatch entry of `method` (its HTTP+JSON routes). */
export function entryOf(method: A2aMethod): MethodEntry {
  return methods[method] as MethodEntry;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The proto field name of a path variable in ProtoJSON (`task_id` → `taskId`). */
const jsonName = (field: string) => field.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The HTTP+JSON request of `method` with `params`: the first route without a tenant (or with one, when the
 * params name a tenant), path variables filled from the params, the rest in the query (no body) or the body.
 */
export function restRequest(method: A2aMethod, params: Record<string, unknown>): { verb: string; path: string; body: unknown } {
  const routes = entryOf(method).http;
  const route = routes.find((r) => r.path.includes('{tenant}') === (params['tenant'] !== undefined)) ?? routes[0];
  if (!route) throw new Error(`${method} has no HTTP+JSON route`);
  const rest: Record<string, unknown> = { ...params };
  const path = route.path.replace(/\{([a-z_]+)(?:=\*)?\}/g, (_, field: string) => {
    const name = jsonName(field);
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  if (route.body === '*') return { verb: route.verb, path, body: rest };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== null) query.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const qs = query.toString();
  return { verb: route.verb, path: qs ? `${path}?${qs}` : path, body: undefined };
}

/**
 * The request params of an abstract operation on the wire (§4.3: params are the abstract data model, the
 * runner serializes). Two readings: a message without `messageId` gets a fresh one (§4.3, §12.4); the push
 * operations' `{taskId, pushNotificationConfig: {...}}` becomes A2A 1.0's flat TaskPushNotificationConfig
 * (`{taskId, url, …}`, the proto's CreateTaskPushNotificationConfig request); and `taskId`/`contextId` written
 * beside the message of a send (the shipped multi-turn suite does) go into the message, where A2A 1.0's
 * SendMessageRequest carries them (Message.taskId, Message.contextId), unless the message has its own.
 */
export function wireParams(method: A2aMethod | undefined, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  const message = out['message'];
  if (message && typeof message === 'object' && !Array.isArray(message) && !('messageId' in message))
    out['message'] = { messageId: crypto.randomUUID(), ...(message as Record<string, unknown>) };
  if ((method === 'SendMessage' || method === 'SendStreamingMessage') && isRecord(out['message']))
    for (const key of ['taskId', 'contextId'])
      if (key in out) {
        const m = out['message'] as Record<string, unknown>;
        out['message'] = key in m ? m : { ...m, [key]: out[key] };
        delete out[key];
      }
  const config = out['pushNotificationConfig'];
  if (method === 'CreateTaskPushNotificationConfig' && config && typeof config === 'object' && !Array.isArray(config)) {
    delete out['pushNotificationConfig'];
    Object.assign(out, config);
  }
  return out;
}
