/**
 * @module test/fuzz/harness/http — one HTTP exchange as the fuzzer makes it (node:http, keep-alive, any
 * header, any body), read to its end within a deadline; an SSE answer is split into its events' data as they
 * come, so that a server request inside a stream can be answered while it is open.
 */
import { Agent, request } from 'node:http';

export interface FuzzExchange {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The `data` of each SSE event, when the answer was an event stream. */
  readonly events: readonly string[];
  /** Until the answer ended, or until a stream's first event when it was still open at the deadline. */
  readonly ms: number;
  /** A stream still open at the deadline (its first event had come): let go. */
  readonly open?: boolean;
}

export interface ExchangeOptions {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Called with each SSE event's data as it arrives. */
  readonly onEvent?: (data: string) => void;
}

/** Keep-alive connections to one server, at most `sockets` at once. */
export function httpAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets });
}

/**
 * Sends one request; resolves with the whole answer, or 'timeout' when it did not end within the deadline
 * (a stream whose first event came in time is let go at the deadline instead, `open`).
 */
export function exchange(origin: string, agent: Agent, options: ExchangeOptions): Promise<FuzzExchange | 'timeout' | { error: string }> {
  const started = performance.now();
  const url = new URL(origin);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (v: FuzzExchange | 'timeout' | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    let req: ReturnType<typeof request>;
    try {
      req = request({
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: { ...options.headers, ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}) },
        agent,
      });
    } catch (err) {
      resolve({ error: `request not sent: ${(err as Error).message}` });
      return;
    }
    let partial: (() => FuzzExchange | undefined) | undefined;
    const timer = setTimeout(() => {
      const open = partial?.();
      req.destroy();
      settle(open ?? 'timeout');
    }, options.timeoutMs);
    req.on('error', (err) => settle({ error: err.message }));
    req.on('response', (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      const sse = contentType.startsWith('text/event-stream');
      const chunks: Buffer[] = [];
      const events: string[] = [];
      let buffer = '';
      let data: string[] = [];
      let firstMs: number | undefined;
      partial = () => (firstMs === undefined ? undefined : { status: res.statusCode ?? 0, contentType, body: '', events, ms: firstMs, open: true });
      res.on('data', (chunk: Buffer) => {
        if (!sse) return void chunks.push(chunk);
        buffer += chunk.toString('utf8');
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (data.length) {
              const event = data.join('\n');
              events.push(event);
              firstMs ??= performance.now() - started;
              options.onEvent?.(event);
            }
            data = [];
          } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
      });
      res.on('end', () =>
        settle({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8'), events, ms: performance.now() - started }),
      );
      res.on('error', (err) => settle({ error: err.message }));
    });
    req.end(options.body);
  });
}
