/**
 * @module plan/wire-order — the member order of ProtoJSON output, read off the proto: each message's fields
 * by field number (what protobuf's JSON printers write, the A2A SDK's among them), with the message type of
 * every field that holds messages. The JSON Schema cannot say this: its properties are sorted by name. (Each
 * rpc's input and output message are the manifest's params and result, which check/manifest.ts holds to the
 * proto; emit/wire-order.ts writes them from the plan's methods.)
 */
import type { WireField } from '@wiregen/core';
import { protoTypeName, type ProtoFile } from '../load/proto.ts';

export interface WireOrder {
  /** Message name → its fields by field number. */
  readonly messages: Readonly<Record<string, readonly WireField[]>>;
}

export function planWireOrder(proto: ProtoFile): WireOrder {
  const messages: Record<string, WireField[]> = {};
  for (const name of [...proto.messages.keys()].sort()) {
    messages[name] = [...proto.messages.get(name)!.fields]
      .sort((a, b) => a.number - b.number)
      .map((f) => {
        const type = protoTypeName(proto, f.map ? f.map.value : f.type);
        const message = proto.messages.has(type) ? type : undefined;
        return { name: f.jsonName, ...(message ? { message } : {}), ...(f.map && message ? { map: true as const } : {}) };
      });
  }
  return { messages };
}
