/**
 * How the node exchange reads a request body (runtime/transports/node-exchange.ts readBody): whole, within its
 * limit (413 beyond) and deadline (408), 400 when the stream fails; and once read or given up on, none of its
 * listeners stays on the request (a request answered with a long-lived SSE stream is held for as long as the
 * stream is open, and with it every closure left on it).
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HttpFailure } from '../../runtime/transports/exchange.ts';
import { readBody } from '../../runtime/transports/node-exchange.ts';

/** A request stream with headers, as node:http hands one to a listener. */
function request(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

const counts = (req: IncomingMessage) => ['data', 'end', 'error'].map((e) => req.listenerCount(e));
const failure = (err: unknown) => (err instanceof HttpFailure ? [err.status, err.message] : err);

describe('readBody', () => {
  it('reads the whole body and leaves no listener behind', async () => {
    const req = request();
    const before = counts(req);
    const body = readBody(req, 100, 1000);
    req.write('{"a":');
    req.end('1}');
    expect(await body).toBe('{"a":1}');
    expect(counts(req)).toEqual(before);
  });

  it('drops a leading BOM', async () => {
    const req = request();
    const body = readBody(req, 100, 1000);
    req.end('\ufeff{}');
    expect(await body).toBe('{}');
  });

  it('answers 413 past the limit, as it arrives, and keeps only an error sink', async () => {
    const req = request();
    const body = readBody(req, 4, 1000);
    req.write('12345');
    expect(await body.catch(failure)).toEqual([413, 'Request body larger than 4 bytes']);
    expect(counts(req).slice(0, 2)).toEqual([0, 0]);
    // A failure after it gave up is not an unhandled 'error' event.
    expect(() => req.destroy(new Error('reset'))).not.toThrow();
  });

  it('answers 413 on a declared length past the limit without listening', async () => {
    const req = request({ 'content-length': '50' });
    expect(await readBody(req, 4, 1000).catch(failure)).toEqual([413, 'Request body larger than 4 bytes']);
    expect(counts(req)).toEqual([0, 0, 0]);
  });

  it('answers 400 when the stream fails', async () => {
    const req = request();
    const body = readBody(req, 100, 1000);
    req.write('{');
    req.destroy(new Error('reset'));
    expect(await body.catch(failure)).toEqual([400, 'Request body could not be read']);
    expect(counts(req).slice(0, 2)).toEqual([0, 0]);
  });

  it('answers 408 when the body does not arrive in time', async () => {
    const req = request();
    const body = readBody(req, 100, 20);
    req.write('{');
    expect(await body.catch(failure)).toEqual([408, 'Request body not received within 20 ms']);
    expect(counts(req).slice(0, 2)).toEqual([0, 0]);
  });
});
