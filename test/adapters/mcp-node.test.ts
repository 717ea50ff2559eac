/**
 * The MCP transport suite on node:http: `listenMcpHttp`, and `mcpNodeHandler` on the test's own
 * `http.createServer`.
 */
import { runMcpTransportSuite } from './mcp-transport-suite.ts';
import { MCP_TARGETS } from './targets.ts';

for (const name of ['listenMcpHttp', 'mcpNodeHandler on http.createServer']) runMcpTransportSuite(name, MCP_TARGETS[name]!);
