/**
 * @module a2a/wire-order — writes A2A objects with their members in ProtoJSON order (each proto message's
 * fields by field number, generated/a2a-1.0/wire-order.ts), the order protobuf's JSON printers use and so
 * the reference SDK's. Members the proto does not know (an extension's) follow, in the order they came;
 * google.protobuf.Struct values (metadata, data parts) are kept as they are.
 */
import { messageFields, rpcInputs, rpcOutputs } from '@wiregen/a2a-1.0';
import { isObject } from '../jsonrpc/message.ts';

/** `value` (a `message` of the proto) with its members in wire order, recursively; anything else unchanged. */
export function inWireOrder(value: unknown, message: string): unknown {
  if (Array.isArray(value)) return value.map((v) => inWireOrder(v, message));
  const fields = messageFields[message];
  if (!fields || !isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (!(field.name in value)) continue;
    const member = value[field.name];
    if (!field.message) out[field.name] = member;
    else if (field.map && isObject(member))
      out[field.name] = Object.fromEntries(Object.entries(member).map(([k, v]) => [k, inWireOrder(v, field.message!)]));
    else out[field.name] = inWireOrder(member, field.message);
  }
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = value[key];
  return out;
}

/** The result of `method` (one event of it, for a streaming method) in wire order. */
export function resultInWireOrder(method: string, result: unknown): unknown {
  const message = rpcOutputs[method];
  return message ? inWireOrder(result, message) : result;
}

/** The params of `method` (a request's, as a client sends them) in wire order. */
export function paramsInWireOrder(method: string, params: unknown): unknown {
  const message = rpcInputs[method];
  return message ? inWireOrder(params, message) : params;
}

/** The ProtoJSON name of a proto field name (`task_id` → `taskId`), e.g. of a route's path variable. */
export function protoJsonName(field: string): string {
  return field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
