/**
 * @module test/hostile/hostile-http-server — a scripted node:http server on 127.0.0.1 that answers every
 * JSON-RPC POST in one hostile way, chosen by path (test/hostile/mcp-client.test.ts):
 *
 *   /deep            200 JSON: the response with a result nested 10,000 levels
 *   /deep-sse        the same in an SSE event
 *   /big             200 JSON, chunked (no Content-Length): 8 MiB of result
 *   /big-declared    200 JSON with a Content-Length of 8 MiB (the body is never sent)
 *   /big-event       200 SSE: one 8 MiB event
 *   /endless-line    200 SSE: one line that never ends (64 KiB chunks until the client goes)
 *   /flood           200 SSE: 100,000 notifications, then the response
 *   /trickle         200 JSON: the response, one byte every 50 ms
 *   /cut             200 SSE: a notification, then half of the response event, then the socket is destroyed
 *   /utf8            200 JSON: the response with a byte that is not UTF-8 (0xFF) in a string
 *   /utf8-sse        the same in an SSE event
 *   /ids             200 SSE: responses to unknown ids (a number, a string, null), then the response twice
 *   /unknown-ids     200 SSE: 1,000 responses to ids nobody used, then the stream ends
 *
 * close() destroys open connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface HostileHttpServer {
  /** `http://127.0.0.1:<port>`; append a path above. */
  readonly base: string;
  close(): Promise<void>;
}

const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const JSON_TYPE = { 'content-type': 'application/json' };
const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const BIG = 8 * 1024 * 1024;
const NOTIFICATIONS = 100_000;

/** A response to `id` whose result nests `levels` deep (as text: JSON.stringify would recurse). */
const deepResponse = (id: unknown, levels: number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"deep":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
const result = (id: unknown, text = 'ok') => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

/** Writes `text` one byte at a time, every `ms`, until done or the client goes. */
function trickle(res: ServerResponse, text: string, ms: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || i >= text.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(text[i++]!);
  }, ms);
  res.on('close', () => clearInterval(timer));
}

/** Writes chunks from `next` while the socket takes them, until `next` returns undefined or the client goes. */
function pump(res: ServerResponse, next: () => string | undefined): void {
  const go = () => {
    for (;;) {
      if (res.destroyed) return;
      const chunk = next();
      if (chunk === undefined) return void res.end();
      if (!res.write(chunk)) return void res.once('drain', go);
    }
  };
  res.on('error', () => {});
  go();
}

function answer(path: string, id: unknown, res: ServerResponse): void {
  switch (path) {
    case '/deep':
      return void res.writeHead(200, JSON_TYPE).end(deepResponse(id, 10_000));
    case '/deep-sse':
      return void res.writeHead(200, SSE).end(`event: message\ndata: ${deepResponse(id, 10_000)}\n\n`);
    case '/big': {
      res.writeHead(200, JSON_TYPE);
      let sent = 0;
      const chunk = 'x'.repeat(64 * 1024);
      res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"pad":"`);
      return pump(res, () => (sent >= BIG ? (sent === BIG ? ((sent += 1), '"}}') : undefined) : ((sent += chunk.length), chunk)));
    }
    case '/big-declared':
      res.writeHead(200, { ...JSON_TYPE, 'content-length': String(BIG) });
      return void res.flushHeaders();
    case '/big-event': {
      res.writeHead(200, SSE);
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"pad":"`);
      let sent = 0;
      const chunk = 'y'.repeat(64 * 1024);
      return pump(res, () => (sent >= BIG ? (sent === BIG ? ((sent += 1), '"}}\n\n') : undefined) : ((sent += chunk.length), chunk)));
    }
    case '/endless-line': {
      res.writeHead(200, SSE);
      const chunk = 'z'.repeat(64 * 1024);
      res.write('data: ');
      return pump(res, () => chunk);
    }
    case '/flood': {
      res.writeHead(200, SSE);
      let n = 0;
      return pump(res, () => {
        if (n > NOTIFICATIONS) return undefined;
        if (n++ === NOTIFICATIONS) return event(result(id, 'after the flood'));
        return event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `note ${n}` } });
      });
    }
    case '/trickle':
      res.writeHead(200, JSON_TYPE);
      return trickle(res, JSON.stringify(result(id)), 50);
    case '/cut':
      res.writeHead(200, SSE);
      res.write(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }));
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"con`);
      return void setTimeout(() => res.socket?.destroy(), 20);
    case '/utf8':
    case '/utf8-sse': {
      const [before, after] = JSON.stringify(result(id, 'BAD')).split('BAD') as [string, string];
      const body = Buffer.concat([Buffer.from(before), Buffer.from([0x61, 0xff, 0x62]), Buffer.from(after)]);
      if (path === '/utf8') return void res.writeHead(200, JSON_TYPE).end(body);
      res.writeHead(200, SSE);
      return void res.end(Buffer.concat([Buffer.from('event: message\ndata: '), body, Buffer.from('\n\n')]));
    }
    case '/ids':
      res.writeHead(200, SSE);
      for (const other of [987654, 'someone-else', null])
        res.write(event({ jsonrpc: '2.0', id: other, result: { content: [{ type: 'text', text: 'not yours' }] } }));
      res.write(event(result(id, 'first')));
      return void res.end(event(result(id, 'second')));
    case '/unknown-ids': {
      res.writeHead(200, SSE);
      let n = 0;
      return pump(res, () => (n < 1000 ? event(result(`stranger-${n++}`)) : undefined));
    }
    default:
      return void res.writeHead(404).end();
  }
}

export async function startHostileHttpServer(): Promise<HostileHttpServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      let id: unknown;
      try {
        id = (JSON.parse(text) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      answer((req.url ?? '/').split('?')[0]!, id, res);
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
