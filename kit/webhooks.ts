/**
 * @module kit/webhooks — the kit's push notification receiver: a loopback HTTP server that answers every
 * POST with 200 and records it (method, path, the headers that matter, body) in the order received. The
 * agents' deliveries are serialized (kit/network.ts), so that order is the order of the task's updates.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    take: () => received.splice(0),
    close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))),
  };
}
