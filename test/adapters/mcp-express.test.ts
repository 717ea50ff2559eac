/**
 * The MCP transport suite on the Express middleware: mounted with no body parser, and after `express.json()`
 * (with `mcp.errors` after it, as documented).
 */
import { runMcpTransportSuite } from './mcp-transport-suite.ts';
import { MCP_TARGETS } from './targets.ts';

for (const name of ['mcpExpress (no body parser)', 'mcpExpress after express.json()']) runMcpTransportSuite(name, MCP_TARGETS[name]!);
