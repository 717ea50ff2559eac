/**
 * @module emit/wire-order — `wire-order.ts` of a package whose pin has a proto: the ProtoJSON member order
 * of every message (plan/wire-order.ts) as data, for the runtime to write objects as protobuf's printers do,
 * and each rpc's input and output message (the methods' params and result, which check/manifest.ts holds
 * equal to the proto's).
 */
import type { PinPlan } from '../plan/index.ts';
import type { WireOrder } from '../plan/wire-order.ts';

export function emitWireOrder(order: WireOrder, plan: PinPlan): string {
  const rpcInputs: Record<string, string> = {};
  const rpcOutputs: Record<string, string> = {};
  for (const m of plan.methods) {
    if (m.params) rpcInputs[m.method] = m.params.ref.def;
    if (m.result) rpcOutputs[m.method] = m.result.ref.def;
  }
  return `/**
 * ProtoJSON member order of ${plan.packageName}: each proto message's fields by field number (ProtoJSON
 * names), with the message type each message-holding field carries, and each rpc's input and output
 * message.
 */
import type { WireField } from "@wiregen/core";

export const messageFields: Readonly<Record<string, readonly WireField[]>> = ${JSON.stringify(order.messages)};

/** rpc → its input message. */
export const rpcInputs: Readonly<Record<string, string>> = ${JSON.stringify(rpcInputs)};

/** rpc → its output message (each event's, for a streaming rpc). */
export const rpcOutputs: Readonly<Record<string, string>> = ${JSON.stringify(rpcOutputs)};
`;
}
