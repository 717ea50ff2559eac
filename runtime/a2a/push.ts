/**
 * @module a2a/push — push notifications: each task update POSTed to the task's webhooks, with the config's
 * token in `X-A2A-Notification-Token` (the SDK's header) and its authentication as `Authorization`, retried
 * with exponential backoff, and never sent to a host the operator did not allow.
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import { LOOPBACK_HOSTS } from '../transports/http.ts';
import { A2aErrors } from './errors.ts';
import { inWireOrder } from './wire-order.ts';
import type { A2aBehaviour, TaskPushNotificationConfig } from './types.ts';
import { stderrLine } from '../jsonrpc/stderr.ts';

export interface PushOptions {
  /** Hostnames webhooks may point at; a config naming another host is refused (-32602). Default: none. */
  readonly allowedHosts?: readonly string[];
  /** Allow plain http:// webhooks (default: only on loopback hosts). */
  readonly allowHttp?: boolean;
  /** Attempts per notification. Default 3. */
  readonly attempts?: number;
  /** Delay before the first retry, doubled each time. Default 200 ms. */
  readonly backoffMs?: number;
  /** Per-attempt timeout. Default 5 s. */
  readonly timeoutMs?: number;
  /** Where deliveries go; injectable for tests. Default: global fetch. */
  readonly fetch?: typeof fetch;
  /**
   * Updates waiting for one webhook (one delivery at a time, each up to `attempts` × `timeoutMs`): past it
   * further updates to that webhook are left out and logged, so a slow webhook cannot grow memory. Default 64.
   */
  readonly maxQueued?: number;
}

export class PushSender {
  readonly #options: PushOptions;
  readonly #behaviour: A2aBehaviour;
  readonly #log: (line: string) => void;
  /** Deliveries still in flight (tests and shutdown wait for them). */
  readonly pending = new Set<Promise<void>>();
  /** Per webhook config, the last delivery queued: a config's updates arrive one at a time, in update order. */
  readonly #queues = new Map<string, Promise<void>>();
  /** Per webhook config, how many updates wait (the one being delivered included). */
  readonly #waiting = new Map<string, number>();

  constructor(options: PushOptions, behaviour: A2aBehaviour, log?: (line: string) => void) {
    this.#options = options;
    this.#behaviour = behaviour;
    this.#log = log ?? stderrLine;
  }

  /** Throws -32602 (field `url`) unless the webhook URL is an allowed host over an allowed scheme. */
  assertAllowed(url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw A2aErrors.invalidParams([{ field: 'url', message: 'Field must be an absolute URL.' }]);
    }
    const host = parsed.hostname.toLowerCase();
    const allowed = this.#options.allowedHosts ?? [];
    const httpOk = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && (this.#options.allowHttp || LOOPBACK_HOSTS.includes(host)));
    if (!httpOk || parsed.username || parsed.password || !allowed.includes(host))
      throw A2aErrors.invalidParams([{ field: 'url', message: `Webhook host ${host} is not allowed.` }]);
  }

  /**
   * Sends `update` to every config (in the background). Different webhooks are served side by side; one
   * webhook gets a task's updates in order, each after the previous one was delivered or given up.
   */
  deliver(configs: readonly TaskPushNotificationConfig[], update: StreamResponse): void {
    if (configs.length === 0) return;
    const body = JSON.stringify(inWireOrder(update, 'StreamResponse'));
    for (const config of configs) this.#enqueue(config, body, undefined);
  }

  /**
   * Sends bodies already serialised (a cluster's push outbox, runtime/a2a/cluster.ts), in the same per-webhook
   * order; `settled` runs for each once it was delivered, refused, given up after its retries, or left out.
   */
  deliverPrepared(
    deliveries: readonly { readonly config: TaskPushNotificationConfig; readonly body: string }[],
    settled: (index: number) => void,
  ): void {
    deliveries.forEach((d, i) => this.#enqueue(d.config, d.body, () => settled(i)));
  }

  #enqueue(config: TaskPushNotificationConfig, body: string, settled: (() => void) | undefined): void {
    const key = `${config.taskId}\u0000${config.id}\u0000${config.url}`;
    const waiting = this.#waiting.get(key) ?? 0;
    if (waiting >= (this.#options.maxQueued ?? 64)) {
      this.#log(`push to ${config.url} left out: ${waiting} updates already wait for this webhook`);
      settled?.();
      return;
    }
    this.#waiting.set(key, waiting + 1);
    const previous = this.#queues.get(key) ?? Promise.resolve();
    const p: Promise<void> = previous
      .then(() => this.#send(config, body))
      .finally(() => {
        this.pending.delete(p);
        const left = (this.#waiting.get(key) ?? 1) - 1;
        if (left > 0) this.#waiting.set(key, left);
        else this.#waiting.delete(key);
        if (this.#queues.get(key) === p) this.#queues.delete(key);
        settled?.();
      });
    this.#queues.set(key, p);
    this.pending.add(p);
  }

  async #send(config: TaskPushNotificationConfig, body: string): Promise<void> {
    try {
      this.assertAllowed(config.url);
    } catch {
      this.#log(`push to ${config.url} skipped: host not allowed`);
      return;
    }
    const headers: Record<string, string> = { 'content-type': this.#behaviour.jsonContentType };
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    if (config.authentication?.credentials) headers['authorization'] = `${config.authentication.scheme} ${config.authentication.credentials}`;
    const attempts = this.#options.attempts ?? 3;
    let delay = this.#options.backoffMs ?? 200;
    const post = this.#options.fetch ?? fetch;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await post(config.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(this.#options.timeoutMs ?? 5000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        if (res.status < 500 && res.status !== 429) {
          this.#log(`push to ${config.url} refused: HTTP ${res.status}`);
          return;
        }
      } catch (err) {
        if (attempt === attempts) this.#log(`push to ${config.url} failed: ${(err as Error).message}`);
      }
      if (attempt < attempts) {
        await new Promise((r) => setTimeout(r, delay));
        delay *= 2;
      }
    }
  }

  /** Resolves when every delivery started so far has finished. */
  async drain(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
