// bench/servers/bare-http — the ceiling: plain node:http reading the request body and answering a fixed
// JSON-RPC result (the bytes our server sends for `add` 1 + 2), with no parsing, validation or dispatch.
// Prints `{"url": …}` when listening on 127.0.0.1; exits when stdin closes.
import { createServer } from 'node:http';
import { listenAndAnnounce } from './stop.mjs';

const BODY = Buffer.from(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: {
      content: [{ type: 'text', text: '3' }],
      isError: false,
      structuredContent: { result: 3 },
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture-server', version: '1.0.0' } },
    },
  }),
);

const http = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    res.end(BODY);
  });
});
listenAndAnnounce(http);
