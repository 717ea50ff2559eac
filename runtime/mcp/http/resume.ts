/**
 * @module mcp/http/resume — resumable SSE streams of Streamable HTTP sessions
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery,
 * SEP-1699 polling): with `McpHttpOptions.resumability`, every SSE stream of a session begins with a priming
 * event (an id, empty data, a `retry` delay), every event carries an id that names its stream
 * (`<stream>-<seq>`, unique within the session), and the events are kept in a replay log bounded in bytes.
 * A client that lost a stream (or was told to poll: `ctx.closeStream()`) reconnects with a GET carrying
 * `Last-Event-ID`: it receives the events of that stream after that id — never another stream's — then the
 * rest of it, as they come.
 */

/** `McpHttpOptions.resumability`. */
export interface ResumabilityOptions {
  /**
   * Bytes of events kept for replay per session, oldest dropped first; a reconnect whose events were dropped
   * is not resumed (it opens a fresh GET stream). Default 1 MiB.
   */
  readonly replayBytes?: number;
  /** The `retry` field (ms) of each priming event: how long a client waits before reconnecting. Default 1,000. */
  readonly retryMs?: number;
}

export const RESUME_DEFAULTS = { replayBytes: 1024 * 1024, retryMs: 1000 } as const;

interface Recorded {
  readonly stream: number;
  readonly seq: number;
  readonly text: string;
  readonly bytes: number;
}

/** The events of one session's streams, for replay: bounded by `replayBytes` (the oldest go first). */
export class ReplayLog {
  readonly retryMs: number;
  readonly #limit: number;
  readonly #events: Recorded[] = [];
  #head = 0;
  #bytes = 0;
  #streams = 0;
  /** Per stream, its last sequence number. */
  readonly #seq = new Map<number, number>();
  /** Per stream, the highest sequence number dropped from the log (its events up to it cannot be replayed). */
  readonly #dropped = new Map<number, number>();

  constructor(options: ResumabilityOptions = {}) {
    this.#limit = options.replayBytes ?? RESUME_DEFAULTS.replayBytes;
    this.retryMs = options.retryMs ?? RESUME_DEFAULTS.retryMs;
  }

  /** A new stream: its number and the id of its priming event (sequence 0, not recorded). */
  open(): { stream: number; primingId: string } {
    const stream = ++this.#streams;
    this.#seq.set(stream, 0);
    return { stream, primingId: `${stream}-0` };
  }

  /** Records one event of `stream`; returns its id. */
  record(stream: number, text: string): string {
    const seq = (this.#seq.get(stream) ?? 0) + 1;
    this.#seq.set(stream, seq);
    // UTF-16 length ×2 bounds the memory a string takes; cheaper than encoding it.
    const bytes = text.length * 2;
    this.#events.push({ stream, seq, text, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.#limit && this.#head < this.#events.length) {
      const old = this.#events[this.#head++]!;
      this.#bytes -= old.bytes;
      this.#dropped.set(old.stream, old.seq);
    }
    // Compact now and then, so the array does not keep what was dropped.
    if (this.#head > 1024 && this.#head * 2 > this.#events.length) {
      this.#events.splice(0, this.#head);
      this.#head = 0;
    }
    return `${stream}-${seq}`;
  }

  /** Bytes held (what `replayBytes` bounds). */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The stream `lastEventId` names and its events after it (id and text), or undefined when the id is not one
   * of this log's or some of those events were dropped.
   */
  after(lastEventId: string): { stream: number; events: { id: string; text: string }[] } | undefined {
    const m = /^(\d+)-(\d+)$/.exec(lastEventId);
    if (!m) return undefined;
    const stream = Number(m[1]);
    const seq = Number(m[2]);
    const last = this.#seq.get(stream);
    if (last === undefined || seq > last || (this.#dropped.get(stream) ?? 0) > seq) return undefined;
    const events: { id: string; text: string }[] = [];
    for (let i = this.#head; i < this.#events.length; i++) {
      const e = this.#events[i]!;
      if (e.stream === stream && e.seq > seq) events.push({ id: `${stream}-${e.seq}`, text: e.text });
    }
    return { stream, events };
  }
}
