/**
 * @module transports/transport — what the protocol layer needs from a transport: frames of JSON text in,
 * frames out, and a close. Plus an in-memory linked pair for tests.
 */

import type { Incoming, RequestId } from '../jsonrpc/message.ts';

/** What a frame is, for transports that route frames (HTTP sends each to the exchange it belongs to). */
export interface FrameMeta {
  readonly kind: 'response' | 'notification' | 'request';
  /** The id of a response or of an outgoing request. */
  readonly id?: RequestId | null;
  /** A response's error code, when it is an error. */
  readonly errorCode?: number;
  /** The incoming request a notification or an outgoing request was produced for. */
  readonly relatedTo?: RequestId;
}

/** Callbacks a transport delivers to. */
export interface TransportSink {
  /**
   * One frame: its JSON text, and, when the transport had to read it already (HTTP looks at a request
   * before routing it), the message as parsed and classified, so it is not parsed twice.
   */
  message(text: string, parsed?: Incoming): void;
  /** A frame larger than the transport accepts was dropped; the protocol answers -32600 with id null. */
  oversize?(limit: number): void;
  /** The peer is gone; nothing more will arrive. */
  close(): void;
}

export interface Transport {
  /** Starts delivering frames to `sink`. */
  start(sink: TransportSink): void;
  /** Sends one frame. Frames are delivered in the order they are sent. */
  send(text: string, meta?: FrameMeta): void;
  /** Stops reading and releases the transport; `sink.close` is called. */
  close(): void;
}

/** Two transports wired to each other in memory, delivering asynchronously (as a real pipe would). */
export function createLinkedPair(): [Transport, Transport] {
  const make = (): Transport & { peer?: Transport & { sink?: TransportSink }; sink?: TransportSink; closed: boolean } => {
    const t: Transport & { peer?: Transport & { sink?: TransportSink }; sink?: TransportSink; closed: boolean } = {
      closed: false,
      start(sink) {
        t.sink = sink;
      },
      send(text) {
        if (t.closed) return;
        queueMicrotask(() => t.peer?.sink?.message(text));
      },
      close() {
        if (t.closed) return;
        t.closed = true;
        queueMicrotask(() => {
          t.sink?.close();
          t.peer?.close();
        });
      },
    };
    return t;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
