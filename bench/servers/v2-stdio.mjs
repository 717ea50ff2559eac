// bench/servers/v2-stdio — the primary peer over stdio, as its users run it: the official MCP TypeScript SDK v2
// (@modelcontextprotocol/server 2.4.0), plain JavaScript, its stdio entry `serveStdio(factory)` (both eras:
// 2026-07-28 and the initialize handshake), serving the same `add` as recorded-server (v2-tool.mjs).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { addServer } from './v2-tool.mjs';

serveStdio(addServer);
