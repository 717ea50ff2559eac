// bench/servers/v1-stdio — the older peer over stdio, plain JavaScript: the official SDK v1's McpServer (the
// same `add` as recorded-server, v1-tool.mjs) on StdioServerTransport. Exits when stdin closes.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { addServer } from './v1-tool.mjs';

const server = addServer();
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
