/**
 * @module bench/a2a/sdk-server — the peer for part 4: the official @a2a-js/sdk 1.3 server running the recorded
 * research agent, the one the A2A tests drive (test/a2a/sdk-agent.ts: DefaultRequestHandler, InMemoryTaskStore,
 * the express card and JSON-RPC handlers, the fixture's card), so the benchmark's peer is the agent the
 * interop tests check. "summarise the design notes" gets the task completed with one `summary` artifact in
 * two chunks. Prints `{"url": …}` (the server's base URL; JSON-RPC at /a2a, as ours) when listening on
 * 127.0.0.1; exits when stdin closes.
 */
import { startSdkResearchAgent } from '../../test/a2a/sdk-agent.ts';
import { untilStdinCloses } from '../lib/stdin-stop.ts';

const agent = await startSdkResearchAgent();
process.stdout.write(`${JSON.stringify({ url: agent.url })}\n`);
untilStdinCloses(() => agent.close());
