/**
 * @module a2a/postgres/bus — messages between instances through PostgreSQL LISTEN/NOTIFY
 * (https://www.postgresql.org/docs/current/sql-notify.html): a payload published on a channel reaches every
 * connection listening to it, in commit order, once the publishing transaction commits. One dedicated
 * connection listens (a pooled one could be handed to another query); when it drops, it reconnects with
 * backoff and tells `onReconnect` listeners, since what was published meanwhile is gone. A payload is at most
 * {@link MAX_PAYLOAD_BYTES}: larger messages travel by reference (the A2A events, cluster.ts).
 */
import pg from 'pg';

/** PostgreSQL's NOTIFY payload limit is 8000 bytes in the default configuration; a margin is kept. */
export const MAX_PAYLOAD_BYTES = 7900;

export interface PostgresBusOptions {
  /** First delay before reconnecting the listening connection, doubled up to 5 s. Default 200 ms. */
  readonly reconnectMs?: number;
  readonly log?: (line: string) => void;
}

type Handler = (payload: string) => void;

export class PostgresBus {
  readonly #pool: pg.Pool;
  readonly #config: pg.ClientConfig;
  readonly #options: PostgresBusOptions;
  readonly #handlers = new Map<string, Set<Handler>>();
  readonly #reconnected = new Set<() => void>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  /** Publishes through `pool`; listens on a connection of its own made from `config` (the pool's, by default). */
  constructor(pool: pg.Pool, options: PostgresBusOptions = {}, config: pg.ClientConfig = pool.options) {
    this.#pool = pool;
    this.#config = config;
    this.#options = options;
  }

  /** Publishes `payload` on `channel` (outside any transaction of the caller's). */
  async publish(channel: string, payload: string): Promise<void> {
    await this.#pool.query({ name: 'wiregen-bus-notify', text: 'SELECT pg_notify($1, $2)', values: [channel, payload] });
  }

  /** Calls `handler` with each payload published on `channel` from now on; resolves once listening. */
  async listen(channel: string, handler: Handler): Promise<() => void> {
    let set = this.#handlers.get(channel);
    const fresh = !set;
    if (!set) this.#handlers.set(channel, (set = new Set()));
    set.add(handler);
    await this.#connect();
    if (fresh) await this.#client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return () => {
      set!.delete(handler);
    };
  }

  /** Calls `listener` after the listening connection came back: messages published while it was down are lost. */
  onReconnect(listener: () => void): () => void {
    this.#reconnected.add(listener);
    return () => this.#reconnected.delete(listener);
  }

  #connect(): Promise<void> {
    if (this.#client || this.#closed) return Promise.resolve();
    this.#connecting ??= this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const client = new pg.Client(this.#config);
    client.on('notification', (n) => {
      for (const handler of this.#handlers.get(n.channel) ?? []) handler(n.payload ?? '');
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    await client.connect();
    for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
  }

  #lost(client: pg.Client, delay = this.#options.reconnectMs ?? 200): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    this.#options.log?.('the PostgreSQL listening connection dropped: reconnecting');
    const attempt = (wait: number) => {
      this.#retry = setTimeout(() => {
        this.#connect().then(
          () => {
            for (const listener of this.#reconnected) listener();
          },
          () => attempt(Math.min(wait * 2, 5000)),
        );
      }, wait);
      this.#retry.unref();
    };
    attempt(delay);
  }

  /** Stops listening and closes the connection (the pool is the caller's). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
