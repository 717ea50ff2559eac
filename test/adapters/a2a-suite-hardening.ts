/**
 * @module test/adapters/a2a-suite-hardening — the A2A transport suite's hardening cases, for every
 * way of serving: a body nested past MAX_JSON_DEPTH is refused before the validators walk it (JSON-RPC: -32602
 * with the id when only params are deep, else -32600; HTTP+JSON: 400 INVALID_ARGUMENT), and a path with
 * malformed percent-encoding is 400; never a 500, and the agent goes on serving.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { testCard } from '../helpers/a2a-server.ts';
import { send } from '../helpers/http-client.ts';
import type { A2aTarget, Served } from './targets.ts';

const RPC_HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const objects = (d: number) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;

export function a2aHardeningCases(target: A2aTarget): void {
  let srv: Served;
  beforeAll(async () => {
    const server = new A2aServer({ card: testCard({ streaming: true }), executor: { execute: async (ctx) => ctx.reply('hi') }, log: () => {} });
    srv = await target.start(server, {});
  });
  afterAll(() => srv.close());

  it('JSON-RPC: params nested 50,000 deep are -32602 with the id; a deep envelope member is -32600', async () => {
    const params = await send(`${srv.url}/a2a`, {
      headers: RPC_HEADERS,
      body: `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":${objects(50_000)}}}`,
    });
    expect([params.status, params.json?.['id'], (params.json?.['error'] as { code?: number } | undefined)?.code]).toEqual([200, 3, -32602]);
    const envelope = await send(`${srv.url}/a2a`, {
      headers: RPC_HEADERS,
      body: `{"jsonrpc":"2.0","id":4,"method":"SendMessage","x":${objects(50_000)}}`,
    });
    expect([envelope.status, envelope.json?.['id'], (envelope.json?.['error'] as { code?: number } | undefined)?.code]).toEqual([200, 4, -32600]);
  });

  it('HTTP+JSON: a deep body is 400 INVALID_ARGUMENT, a malformed percent-encoding in the path 400; the agent goes on', async () => {
    const deep = await send(`${srv.url}/rest/message:send`, { headers: RPC_HEADERS, body: `{"message":${objects(50_000)}}` });
    expect([deep.status, (deep.json?.['error'] as { status?: string } | undefined)?.status]).toEqual([400, 'INVALID_ARGUMENT']);
    const bad = await send(`${srv.url}/rest/tasks/%`, { method: 'GET', headers: { 'a2a-version': '1.0' } });
    expect(bad.status).toBe(400);
    const ok = await send(`${srv.url}/a2a`, { headers: RPC_HEADERS, body: '{"jsonrpc":"2.0","id":5,"method":"GetTask","params":{"id":"none"}}' });
    expect([ok.status, ok.json?.['id']]).toEqual([200, 5]);
  });
}
