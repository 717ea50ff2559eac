/**
 * @module plan/wire-order — the member order of ProtoJSON output, read off the proto: each message's fields
 * by field number (what protobuf's JSON printers write, the A2A SDK's among them), with the message type of
 * every field that holds messages, and each rpc's input and output message. The JSON Schema cannot say this: its
 * properties are sorted by name.
 */
import type { ProtoFile } from '../load/proto.ts';

export interface WireField {
  /** The ProtoJSON (lowerCamelCase) name. */
  readonly name: string;
  /** The message type the field holds (a single one, each element of a list, or each value of a map). */
  readonly message?: string;
  /** The field is a map: `message` applies to each of its values. */
  readonly map?: true;
}

export interface WireOrder {
  readonly messages: Readonly<Record<string, readonly WireField[]>>;
  /** rpc name → its input message. */
  readonly rpcInputs: Readonly<Record<string, string>>;
  /** rpc name → its output message (the message of each event, for a streaming rpc). */
  readonly rpcOutputs: Readonly<Record<string, string>>;
}

export function planWireOrder(proto: ProtoFile): WireOrder {
  const local = (type: string): string | undefined => {
    const name = type.startsWith(`${proto.package}.`) ? type.slice(proto.package.length + 1) : type;
    return proto.messages.has(name) ? name : undefined;
  };
  const messages: Record<string, WireField[]> = {};
  for (const name of [...proto.messages.keys()].sort()) {
    messages[name] = [...proto.messages.get(name)!.fields]
      .sort((a, b) => a.number - b.number)
      .map((f) => {
        const message = local(f.map ? f.map.value : f.type);
        return { name: f.jsonName, ...(message ? { message } : {}), ...(f.map && message ? { map: true as const } : {}) };
      });
  }
  const named = (type: string) => local(type) ?? type.replace(/^google\.protobuf\./, '');
  const rpcInputs: Record<string, string> = {};
  const rpcOutputs: Record<string, string> = {};
  for (const service of proto.services)
    for (const rpc of service.rpcs) {
      rpcInputs[rpc.name] = named(rpc.input);
      rpcOutputs[rpc.name] = named(rpc.output);
    }
  return { messages, rpcInputs, rpcOutputs };
}
