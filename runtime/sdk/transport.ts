/**
 * @module sdk/transport — the transports an SDK-style server connects to: the SDK's `Transport` shape (whole
 * JSON-RPC messages in `onmessage`, out with `send`), e.g. its `InMemoryTransport`, carried by wiregen's
 * frame transport (transports/transport.ts); and the stdio transport of `@wiregen/runtime/sdk/stdio`, which
 * is wiregen's own.
 */
import type { Transport as WireTransport } from '../transports/transport.ts';

/** A JSON-RPC message as the SDK's transports carry it (an object; its own type is the SDK's schema-derived union). */
export type JSONRPCMessage = Readonly<Record<string, unknown>>;

/**
 * The SDK's Transport: messages as objects. The callbacks are declared as methods so that a transport typed
 * with the SDK's own message union (e.g. its InMemoryTransport) is one.
 */
export interface Transport {
  start(): Promise<void>;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
  onmessage?(message: JSONRPCMessage): void;
  onclose?(): void;
  onerror?(error: Error): void;
}

/** A transport that is a wiregen frame transport underneath (the stdio one). */
export const WIRE_TRANSPORT: unique symbol = Symbol('wiregen transport');
interface Wired {
  readonly [WIRE_TRANSPORT]: () => WireTransport;
}

/** `transport` as wiregen's: its own when it has one, else frames carried as the SDK's messages. */
export function toWireTransport(transport: Transport): WireTransport {
  const wired = (transport as Partial<Wired>)[WIRE_TRANSPORT];
  if (wired) return wired.call(transport);
  return {
    start(sink) {
      transport.onmessage = (message) => sink.message(JSON.stringify(message));
      transport.onclose = () => sink.close();
      transport.onerror = () => undefined;
      transport.start().catch((err: unknown) => sink.close(`transport failed to start: ${(err as Error).message}`));
    },
    send(text) {
      transport.send(JSON.parse(text) as JSONRPCMessage).catch(() => undefined);
    },
    close() {
      void transport.close();
    },
  };
}
