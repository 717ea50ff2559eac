/**
 * The MCP transport suite on the fetch handler: through the test's node→fetch bridge (a platform with no
 * framework) and mounted in Hono on @hono/node-server (`app.all('/mcp', (c) => mcp(c.req.raw))`).
 */
import { describe, expect, it } from 'vitest';
import { mcpFetchHandler } from '../../runtime/mcp/http/adapters.ts';
import { statelessRequest } from '../helpers/http-client.ts';
import { mcpFixture, rpcError } from './mcp-fixture.ts';
import { runMcpTransportSuite } from './mcp-transport-suite.ts';
import { MCP_TARGETS } from './targets.ts';

for (const name of ['mcpFetchHandler through a node→fetch bridge', 'mcpFetchHandler in Hono on @hono/node-server'])
  runMcpTransportSuite(name, MCP_TARGETS[name]!);

describe('mcpFetchHandler called directly, as a worker would', () => {
  it('answers a Request with a Response', async () => {
    const mcp = mcpFetchHandler(mcpFixture().server);
    const response = await mcp(
      new Request('http://127.0.0.1/mcp', { method: 'POST', ...statelessRequest('tools/list', {}, { id: 'w' }) } as RequestInit),
    );
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 'w', result: { tools: [] } });
    mcp.close();
  });

  it('answers 500 and logs when the body was read before the handler got the Request', async () => {
    const logged: string[] = [];
    const mcp = mcpFetchHandler(mcpFixture({ log: (line) => logged.push(line) }).server);
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', ...statelessRequest('tools/list') } as RequestInit);
    await request.text();
    const response = await mcp(request);
    expect([response.status, await response.json()]).toEqual([500, rpcError(null, -32603, 'Internal error')]);
    expect(logged.some((l) => l.includes('The request body was already read'))).toBe(true);
    mcp.close();
  });
});
