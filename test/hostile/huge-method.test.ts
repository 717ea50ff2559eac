/**
 * A method name larger than a server's header limit, mirrored into Mcp-Method (2026-07-28): the server answers
 * 431 on every Node adapter rather than resetting the connection, and our client refuses to send such a request
 * at all, with an McpClientLimitError naming `maxHeaderBytes`, before anything goes out. Cases are ours.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../runtime/mcp/client/client.ts';
import { HttpChannel } from '../../runtime/mcp/client/channels.ts';
import { CLIENT_LIMIT_DEFAULTS, McpClientLimitError } from '../../runtime/mcp/client/limits.ts';
import { listenMcpHttp, type RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { mcpFixture } from '../adapters/mcp-fixture.ts';
import { statelessBody, statelessHeaders } from '../helpers/http-client.ts';

const HUGE = `x/${'m'.repeat(20 * 1024)}`;
const running: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** POSTs with node:http and reports the status, or the socket error when there is no answer. */
function post(url: string, headers: Record<string, string>, body: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end(body);
  });
}

describe('a method name past the header limit', () => {
  it('the server answers 431 (no connection reset)', async () => {
    const s = await listenMcpHttp(mcpFixture().server, { port: 0 });
    running.push(s);
    expect(await post(s.url, statelessHeaders(HUGE), statelessBody(1, HUGE))).toBe(431);
    // and keeps serving
    expect(await post(s.url, statelessHeaders('tools/list'), statelessBody(2, 'tools/list'))).toBe(200);
  });

  it('our client refuses before sending: McpClientLimitError naming maxHeaderBytes', async () => {
    const sent: string[] = [];
    const channel = new HttpChannel('http://127.0.0.1:9/mcp', {
      fetch: async (input) => {
        sent.push(String(input));
        throw new Error('nothing may be sent');
      },
    });
    const client = new McpClient(channel, { clientInfo: { name: 'c', version: '1' }, mode: 'stateless' });
    await client.connect();
    const error = await client.call(HUGE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientLimitError);
    expect(error).toMatchObject({ limit: 'maxHeaderBytes', max: CLIENT_LIMIT_DEFAULTS.maxHeaderBytes });
    expect((error as Error).message).toMatch(/the headers mirrored from the request take \d+ bytes \(maxHeaderBytes 8192\)$/);
    expect(sent).toEqual([]);
  });

  it('a long tool name in Mcp-Name counts too; a lower limit applies', async () => {
    const channel = new HttpChannel('http://127.0.0.1:9/mcp', {
      limits: { maxHeaderBytes: 100 },
      fetch: () => Promise.reject(new Error('unreachable')),
    });
    const client = new McpClient(channel, { clientInfo: { name: 'c', version: '1' }, mode: 'stateless' });
    await client.connect();
    const error = await client.request('tools/call', { name: 'n'.repeat(200), arguments: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'McpClientLimitError', limit: 'maxHeaderBytes', max: 100 });
  });
});
