/**
 * How the fetch exchange reads a request body (runtime/transports/fetch-exchange.ts FetchRequest.body): with a
 * declared Content-Length within the limit, whole, through `request.text()` (which @hono/node-server answers
 * from the socket without building a web stream), still held to bodyTimeoutMs (408) and answered 400 when it
 * cannot be read; without one, from the body stream, counted against the limit as it arrives (413).
 */
import { describe, expect, it } from 'vitest';
import { HttpFailure } from '../../runtime/transports/exchange.ts';
import { FetchRequest } from '../../runtime/transports/fetch-exchange.ts';

/** A Request whose text() is `text` and whose body stream must not be touched when a length is declared. */
function declared(length: string, text: () => Promise<string>): Request {
  return {
    url: 'http://127.0.0.1/mcp',
    method: 'POST',
    headers: new Headers({ 'content-length': length }),
    bodyUsed: false,
    text,
    get body(): never {
      throw new Error('the body stream was read');
    },
  } as unknown as Request;
}

const failure = (err: unknown) => (err instanceof HttpFailure ? [err.status, err.message] : err);

describe('FetchRequest.body', () => {
  it('with a declared length, reads text() and not the stream', async () => {
    expect(await new FetchRequest(declared('7', () => Promise.resolve('{"a":1}'))).body(100, 1000)).toBe('{"a":1}');
  });

  it('a declared length over the limit is 413 before anything is read', async () => {
    const read = new FetchRequest(declared('101', () => Promise.reject(new Error('read'))));
    expect(await read.body(100, 1000).catch(failure)).toEqual([413, 'Request body larger than 100 bytes']);
  });

  it('a declared body that does not arrive in time is 408', async () => {
    const never = new FetchRequest(declared('10', () => new Promise<string>(() => {})));
    expect(await never.body(100, 30).catch(failure)).toEqual([408, 'Request body not received within 30 ms']);
  });

  it('a declared body that cannot be read is 400', async () => {
    const broken = new FetchRequest(declared('10', () => Promise.reject(new TypeError('terminated'))));
    expect(await broken.body(100, 1000).catch(failure)).toEqual([400, 'Request body could not be read']);
  });

  it('without a declared length, the stream is read and counted against the limit', async () => {
    const chunked = (text: string) =>
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        body: new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(text));
            c.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    expect(await new FetchRequest(chunked('\ufeff{"b":2}')).body(100, 1000)).toBe('{"b":2}');
    expect(await new FetchRequest(chunked('x'.repeat(101))).body(100, 1000).catch(failure)).toEqual([413, 'Request body larger than 100 bytes']);
  });
});
