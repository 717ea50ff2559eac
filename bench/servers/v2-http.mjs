// bench/servers/v2-http — the primary peer over Streamable HTTP, as its users run it: the official MCP
// TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0), plain JavaScript, `createMcpHandler(factory)` (serves
// 2026-07-28 and falls back to stateless 2025-era serving) on plain node:http through the documented adapter
// `toNodeHandler` of @modelcontextprotocol/node 2.1.2, with the Host and Origin guards its README puts in
// front of a hand-wired node:http server (https://ts.sdk.modelcontextprotocol.io/v2/serving/http), bound to
// loopback. Prints `{"url": …}` when listening on 127.0.0.1; exits when stdin closes.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { listenAndAnnounce } from './stop.mjs';
import { addServer } from './v2-tool.mjs';

const mcp = toNodeHandler(createMcpHandler(addServer));
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const http = createServer((req, res) => {
  if (req.url !== '/mcp') return void res.writeHead(404).end();
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void mcp(req, res);
});
listenAndAnnounce(http);
