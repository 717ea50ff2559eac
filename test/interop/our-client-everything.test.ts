/**
 * Our McpClient against a server that is not ours: the official server-everything (@modelcontextprotocol/
 * server-everything, SDK-based, handshake era only) over stdio and Streamable HTTP (bound to 127.0.0.1), in
 * handshake and auto modes. Auto mode asks server/discover first; the SDK's HTTP server refuses it with HTTP
 * 400 and -32000 ("Server not initialized"), its stdio server with an error answer: the client falls back to
 * initialize on any error answer, as the official v2 client does (runtime/mcp/client/client.ts refusedDiscovery).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { McpClient, type ClientMode } from '../../runtime/mcp/client/client.ts';
import { HttpChannel, spawnStdio } from '../../runtime/mcp/client/channels.ts';
import { EVERYTHING, everythingHttp, stopAll } from './helpers.ts';

afterAll(stopAll);
const INFO = { name: 'wiregen-interop', version: '1.0.0' };

type Transport = 'stdio' | 'http';
async function connect(transport: Transport, mode: Exclude<ClientMode, 'stateless'>): Promise<McpClient> {
  const channel =
    transport === 'stdio'
      ? spawnStdio(process.execPath, [EVERYTHING, 'stdio'], { stderr: () => {} })
      : new HttpChannel((await everythingHttp()).href);
  const client = new McpClient(channel, {
    clientInfo: INFO,
    mode,
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
    timeoutMs: 30_000,
    handlers: {
      'sampling/createMessage': () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm', stopReason: 'endTurn' }),
      'elicitation/create': () => ({ action: 'decline' }),
      'roots/list': () => ({ roots: [] }),
    },
  });
  await client.connect();
  return client;
}

describe.each([
  ['stdio', 'handshake'],
  ['stdio', 'auto'],
  ['http', 'handshake'],
  ['http', 'auto'],
] as const)('our client against server-everything over %s (%s mode)', (transport, mode) => {
  it('connects in the handshake era, lists and calls tools, reads a resource, gets a prompt, completes', async () => {
    const client = await connect(transport, mode);
    try {
      expect(client.era).toBe('handshake');
      expect(client.serverInfo?.name).toBe('mcp-servers/everything');
      const { tools } = await client.request('tools/list', {});
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      expect(await client.request('tools/call', { name: 'echo', arguments: { message: 'hi' } })).toMatchObject({
        content: [{ type: 'text', text: 'Echo: hi' }],
      });
      expect(await client.request('tools/call', { name: 'get-sum', arguments: { a: 2, b: 3 } })).toMatchObject({
        content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
      });
      const { resources } = await client.request('resources/list', {});
      expect(resources.length).toBeGreaterThan(0);
      const read = await client.request('resources/read', { uri: resources[0]!.uri });
      expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
      const prompt = await client.request('prompts/get', { name: 'simple-prompt' });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'This is a simple prompt without arguments.' });
      const completion = await client.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'E' },
      });
      expect(completion.completion.values).toContain('Engineering');
    } finally {
      await client.close();
    }
  }, 90_000);
});
