/**
 * When the fetch exchange reads `request.signal` (runtime/transports/fetch-exchange.ts FetchResponse): given as
 * a function, only if the exchange is still open after the turn it began in (a server such as
 * @hono/node-server makes the signal when it is read); a client gone before then is noticed when it is read
 * (already aborted), and one gone later through the abort event.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FetchResponse } from '../../runtime/transports/fetch-exchange.ts';

describe('FetchResponse and the request signal', () => {
  it('an answer given in the first turn never reads the signal', async () => {
    let reads = 0;
    const res = new FetchResponse(() => {
      reads++;
      return new AbortController().signal;
    });
    res.send(200, { 'content-type': 'application/json' }, '{}');
    expect((await res.response).status).toBe(200);
    await turn();
    await turn();
    expect(reads).toBe(0);
  });

  it('an exchange still open after its first turn reads it, and ends when it aborts', async () => {
    const aborter = new AbortController();
    let reads = 0;
    const res = new FetchResponse(() => {
      reads++;
      return aborter.signal;
    });
    const closed = new Promise<void>((resolve) => res.onClose(resolve));
    await turn();
    await turn();
    expect(reads).toBe(1);
    aborter.abort();
    await closed;
    expect((await res.response).status).toBe(499);
  });

  it('a client gone before the signal was read: it is read already aborted, and the exchange ends', async () => {
    const aborter = new AbortController();
    aborter.abort();
    const res = new FetchResponse(() => aborter.signal);
    const stream = res.stream(200, { 'content-type': 'text/event-stream' });
    const closed = new Promise<void>((resolve) => res.onClose(resolve));
    stream.write('data: {}\n\n');
    await closed;
    expect(res.queued).toBe(0);
  });
});
