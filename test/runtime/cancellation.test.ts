/**
 * Cancellation (runtime/jsonrpc/peer.ts, mcp/connection.ts): notifications/cancelled naming a running
 * request aborts its ctx.signal, and no response is ever sent for it, in either era; the connection goes
 * on serving other requests.
 */
import { describe, expect, it } from 'vitest';
import { LazyAbort } from '../../runtime/jsonrpc/incoming.ts';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, SERVER_INFO, withMeta, type McpPair } from '../helpers/mcp-pair.ts';

/** A server whose `wait` tool runs until aborted, then still returns a result (which must not be sent). */
function setup() {
  const aborted: unknown[] = [];
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const options: McpServerOptions = {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    handlers: {
      'tools/call': (params, ctx) => {
        if (params['name'] !== 'wait') return { content: [{ type: 'text', text: 'quick' }] };
        started();
        return new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted.push(ctx.signal.reason instanceof Error ? ctx.signal.reason.message : ctx.signal.reason);
            resolve({ content: [{ type: 'text', text: 'late' }] });
          });
        });
      },
    },
  };
  return { options, aborted, running };
}

async function enterEra(pair: McpPair, era: string): Promise<(p: JsonObject) => JsonObject> {
  if (era === 'handshake') {
    await handshake(pair);
    return (p) => p;
  }
  return (p) => withMeta(p);
}

describe('cancellation', () => {
  const eras: [string, { era: string; id: string | number }][] = [
    ['2026-07-28, numeric id', { era: 'stateless', id: 5 }],
    ['2026-07-28, string id', { era: 'stateless', id: 'call-5' }],
    ['handshake, numeric id', { era: 'handshake', id: 5 }],
    ['handshake, string id', { era: 'handshake', id: 'call-5' }],
  ];
  it.each(eras)('aborts the request and never answers it (%s)', async (_name, { era, id }) => {
    const { options, aborted, running } = setup();
    const pair = mcpPair(options);
    const params = await enterEra(pair, era);
    pair.send({ jsonrpc: '2.0', id, method: 'tools/call', params: params({ name: 'wait' }) });
    await running;
    pair.notify('notifications/cancelled', { requestId: id, reason: 'changed my mind' });
    await pair.quiet();
    expect(aborted).toEqual(['Request cancelled']);
    expect(pair.frames.filter((f) => JSON.stringify(f['id']) === JSON.stringify(id))).toEqual([]);
    expect(pair.connection.peer.running).toBe(0);
    expect((await pair.request('tools/call', params({ name: 'quick' }), id)).response['result']).toMatchObject({
      content: [{ type: 'text', text: 'quick' }],
    });
    await pair.close();
  });

  it('cancels a request whose id is an int64 beyond 2^53', async () => {
    const { options, aborted, running } = setup();
    const pair = mcpPair(options);
    const envelope = '"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}';
    pair.send(`{"jsonrpc":"2.0","id":9223372036854775807,"method":"tools/call","params":{"name":"wait","_meta":{${envelope}}}}`);
    await running;
    pair.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9223372036854775807}}');
    await pair.settle();
    expect(aborted).toEqual(['Request cancelled']);
    expect(pair.lines).toEqual([]);
    await pair.close();
  });

  it('does not cancel a request whose id differs only in type', async () => {
    const { options, aborted, running } = setup();
    const pair = mcpPair(options);
    pair.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: withMeta({ name: 'wait' }) });
    await running;
    pair.notify('notifications/cancelled', { requestId: '5' });
    await pair.quiet();
    expect(aborted).toEqual([]);
    expect(pair.connection.peer.running).toBe(1);
    pair.notify('notifications/cancelled', { requestId: 5 });
    await pair.quiet();
    expect(aborted).toEqual(['Request cancelled']);
    await pair.close();
  });

  const ignored: [string, { params: JsonObject }][] = [
    ['an unknown id', { params: { requestId: 404 } }],
    ['no requestId', { params: {} }],
    ['an unusable requestId', { params: { requestId: 1.5 } }],
  ];
  it.each(ignored)('ignores a cancellation naming %s', async (_name, { params }) => {
    const { options } = setup();
    const pair = mcpPair(options);
    pair.notify('notifications/cancelled', params);
    await pair.quiet();
    expect((await pair.request('tools/call', withMeta({ name: 'quick' }))).response['result']).toBeDefined();
    await pair.close();
  });
});

describe('LazyAbort.onAbort (how a held listen stream learns it ended, without an AbortSignal)', () => {
  it('calls the first callback once, at the first abort, and the signal made later carries the first reason', () => {
    const abort = new LazyAbort();
    const calls: string[] = [];
    abort.onAbort(() => calls.push('first'));
    abort.onAbort(() => calls.push('second'));
    expect(calls).toEqual([]);
    abort.abort('cancelled');
    abort.abort('closed');
    expect(calls.sort()).toEqual(['first', 'second']);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe('cancelled');
  });

  it('calls a callback at once when already aborted, and alongside a signal made before', () => {
    const abort = new LazyAbort();
    const seen: string[] = [];
    abort.signal.addEventListener('abort', () => seen.push('signal'));
    abort.onAbort(() => seen.push('slot'));
    abort.abort('x');
    abort.onAbort(() => seen.push('late'));
    expect(seen).toEqual(['signal', 'slot', 'late']);
  });
});
