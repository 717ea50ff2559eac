/**
 * Answers on node:http are written at the end of the event loop's turn (runtime/transports/node-exchange.ts
 * NodeResponse.send, flushAnswers): the status and headers at once, the bodies together after the turn, in
 * order; a response destroyed meanwhile is skipped, one whose write throws is destroyed without stopping the
 * others, and stopping a server writes what is waiting before its connections close.
 */
import { request, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenHttp } from '../../runtime/transports/http.ts';
import { flushAnswers, NodeResponse } from '../../runtime/transports/node-exchange.ts';

/** Just what send() uses of a ServerResponse, recording the calls in `log`. */
function fakeResponse(name: string, log: string[], endThrows = false) {
  return {
    headersSent: false,
    destroyed: false,
    writeHead(status: number) {
      this.headersSent = true;
      log.push(`${name} head ${status}`);
    },
    end(body?: string) {
      if (endThrows) throw new Error('cannot write');
      log.push(`${name} end ${body}`);
    },
    destroy(err?: Error) {
      this.destroyed = true;
      log.push(`${name} destroyed${err ? `: ${err.message}` : ''}`);
    },
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function post(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('answers written at the end of the turn', () => {
  it('sets the status and headers at once and writes the bodies after the turn, in order', async () => {
    const log: string[] = [];
    const a = fakeResponse('a', log);
    const b = fakeResponse('b', log);
    new NodeResponse(a as unknown as ServerResponse).send(200, {}, 'A');
    new NodeResponse(b as unknown as ServerResponse).send(404, {}, 'B');
    // A second answer to the same response is ignored, as it was when the first one had been written.
    new NodeResponse(a as unknown as ServerResponse).send(500, {}, 'again');
    expect(log).toEqual(['a head 200', 'b head 404']);
    expect(new NodeResponse(a as unknown as ServerResponse).started).toBe(true);
    await turn();
    expect(log).toEqual(['a head 200', 'b head 404', 'a end A', 'b end B']);
  });

  it('skips a response destroyed meanwhile, and destroys one whose write throws without stopping the rest', async () => {
    const log: string[] = [];
    const gone = fakeResponse('gone', log);
    const bad = fakeResponse('bad', log, true);
    const ok = fakeResponse('ok', log);
    for (const r of [gone, bad, ok]) new NodeResponse(r as unknown as ServerResponse).send(200, {}, 'x');
    gone.destroy();
    await turn();
    expect(log).toEqual(['gone head 200', 'bad head 200', 'ok head 200', 'gone destroyed', 'bad destroyed: cannot write', 'ok end x']);
  });

  it('writes what waits when flushAnswers is called, once', async () => {
    const log: string[] = [];
    new NodeResponse(fakeResponse('a', log) as unknown as ServerResponse).send(200, {}, 'A');
    flushAnswers();
    expect(log).toEqual(['a head 200', 'a end A']);
    await turn();
    expect(log).toHaveLength(2);
  });

  it('throws to the caller a header that cannot be sent, and answers a request even when the server stops in the same turn', async () => {
    let refused: unknown;
    const server = await listenHttp((_req, res) => {
      const answer = new NodeResponse(res);
      try {
        answer.send(200, { 'x-bad': 'a\nb' }, 'no');
      } catch (err) {
        refused = err;
      }
      answer.send(200, { 'content-type': 'text/plain' }, 'answered');
      void server.stop();
    });
    const got = await post(`${server.origin}/`);
    expect((refused as { code?: string }).code).toBe('ERR_INVALID_CHAR');
    expect(got).toEqual({ status: 200, body: 'answered' });
  });
});
