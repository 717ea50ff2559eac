/**
 * The MCP transport suite on the fetch handler: through the test's node→fetch bridge (a platform with no
 * framework) and mounted in Hono on @hono/node-server (`app.all('/mcp', (c) => mcp(c.req.raw))`).
 */
import { runMcpTransportSuite } from './mcp-transport-suite.ts';
import { MCP_TARGETS } from './targets.ts';

for (const name of ['mcpFetchHandler through a node→fetch bridge', 'mcpFetchHandler in Hono on @hono/node-server'])
  runMcpTransportSuite(name, MCP_TARGETS[name]!);
