/**
 * @module bench/servers/wiregen-a2a — the research agent (samples/research-agent.ts, its card generated from
 * schemas/samples/a2a/research-agent.yaml) as a user's built agent runs it: compiled to one file by
 * bench/lib/built.ts, @wiregen/runtime and the generated packages from their built `dist/`, served by
 * `listenA2aHttp` exactly as `wiregen serve research-agent --http` serves it (runtime/serve.ts). Prints
 * `{"url": …}` (the base URL; JSON-RPC at /a2a, the path of the card's JSONRPC interface) when listening on
 * 127.0.0.1; exits when stdin closes.
 */
import { A2aServer, listenA2aHttp } from '@wiregen/runtime/a2a';
import agent from '../../samples/research-agent.ts';
import { untilStdinCloses } from '../lib/stdin-stop.ts';

const server = new A2aServer({
  card: agent.card,
  ...(agent.extendedCard ? { extendedCard: agent.extendedCard } : {}),
  executor: agent.executor,
  behaviour: agent.behaviour,
});
const running = await listenA2aHttp(server, { ...agent.http, port: 0 });
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
untilStdinCloses(() => running.close());
