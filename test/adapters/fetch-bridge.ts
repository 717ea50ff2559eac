/**
 * @module test/adapters/fetch-bridge — a minimal node:http → fetch bridge, written for the tests from the
 * fetch standard alone (https://fetch.spec.whatwg.org/): each request becomes a `Request` (headers appended in
 * the order received, so repeats are joined as fetch joins them; the body a stream fed by the socket; `signal`
 * aborted when the connection closes before the answer is complete), and the `Response` is written back
 * (headers at once, the body chunk by chunk, the body stream cancelled when the client goes away). Used to
 * run the fetch handlers as a platform with no framework would; Hono's own server is the other way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type FetchHandler = (request: Request) => Promise<Response>;

function requestOf(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`;
  if (req.method === 'GET' || req.method === 'HEAD') return new Request(url, { method: req.method, headers, signal });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      req.on('end', () => controller.close());
      req.on('error', (err) => controller.error(err));
    },
    cancel() {
      // The server stopped reading (413, 408): stop taking the body, as node's own reading does.
      req.removeAllListeners('data');
      req.pause();
    },
  });
  return new Request(url, { method: req.method ?? 'POST', headers, signal, body, duplex: 'half' } as RequestInit);
}

/** A node:http request listener serving `handler`. */
export function fetchListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    void (async () => {
      const response = await handler(requestOf(req, aborter.signal));
      if (res.destroyed) {
        await response.body?.cancel();
        return;
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      res.writeHead(response.status, headers);
      if (!response.body) return void res.end();
      res.flushHeaders();
      const reader = response.body.getReader();
      res.on('close', () => void reader.cancel().catch(() => {}));
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
      res.end();
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
      else res.destroy();
    });
  };
}
