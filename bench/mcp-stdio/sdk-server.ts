/**
 * @module bench/mcp-stdio/sdk-server — the peer: the official SDK's McpServer (the same `add` as
 * fixture-server) on StdioServerTransport. Exits when stdin closes.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildSdkServer } from '../lib/sdk-mcp.ts';

const server = buildSdkServer();
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
