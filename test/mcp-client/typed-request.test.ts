/**
 * The typed call (runtime/mcp/client/client.ts `McpClient.request`), on a handshake connection and a 2026-07-28 one
 * alike: results are checked against the negotiated revision (a handshake result has no resultType and is
 * not refused for it), the input a tool asks for is answered by the typed handlers in either era (a request
 * on the connection, or input_required rounds), and the per-call options reach the wire: onProgress gets each
 * notifications/progress of its own call, an aborted signal and a timeout cancel the call on the server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitRequestFormParams } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpClient, McpClientError, type ClientMode, type ServerRequestHandlers } from '../../runtime/mcp/client/client.ts';
import { PeerChannel } from '../../runtime/mcp/client/channels.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpHandlers } from '../../runtime/mcp/server/types.ts';
import { createLinkedPair } from '../../runtime/transports/transport.ts';
import { eventually } from '../helpers/wait.ts';

const SERVER_INFO = { name: 'typed-server', version: '1.0.0' };
const CAPS = { tools: {} };
/** What the server saw: tools called, cancellations, and the _meta each call carried. */
const seen: { cancelled: string[]; meta: unknown[] } = { cancelled: [], meta: [] };

const HANDLERS: McpHandlers = {
  'tools/list': () => ({ tools: [{ name: 'add', inputSchema: { type: 'object' } }] }),
  'tools/call': async (params, ctx) => {
    seen.meta.push(params._meta);
    const args = params.arguments ?? {};
    if (params.name === 'add') return { content: [{ type: 'text', text: String(Number(args['a']) + Number(args['b'])) }] };
    if (params.name === 'count') {
      ctx.progress(1, 3);
      ctx.progress(2, 3, 'two of three');
      return { content: [{ type: 'text', text: 'counted' }] };
    }
    if (params.name === 'ask') {
      ctx.progress(1);
      const answer = await ctx.input('name', {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      });
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])}` }] };
    }
    // 'hang': answers only when cancelled.
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    seen.cancelled.push(params.name);
    return { content: [] };
  },
};

const clients: McpClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  seen.cancelled.length = 0;
  seen.meta.length = 0;
});

async function connected(mode: Exclude<ClientMode, 'auto'>, handlers: ServerRequestHandlers = {}): Promise<McpClient> {
  const server = new McpServer({ serverInfo: SERVER_INFO, capabilities: { handshake: CAPS, stateless: CAPS }, handlers: HANDLERS, log: () => {} });
  const [clientSide, serverSide] = createLinkedPair();
  server.connect(serverSide);
  const client = new McpClient(new PeerChannel(clientSide), {
    clientInfo: { name: 'typed-client', version: '1.0.0' },
    capabilities: { elicitation: {} },
    mode,
    handlers,
  });
  clients.push(client);
  await client.connect();
  return client;
}

const ERAS: [string, Exclude<ClientMode, 'auto'>, JsonObject][] = [
  ['handshake', 'handshake', {}],
  ['2026-07-28', 'stateless', { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } }],
];

describe.each(ERAS)('McpClient.request on a %s connection', (_era, mode, envelope) => {
  it('resolves with the result, checked against the negotiated revision', async () => {
    const client = await connected(mode);
    expect(await client.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: 'text', text: '5' }],
      ...envelope,
    });
  });

  it('takes no params where nothing in them is required', async () => {
    const client = await connected(mode);
    const listed = await client.request('tools/list');
    expect(listed.tools.map((t) => t.name)).toEqual(['add']);
  });

  it("answers the tool's input request with the typed handlers", async () => {
    const asked: unknown[] = [];
    const client = await connected(mode, {
      'elicitation/create': (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    expect((await client.request('tools/call', { name: 'ask' })).content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(asked).toEqual(['Name?']);
  });

  it('calls onProgress with each notifications/progress of the call, and only its own', async () => {
    const client = await connected(mode);
    const got: unknown[][] = [];
    const other: unknown[][] = [];
    await Promise.all([
      client.request('tools/call', { name: 'count' }, { onProgress: (...args) => got.push(args) }),
      client.request('tools/call', { name: 'count' }, { onProgress: (...args) => other.push(args) }),
    ]);
    expect(got).toEqual([
      [1, 3, undefined],
      [2, 3, 'two of three'],
    ]);
    expect(other).toEqual(got);
    // The request asked for them: a progressToken in its _meta.
    expect(seen.meta.every((m) => typeof (m as JsonObject | undefined)?.['progressToken'] !== 'undefined')).toBe(true);
  });

  it('asks for no progress without onProgress', async () => {
    const client = await connected(mode);
    await client.request('tools/call', { name: 'count' });
    expect((seen.meta[0] as JsonObject | undefined)?.['progressToken']).toBeUndefined();
  });

  it('gets progress from every input_required round (a new token each)', async () => {
    const client = await connected(mode, { 'elicitation/create': () => ({ action: 'accept', content: { name: 'Bo' } }) });
    const got: unknown[][] = [];
    await client.request('tools/call', { name: 'ask' }, { onProgress: (...args) => got.push(args) });
    // Handshake: one run of the handler; 2026-07-28: one per round (it runs again on the retry).
    expect(got).toEqual(
      mode === 'handshake'
        ? [[1, undefined, undefined]]
        : [
            [1, undefined, undefined],
            [1, undefined, undefined],
          ],
    );
  });

  it('gives the call up when its signal aborts, and the server is told', async () => {
    const client = await connected(mode);
    const controller = new AbortController();
    const call = client.request('tools/call', { name: 'hang' }, { signal: controller.signal });
    await eventually(() => seen.meta.length === 1);
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(McpClientError);
    await eventually(() => seen.cancelled.includes('hang'));
  });

  it('gives the call up after its timeoutMs, and the server is told', async () => {
    const client = await connected(mode);
    const started = Date.now();
    const error = await client.request('tools/call', { name: 'hang' }, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(2_000);
    await eventually(() => seen.cancelled.includes('hang'));
  });
});

describe('McpClient server-request handlers', () => {
  it("refuses a server request whose params do not match the negotiated revision's schema (-32602)", async () => {
    const server = new McpServer({
      serverInfo: SERVER_INFO,
      capabilities: { handshake: CAPS, stateless: CAPS },
      handlers: {
        'tools/call': async (_params, ctx) => {
          // requestedSchema must be an object schema: this one is not, so it is cast past the types on purpose
          // (the runtime sends a request as it is given it; the client is the one to check).
          const bad = { mode: 'form', message: 'x', requestedSchema: { type: 'string' } } as unknown as ElicitRequestFormParams;
          const answer = await ctx.input('x', { method: 'elicitation/create', params: bad }).catch((e: unknown) => e);
          return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
        },
      },
      log: () => {},
    });
    const [clientSide, serverSide] = createLinkedPair();
    server.connect(serverSide);
    let ran = false;
    const client = new McpClient(new PeerChannel(clientSide), {
      clientInfo: { name: 'c', version: '1' },
      capabilities: { elicitation: {} },
      mode: 'handshake',
      handlers: { 'elicitation/create': () => ((ran = true), { action: 'decline' }) },
    });
    clients.push(client);
    await client.connect();
    const result = await client.request('tools/call', { name: 'x' });
    expect(ran).toBe(false);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ code: -32602 });
  });
});
