/**
 * @module emit/wire-order — `wire-order.ts` of a package whose pin has a proto: the ProtoJSON member order
 * of every message (plan/wire-order.ts) as data, for the runtime to write objects as protobuf's printers do.
 */
import type { PinPlan } from '../plan/index.ts';

export function emitWireOrder(plan: PinPlan): string | undefined {
  const order = plan.wireOrder;
  if (!order) return undefined;
  return `/**
 * ProtoJSON member order of ${plan.packageName}: each proto message's fields by field number (ProtoJSON
 * names), with the message type each message-holding field carries, and each rpc's input and output
 * message.
 */
export interface WireField {
  readonly name: string;
  /** The message type the field holds (a single one, each element of a list, or each value of a map). */
  readonly message?: string;
  /** The field is a map: \`message\` applies to each of its values. */
  readonly map?: true;
}

export const messageFields: Readonly<Record<string, readonly WireField[]>> = ${JSON.stringify(order.messages)};

/** rpc → its input message. */
export const rpcInputs: Readonly<Record<string, string>> = ${JSON.stringify(order.rpcInputs)};

/** rpc → its output message (each event's, for a streaming rpc). */
export const rpcOutputs: Readonly<Record<string, string>> = ${JSON.stringify(order.rpcOutputs)};
`;
}
