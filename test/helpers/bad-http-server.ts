/**
 * @module test/helpers/bad-http-server — a tiny node:http server on 127.0.0.1 whose every path misbehaves in
 * one way towards an MCP client posting JSON-RPC to it (test/mcp-client/bad-server.test.ts):
 *
 *   /garbage         200 application/json, a body that is not JSON
 *   /not-jsonrpc     200 application/json, `{"hello":"world"}`
 *   /scalar          200 application/json, `42`
 *   /html-500        500 text/html
 *   /sse-ended       200 text/event-stream: a log notification, then the stream ends without the response
 *   /sse-cut         200 text/event-stream: half an event, then the connection is destroyed
 *   /never           never answers (headers included)
 *   /never-body      200 text/event-stream headers, then nothing, ever
 *   /server-request  200 text/event-stream: an elicitation/create request frame (forbidden in 2026-07-28), then
 *                    the stream stays open
 *   /result-string   200 application/json, the response with `"result": "not an object"`
 *
 * Every request body received is kept (`received`). close() destroys open connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface BadHttpServer {
  /** `http://127.0.0.1:<port>`; append a path above. */
  readonly base: string;
  /** Parsed bodies of every POST, with their path. */
  readonly received: { path: string; body: unknown }[];
  close(): Promise<void>;
}

const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const JSON_TYPE = { 'content-type': 'application/json' };
const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

function answer(path: string, id: unknown, res: ServerResponse): void {
  switch (path) {
    case '/garbage':
      return void res.writeHead(200, JSON_TYPE).end('this is not JSON at all');
    case '/not-jsonrpc':
      return void res.writeHead(200, JSON_TYPE).end('{"hello":"world"}');
    case '/scalar':
      return void res.writeHead(200, JSON_TYPE).end('42');
    case '/html-500':
      return void res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>Internal Server Error</body></html>');
    case '/sse-ended':
      res.writeHead(200, SSE);
      res.write(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }));
      return void res.end();
    case '/sse-cut':
      res.writeHead(200, SSE);
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"res`);
      return void setTimeout(() => res.socket?.destroy(), 20);
    case '/never':
      return;
    case '/never-body':
      res.writeHead(200, SSE);
      return void res.flushHeaders();
    case '/server-request':
      res.writeHead(200, SSE);
      res.write(
        event({
          jsonrpc: '2.0',
          id: 's1',
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Delete build/?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
        }),
      );
      return;
    case '/result-string':
      return void res.writeHead(200, JSON_TYPE).end(JSON.stringify({ jsonrpc: '2.0', id, result: 'not an object' }));
    default:
      return void res.writeHead(404).end();
  }
}

export async function startBadHttpServer(): Promise<BadHttpServer> {
  const received: { path: string; body: unknown }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      received.push({ path, body });
      const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
      answer(path, id, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
