/**
 * @module a2a-agent/main — serves the forecaster with plain Node: `node dist/main.js <port>` listens on 127.0.0.1:<port>
 * (default 41241) and publishes a card whose interface URL is where it listens, or PUBLIC_URL behind a proxy.
 */
import { A2aServer, listenA2aHttp } from '@wiregen/runtime/a2a';
import agent from './agent.js';

const port = Number(process.argv[2] ?? 41241);
const base = process.env['PUBLIC_URL'] ?? `http://127.0.0.1:${port}`;
const card = {
  ...agent.card,
  supportedInterfaces: agent.card.supportedInterfaces.map((i) => ({ ...i, url: `${base}${new URL(i.url).pathname}` })),
};
const server = new A2aServer({ ...agent, card });
const running = await listenA2aHttp(server, { port });
process.stdout.write(`${JSON.stringify({ ready: true, url: running.url })}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
