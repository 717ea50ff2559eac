/**
 * @module test/adapters/mcp-suite-hardening — the transport suite's hardening cases, for every way
 * of serving: a message nested past MAX_JSON_DEPTH is refused with the right JSON-RPC error and status (-32600
 * for the envelope, -32602 for params, 202 for a posted response as for any response), never a 500; an SSE
 * answer's outbound queue is bounded: a flood of progress notifications is partly left out (the response
 * still comes), and a stream past its hard limit is aborted with a logged reason while the server goes on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../runtime/jsonrpc/limits.ts';
import type { RequestContext } from '../../runtime/mcp/server/types.ts';
import { call, JSON_HEADERS, open, send, statelessHeaders } from '../helpers/http-client.ts';
import { CAPS, PV } from '../helpers/mcp-pair.ts';
import { INIT, mcpFixture, rpc } from './mcp-fixture.ts';
import type { McpTarget, Served } from './targets.ts';

const V = '2026-07-28';
const nest = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
/** A 2026-07-28 tools/call whose arguments hold `value` (JSON text). */
const deepCall = (id: number, value: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"x","arguments":{"v":${value}},"_meta":{"${PV}":"${V}","${CAPS}":{}}}}`;

/** A tool that sends `n` progress notifications in one go, then answers. */
function flood(n: number) {
  return (_p: unknown, ctx: RequestContext) => {
    for (let i = 1; i <= n; i++) ctx.progress(i, n);
    return { content: [{ type: 'text' as const, text: `flooded ${n}` }] };
  };
}

export function hardeningCases(target: McpTarget): void {
  const logs: string[] = [];
  const fixture = mcpFixture({
    log: (line) => logs.push(line),
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (params, ctx) => (params.name === 'flood' ? flood(200_000)(params, ctx) : { content: [{ type: 'text', text: 'ok' }] }),
    },
  });
  let srv: Served;
  beforeAll(async () => {
    srv = await target.start(fixture.server, { softQueueBytes: 64 * 1024, maxQueueBytes: 1024 * 1024 });
  });
  afterAll(() => srv.close());
  const stillServing = async () => {
    const reply = await call(srv.url, 'tools/list', {}, { id: 'after' });
    expect([reply.status, reply.json?.['id']]).toEqual([200, 'after']);
  };

  it('a posted response nested 10,000 deep is accepted with 202, as any response (once: 500)', async () => {
    const reply = await send(srv.url, { headers: JSON_HEADERS, body: `{"jsonrpc":"2.0","id":1,"error":${nest(10_000)}}` });
    expect([reply.status, reply.text]).toEqual([202, '']);
    await stillServing();
  });

  it(`params nested past ${MAX_JSON_DEPTH} levels are 400 -32602 with the id, naming where; at the limit they are served`, async () => {
    for (const depth of [MAX_JSON_DEPTH, 1_000, 100_000]) {
      const reply = await send(srv.url, { headers: statelessHeaders('tools/call', 'x'), body: deepCall(7, nest(depth)) });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ id: 7, error: { code: -32602 } });
      expect(String((reply.json?.['error'] as { message?: string } | undefined)?.message)).toMatch(
        /^Invalid params: \/params\/arguments\/v\/0\/.*nested deeper than 128 levels$/,
      );
    }
    // message, params, arguments, v: 4 levels before the array, so the array may hold 124.
    const atLimit = await send(srv.url, { headers: statelessHeaders('tools/call', 'x'), body: deepCall(8, nest(MAX_JSON_DEPTH - 5)) });
    expect([atLimit.status, atLimit.json?.['id']]).toEqual([200, 8]);
  });

  it('deep client capabilities are 400 -32602, not -32603; a deep envelope member is 400 -32600', async () => {
    const caps = `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"${PV}":"${V}","${CAPS}":{"sampling":${nest(5_000)}}}}}`;
    const deepCaps = await send(srv.url, { headers: statelessHeaders('tools/list'), body: caps });
    expect([deepCaps.status, deepCaps.json?.['id'], (deepCaps.json?.['error'] as { code: number })?.code]).toEqual([400, 9, -32602]);
    const envelope = await send(srv.url, {
      headers: statelessHeaders('tools/list'),
      body: `{"jsonrpc":"2.0","id":10,"method":"tools/list","x":${nest(5_000)}}`,
    });
    expect([envelope.status, envelope.json?.['id'], (envelope.json?.['error'] as { code: number })?.code]).toEqual([400, 10, -32600]);
    await stillServing();
  });

  it('a flood of progress is partly left out past the soft limit; the response still comes, and the leaving out is logged', async () => {
    logs.length = 0;
    const reply = await call(srv.url, 'tools/call', { name: 'flood' }, { id: 'flood', meta: { progressToken: 'f' } });
    expect(reply.status).toBe(200);
    const progress = reply.frames.filter((f) => f['method'] === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(200_000);
    expect(reply.frames.at(-1)).toMatchObject({ id: 'flood', result: { content: [{ type: 'text', text: 'flooded 200000' }] } });
    expect(logs.some((l) => /left out \d+ progress\/log notification/.test(l))).toBe(true);
    await stillServing();
  });

  it('a session GET stream past maxQueueBytes is aborted with a logged reason; the server goes on', async () => {
    logs.length = 0;
    const init = await send(srv.url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', INIT) });
    const session = String(init.headers['mcp-session-id']);
    const inSession = { ...JSON_HEADERS, 'mcp-session-id': session };
    expect((await send(srv.url, { headers: inSession, body: rpc(undefined, 'notifications/initialized') })).status).toBe(202);
    const stream = await open(srv.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    expect(stream.status).toBe(200);
    // Each list_changed is ~70 bytes and may not be left out: 100,000 of them overflow a 1 MiB queue.
    for (let i = 0; i < 100_000; i++) fixture.server.listChanged('tools');
    await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream was not aborted')), 10_000))]);
    expect(logs.some((l) => l.startsWith('SSE stream aborted: outbound queue over 1048576 bytes'))).toBe(true);
    expect(stream.frames.length).toBeLessThan(100_000);
    await stillServing();
  });
}
