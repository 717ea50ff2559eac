// bench/servers/v2-sessions — the official MCP TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0) serving
// handshake-era sessions over Streamable HTTP as its users write it: a map of
// NodeStreamableHTTPServerTransport (@modelcontextprotocol/node 2.1.2) by Mcp-Session-Id, a new transport and
// McpServer (bench/servers/v2-tool.mjs) on each initialize (`isInitializeRequest`, `sessionIdGenerator`,
// `onsessioninitialized`), the session's transport for its later POSTs, its GET stream and its DELETE; the
// README's Host and Origin guards in front, bound to loopback. Prints `{"url": …}`; exits when stdin closes.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { listenAndAnnounce } from './stop.mjs';
import { addServer } from './v2-tool.mjs';

const transports = new Map();
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createServer(async (req, res) => {
  if (req.url !== '/mcp') return void res.writeHead(404).end();
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  const id = req.headers['mcp-session-id'];
  const known = typeof id === 'string' ? transports.get(id) : undefined;
  if (req.method !== 'POST') {
    if (!known) return void res.writeHead(400).end('unknown session');
    return void (await known.handleRequest(req, res));
  }
  const body = await readJson(req);
  if (known) return void (await known.handleRequest(req, res, body));
  if (id !== undefined || !isInitializeRequest(body)) return void res.writeHead(400).end('no session');
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sid) => void transports.set(sid, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) transports.delete(transport.sessionId);
  };
  await addServer().connect(transport);
  await transport.handleRequest(req, res, body);
});
listenAndAnnounce(http);
