/**
 * @module transports/transport — what the protocol layer needs from a transport: frames of JSON text in,
 * frames out, and a close. Plus an in-memory linked pair for tests.
 */

import type { AuthInfo } from '../auth/info.ts';
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
  /**
   * A notification that may be left out while the other side is not reading (`OutboundLimits.softQueueBytes`):
   * progress and log messages, which a later one supersedes or which are advisory.
   */
  readonly droppable?: boolean;
  /**
   * The frame's text as UTF-8, where it was written from bytes kept for a reusable result (jsonrpc/reusable.ts):
   * a transport that sends bytes asks for them, instead of encoding a large text again on every answer.
   */
  readonly utf8?: () => Uint8Array<ArrayBuffer>;
}

/**
 * The outbound queue of one connection (bytes written but not yet taken by the other side). Past
 * `softQueueBytes` droppable notifications are left out (counted and logged); past `maxQueueBytes` the
 * connection is closed with a logged reason, so a peer that does not read cannot grow memory without bound.
 */
export interface OutboundLimits {
  /** Queued bytes past which droppable notifications (progress, log messages) are left out. Default 1 MiB. */
  readonly softQueueBytes?: number;
  /** Queued bytes past which the connection is closed. Default 16 MiB. */
  readonly maxQueueBytes?: number;
}

export const OUTBOUND_DEFAULTS = { softQueueBytes: 1024 * 1024, maxQueueBytes: 16 * 1024 * 1024 } as const;

/**
 * What to do with a frame when `queued` bytes wait already: send it, drop it (droppable and past the soft
 * limit), or close the connection (past the hard limit).
 */
export function admitFrame(queued: number, meta: FrameMeta | undefined, limits: OutboundLimits = {}): 'send' | 'drop' | 'close' {
  if (queued > (limits.maxQueueBytes ?? OUTBOUND_DEFAULTS.maxQueueBytes)) return 'close';
  if (meta?.droppable && queued > (limits.softQueueBytes ?? OUTBOUND_DEFAULTS.softQueueBytes)) return 'drop';
  return 'send';
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
  /**
   * The peer is gone; nothing more will arrive. With a `reason`, the transport failed and can send nothing
   * more either (its outbound queue overflowed, a write failed): the reason is logged, running requests end.
   */
  close(reason?: string): void;
}

export interface Transport {
  /** Starts delivering frames to `sink`. */
  start(sink: TransportSink): void;
  /** Sends one frame. Frames are delivered in the order they are sent. */
  send(text: string, meta?: FrameMeta): void;
  /** Stops reading and releases the transport; `sink.close` is called. */
  close(): void;
  /**
   * Ends the stream the answer to incoming request `relatedTo` goes on, without ending the request, for the
   * peer to resume (Streamable HTTP with resumability: SSE polling). Optional: other transports have none.
   */
  closeStream?(relatedTo: RequestId): void;
  /**
   * Who sent incoming request `id`: the credential the carrier of its frame presented, as verified (Streamable
   * HTTP with authorization: the token of the POST that carried it). Asked while the frame is delivered.
   * Optional: other transports carry no credential (stdio).
   */
  authOf?(id: RequestId): AuthInfo | undefined;
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
