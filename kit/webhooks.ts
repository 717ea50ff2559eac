/**
 * @module kit/webhooks — the kit's push notification receiver: a loopback HTTP server that answers every
 * POST with 200 and records it (method, path, the headers that matter, body) in the order received. The
 * agents' deliveries are serialized (kit/network.ts), so that order is the order of the task's updates.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { listenHttp, readBody } from '../runtime/transports/http.ts';

export interface Reception {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface WebhookReceiver {
  /** Where it listens (not its written address). */
  readonly url: string;
  /** Receptions not yet taken, in arrival order. */
  take(): Reception[];
  close(): Promise<void>;
}

export async function listenWebhooks(port: number): Promise<WebhookReceiver> {
  const received: Reception[] = [];
  const listening = await listenHttp(
    (req, res) =>
      void readBody(req, 1024 * 1024, 5000).then(
        (body) => {
          received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
          res.writeHead(200).end();
        },
        () => res.writeHead(400).end(),
      ),
    { port },
  );
  return { url: listening.origin, take: () => received.splice(0), close: () => listening.stop() };
}
