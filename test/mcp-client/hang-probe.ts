/**
 * A process that meets servers which never answer, then ends by itself (no process.exit): bad-server.test.ts
 * runs it and requires it to exit 0 within seconds, proving the client leaves no timer, socket or child behind
 * once a timed-out call has failed and the client is closed.
 *
 *   node --import tsx test/mcp-client/hang-probe.ts
 *
 * Writes one JSON line per case: `{"case", "error": {name, code, message, cause}}`.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { McpClient, McpClientError } from '../../runtime/mcp/client/client.ts';
import { HttpChannel, spawnStdio } from '../../runtime/mcp/client/channels.ts';
import type { ClientChannel } from '../../runtime/mcp/client/client.ts';

const SCRIPT = join(import.meta.dirname, 'bad-stdio-server.mjs');
const TIMEOUT_MS = 200;

async function attempt(name: string, channel: ClientChannel): Promise<void> {
  const client = new McpClient(channel, { clientInfo: { name: 'hang-probe', version: '1.0.0' }, mode: 'stateless', timeoutMs: TIMEOUT_MS });
  await client.connect();
  try {
    await client.call('tools/list');
    process.stdout.write(`${JSON.stringify({ case: name, error: null })}\n`);
  } catch (err) {
    const e = err as McpClientError;
    const cause = e.cause as Error | undefined;
    const error = { name: e.name, typed: err instanceof McpClientError, code: e.code, message: e.message, cause: cause ? cause.name : null };
    process.stdout.write(`${JSON.stringify({ case: name, error })}\n`);
  } finally {
    await client.close();
  }
}

for (const mode of ['silent', 'garbage', 'eof']) await attempt(`stdio ${mode}`, spawnStdio(process.execPath, [SCRIPT, mode]));

const sockets = new Set<import('node:net').Socket>();
const server = createServer(() => {}); // accepts every request and never answers
server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as import('node:net').AddressInfo;
await attempt('http never', new HttpChannel(`http://127.0.0.1:${port}/mcp`));
server.close();
server.closeAllConnections();
