/**
 * @module test/fuzz/probes — the hardening probes, each against `wiregen serve` from sources: the one line that
 * killed the stdio server (a response whose `error` nests 10,000 deep), nested objects and depth 100,000,
 * deep client capabilities (-32602, not -32603), `count` past its bound (-32602 naming it, at once) and a
 * request behind a long count (served in between); over A2A, deep bodies on both bindings (-32600 / -32602, never a
 * 500) and a malformed percent-encoding in a path (400). After each, the server still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../runtime/jsonrpc/limits.ts';
import { startServer, type StdioServer } from '../helpers/stdio-server.ts';
import { readyLine, startServe, type ServerProcess } from './harness/process.ts';

const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };
const arrays = (d: number, leaf = '') => `${'['.repeat(d)}${leaf}${']'.repeat(d)}`;
const objects = (d: number) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;

async function answer(server: StdioServer, id: unknown): Promise<Record<string, unknown>> {
  for (;;) {
    const next = await server.nextLine();
    if (next.kind !== 'line') throw new Error(`no answer to ${JSON.stringify(id)} (${next.kind}); stderr: ${server.stderr()}`);
    const msg = JSON.parse(next.line) as Record<string, unknown>;
    if (msg['id'] === id && msg['method'] === undefined) return msg;
  }
}

/** tools/list: the liveness check (the connection is in the 2026-07-28 era, which has no ping). */
const alive = (server: StdioServer, id: string) => {
  server.sendJson({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });
  return answer(server, id);
};

describe('stdio probes (wiregen serve recorded-server --stdio)', () => {
  let server: StdioServer;
  beforeAll(() => {
    server = startServer();
  });
  afterAll(async () => {
    const exit = await server.close();
    expect(exit.code).toBe(0);
  });

  it('the killing line: a response whose error nests 10,000 deep is not answered, and the server goes on', async () => {
    server.send(`{"jsonrpc":"2.0","id":1,"error":${arrays(10_000)}}`);
    server.send(`{"jsonrpc":"2.0","id":1,"error":${objects(10_000)}}`);
    server.send(`{"jsonrpc":"2.0","id":1,"error":${arrays(100_000)}}`);
    server.send(`{"jsonrpc":"2.0","id":1,"result":${objects(100_000)}}`);
    expect(await alive(server, 'after-deep')).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(server.alive()).toBe(true);
  });

  it('a request nested past the limit is -32600 in its envelope, -32602 in its params, with its id', async () => {
    server.send(`{"jsonrpc":"2.0","id":"env","method":"ping","extra":${arrays(100_000)}}`);
    expect(await answer(server, 'env')).toMatchObject({
      error: { code: -32600, message: `Invalid Request: message nested deeper than ${MAX_JSON_DEPTH} levels` },
    });
    server.send(
      `{"jsonrpc":"2.0","id":"par","method":"tools/call","params":{"name":"add","arguments":{"a":${arrays(10_000, '1')},"b":1},"_meta":${JSON.stringify(META)}}}`,
    );
    const refused = await answer(server, 'par');
    expect(refused).toMatchObject({ error: { code: -32602 } });
    expect((refused['error'] as { message: string }).message).toMatch(
      /^Invalid params: \/params\/arguments\/a(\/0)+\/… is nested deeper than 128 levels$/,
    );
  });

  it('deep values under clientCapabilities are -32602 (once: -32603)', async () => {
    const caps = `{"sampling":${objects(10_000)}}`;
    server.send(
      `{"jsonrpc":"2.0","id":"caps","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"${V}","io.modelcontextprotocol/clientCapabilities":${caps}}}}`,
    );
    expect(await answer(server, 'caps')).toMatchObject({ error: { code: -32602 } });
    // Within the limit, a wrong shape is the validators' -32602 too.
    const shallow = `{"sampling":${arrays(50, '1')}}`;
    server.send(
      `{"jsonrpc":"2.0","id":"caps2","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"${V}","io.modelcontextprotocol/clientCapabilities":${shallow}}}}`,
    );
    expect(await answer(server, 'caps2')).toMatchObject({ error: { code: -32602 } });
  });

  it('count past its bound (2,000,000 with a progress token, 1,000,000,000) is -32602 naming the bound, at once', async () => {
    for (const [id, n] of [
      ['big', 2_000_000],
      ['huge', 1_000_000_000],
    ] as const) {
      const started = Date.now();
      server.sendJson({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'count', arguments: { n }, _meta: { ...META, progressToken: id } },
      });
      const reply = await answer(server, id);
      expect(reply['error']).toEqual({ code: -32602, message: 'count: n must be an integer from 0 to 10000' });
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('a request behind a long count is answered before the count ends', async () => {
    server.sendJson({
      jsonrpc: '2.0',
      id: 'long',
      method: 'tools/call',
      params: { name: 'count', arguments: { n: 10_000 }, _meta: { ...META, progressToken: 'l' } },
    });
    server.sendJson({ jsonrpc: '2.0', id: 'behind', method: 'tools/list', params: { _meta: META } });
    const order: string[] = [];
    while (order.length < 2) {
      const next = await server.nextLine();
      if (next.kind !== 'line') throw new Error(next.kind);
      const msg = JSON.parse(next.line) as { id?: string; method?: string };
      if (msg.id && !msg.method) order.push(msg.id);
    }
    expect(order).toEqual(['behind', 'long']);
  });
});

describe('A2A probes (wiregen serve research-agent --http 0)', () => {
  let server: ServerProcess;
  let origin: string;
  beforeAll(async () => {
    server = startServe(['research-agent', '--http', '0', '--exit-on-stdin-close']);
    origin = String((await readyLine(server))['url']);
  });
  afterAll(() => server.stop());
  const post = (path: string, body: string) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body });

  it('JSON-RPC: deep params are -32602 with the id, a deep envelope -32600, never a 500', async () => {
    const params = await post('/a2a', `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":${objects(50_000)}}}`);
    expect(params.status).toBe(200);
    expect(await params.json()).toMatchObject({ id: 3, error: { code: -32602 } });
    const envelope = await post('/a2a', `{"jsonrpc":"2.0","id":4,"method":"SendMessage","x":${arrays(50_000)}}`);
    expect(await envelope.json()).toMatchObject({ id: 4, error: { code: -32600 } });
  });

  it('HTTP+JSON: a deep body is 400 INVALID_ARGUMENT; /tasks/% is 400, not 500', async () => {
    const deep = await post('/message:send', `{"message":${objects(50_000)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const bad = await fetch(`${origin}/tasks/%`, { headers: { 'a2a-version': '1.0' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 400, message: 'Malformed percent-encoding in the request path: %' } });
    expect(server.died()).toBeUndefined();
  });
});
