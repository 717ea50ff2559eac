/**
 * What the endpoint says about its methods and its single-valued headers, on the fetch handler (where a repeated
 * header arrives comma-joined): a repeated Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method or Last-Event-ID is
 * 400 with a JSON-RPC error naming that header, and a 405's Allow lists what the endpoint accepts (GET and DELETE
 * with a session, or where sessions can be opened). Cases are ours.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mcpFetchHandler, type McpFetchHandler } from '../../runtime/mcp/http/adapters.ts';
import { JSON_HEADERS, statelessBody, statelessHeaders } from '../helpers/http-client.ts';
import { INIT, mcpFixture, rpc } from './mcp-fixture.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';

const handlers: McpFetchHandler[] = [];
afterEach(() => handlers.splice(0).forEach((h) => h.close()));

function serve(options: Partial<McpServerOptions> = {}): McpFetchHandler {
  const handler = mcpFetchHandler(mcpFixture(options).server);
  handlers.push(handler);
  return handler;
}

/** A request whose headers are appended in order (a name given twice is sent twice). */
const request = (method: string, headers: [string, string][], body?: string) => {
  const h = new Headers();
  for (const [name, value] of headers) h.append(name, value);
  return new Request('http://127.0.0.1/mcp', { method, headers: h, ...(body !== undefined ? { body } : {}) });
};
const entries = (record: Record<string, string>): [string, string][] => Object.entries(record);

async function openSession(mcp: McpFetchHandler): Promise<string> {
  const res = await mcp(request('POST', entries(JSON_HEADERS), rpc(1, 'initialize', INIT)));
  await res.text();
  const id = res.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  await (await mcp(request('POST', [...entries(JSON_HEADERS), ['mcp-session-id', id!]], rpc(undefined, 'notifications/initialized')))).text();
  return id!;
}

async function answer(res: Response) {
  return { status: res.status, error: ((await res.json()) as { error?: { message: string } }).error?.message };
}

describe('repeated single-valued headers (fetch joins them with ", ")', () => {
  it('two Mcp-Session-Id headers: 400 naming it', async () => {
    const mcp = serve();
    const id = await openSession(mcp);
    const res = await mcp(request('POST', [...entries(JSON_HEADERS), ['mcp-session-id', id], ['mcp-session-id', id]], rpc(2, 'ping')));
    expect(await answer(res)).toEqual({ status: 400, error: 'Bad Request: Mcp-Session-Id is repeated' });
  });

  it('two MCP-Protocol-Version headers without a session: 400 naming it', async () => {
    const mcp = serve();
    const headers = entries(statelessHeaders('tools/list'));
    const res = await mcp(request('POST', [...headers, ['mcp-protocol-version', '2026-07-28']], statelessBody(1, 'tools/list')));
    expect(await answer(res)).toEqual({ status: 400, error: 'Missing or repeated required header: mcp-protocol-version' });
  });

  it('two Mcp-Method headers: 400 naming it', async () => {
    const mcp = serve();
    const headers = entries(statelessHeaders('tools/list'));
    const res = await mcp(request('POST', [...headers, ['mcp-method', 'tools/list']], statelessBody(1, 'tools/list')));
    expect(await answer(res)).toEqual({ status: 400, error: 'Missing or repeated required header: mcp-method' });
  });

  it('two MCP-Protocol-Version headers in a session: 400 naming it', async () => {
    const mcp = serve();
    const id = await openSession(mcp);
    const version: [string, string] = ['mcp-protocol-version', '2025-11-25'];
    const res = await mcp(request('POST', [...entries(JSON_HEADERS), ['mcp-session-id', id], version, version], rpc(2, 'ping')));
    expect(await answer(res)).toEqual({ status: 400, error: 'Bad Request: MCP-Protocol-Version is repeated' });
  });

  it('two MCP-Protocol-Version headers on initialize: 400 naming it, no session opened', async () => {
    const mcp = serve();
    const version: [string, string] = ['mcp-protocol-version', '2025-11-25'];
    const res = await mcp(request('POST', [...entries(JSON_HEADERS), version, version], rpc(1, 'initialize', INIT)));
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await answer(res)).toEqual({ status: 400, error: 'Bad Request: MCP-Protocol-Version is repeated' });
  });

  it.each(['GET', 'DELETE'])('%s with two MCP-Protocol-Version headers: 400 naming it', async (method) => {
    const mcp = serve();
    const id = await openSession(mcp);
    const version: [string, string] = ['mcp-protocol-version', '2025-11-25'];
    const res = await mcp(request(method, [['accept', 'text/event-stream'], ['mcp-session-id', id], version, version]));
    expect(await answer(res)).toEqual({ status: 400, error: 'Bad Request: MCP-Protocol-Version is repeated' });
  });

  it('GET with two Last-Event-ID headers: 400 naming it (not a fresh stream)', async () => {
    const mcp = serve();
    const id = await openSession(mcp);
    const res = await mcp(
      request('GET', [
        ['accept', 'text/event-stream'],
        ['mcp-session-id', id],
        ['last-event-id', '1'],
        ['last-event-id', '2'],
      ]),
    );
    expect(await answer(res)).toEqual({ status: 400, error: 'Bad Request: Last-Event-ID is repeated' });
  });
});

describe('405 and Allow', () => {
  const allowOf = async (res: Response) => (await res.text(), [res.status, res.headers.get('allow')]);

  it('OPTIONS with a session lists GET, POST, DELETE', async () => {
    const mcp = serve({ supportedVersions: ['2025-11-25', '2026-07-28'] });
    const id = await openSession(mcp);
    expect(await allowOf(await mcp(request('OPTIONS', [['mcp-session-id', id]])))).toEqual([405, 'GET, POST, DELETE']);
  });

  it('OPTIONS and PUT on a server that opens sessions list GET, POST, DELETE', async () => {
    const mcp = serve();
    expect(await allowOf(await mcp(request('OPTIONS', [])))).toEqual([405, 'GET, POST, DELETE']);
    expect(await allowOf(await mcp(request('PUT', entries(JSON_HEADERS), '{}')))).toEqual([405, 'GET, POST, DELETE']);
  });

  it('a server that serves only 2026-07-28 (no sessions) lists POST', async () => {
    const mcp = serve({ supportedVersions: ['2026-07-28'] });
    expect(await allowOf(await mcp(request('OPTIONS', [])))).toEqual([405, 'POST']);
  });

  it('GET without a session stays POST only: that request can be nothing else', async () => {
    const mcp = serve();
    expect(await allowOf(await mcp(request('GET', [['accept', 'text/event-stream']])))).toEqual([405, 'POST']);
  });
});
