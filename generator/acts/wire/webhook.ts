/**
 * @module acts/wire/webhook — the push notification receiver the runner hosts for tests that configure
 * webhooks (§3.2 `webhook_endpoint`): an HTTP server on 127.0.0.1 that answers 200 to every POST and keeps
 * what it received. Its URL is given to the suites as the `webhookUrl` variable they use.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A notification the receiver got. */
export interface Delivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: readonly Delivery[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (an ephemeral port); close it when the run ends. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Bounded: a run keeps the first thousand notifications.
      if (deliveries.length < 1000) deliveries.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/acts`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => undefined),
  };
}
