/**
 * JSON Schema 2020-12 keywords reach the caller intact (SEP-1613, SEP-2106: a tool's inputSchema is the
 * server's, https://modelcontextprotocol.io/specification/2026-07-28/server/tools): our McpClient, in both
 * eras, hands tools/list's inputSchema over with `$schema`, `$defs` (and the `$anchor` inside),
 * `additionalProperties`, `allOf`/`anyOf` and `if`/`then`/`else` as the server sent them, and a schema passed
 * back as a tool argument arrives at the server unchanged (what the conformance runner's client scenario
 * json-schema-2020-12-preservation asks the driver to do, test/mcp-client/conformance-client.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpClient, type ClientMode } from '../../runtime/mcp/client/client.ts';
import { PeerChannel } from '../../runtime/mcp/client/channels.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { createLinkedPair } from '../../runtime/transports/transport.ts';

/** A 2020-12 schema with every keyword the scenario checks (written here, not copied from the runner). */
const RICH: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { place: { $anchor: 'placeDef', type: 'object', properties: { town: { type: 'string' } } } },
  properties: {
    who: { type: 'string' },
    place: { $ref: '#/$defs/place' },
    via: { enum: ['post', 'mail'] },
    post: { type: 'string' },
    mail: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['post'] }, { required: ['mail'] }] }],
  if: { properties: { via: { const: 'post' } }, required: ['via'] },
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test, never awaited
  then: { required: ['post'] },
  else: { required: ['mail'] },
  additionalProperties: false,
};
const CAPS = { tools: {} };
const received: unknown[] = [];

const clients: McpClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  received.length = 0;
});

async function connected(mode: Exclude<ClientMode, 'auto'>): Promise<McpClient> {
  const server = new McpServer({
    serverInfo: { name: 'rich', version: '1.0.0' },
    capabilities: { handshake: CAPS, stateless: CAPS },
    log: () => {},
    handlers: {
      'tools/list': () => ({
        tools: [
          { name: 'rich', inputSchema: structuredClone(RICH) as never }, // the Tool's inputSchema: a JSON Schema object (its generated type is open)
          { name: 'echo', inputSchema: { type: 'object', properties: { schema: { type: 'object' } }, required: ['schema'] } },
        ],
      }),
      'tools/call': (params) => {
        received.push(params.arguments?.['schema']);
        return { content: [{ type: 'text', text: 'echoed' }] };
      },
    },
  });
  const [clientSide, serverSide] = createLinkedPair();
  server.connect(serverSide);
  const client = new McpClient(new PeerChannel(clientSide), { clientInfo: { name: 'c', version: '1' }, mode });
  clients.push(client);
  await client.connect();
  return client;
}

describe.each(['handshake', 'stateless'] as const)('McpClient (%s) keeps JSON Schema 2020-12 keywords', (mode) => {
  it('tools/list hands the inputSchema over as sent, and a schema argument reaches the server unchanged', async () => {
    const client = await connected(mode);
    const { tools } = await client.request('tools/list', {});
    const schema = tools.find((t) => t.name === 'rich')?.inputSchema;
    expect(schema).toEqual(RICH);
    for (const keyword of ['$schema', '$defs', 'additionalProperties', 'allOf', 'if', 'then', 'else']) expect(schema).toHaveProperty([keyword]);
    await client.request('tools/call', { name: 'echo', arguments: { schema: schema as JsonObject } });
    expect(received).toEqual([RICH]);
  });
});
