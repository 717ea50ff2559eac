/**
 * `connect` (the A2A client reading an agent card) against a hostile agent (ours: a node:http server on
 * 127.0.0.1 whose card misbehaves in one way per case): a card of 8 MiB (streamed, or declared), nested
 * 10,000 levels, or not UTF-8. Each is refused promptly within the client's limits (TransportOptions.limits,
 * A2A_CLIENT_LIMIT_DEFAULTS), as the answers of the calls are, with no unhandled rejection.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { A2aClientError, A2aClientLimitError, connect } from '../../runtime/a2a/client.ts';

const BIG = 8 * 1024 * 1024;
let mode = '';
let written = 0;

function pump(res: ServerResponse): void {
  res.write('{"name":"hostile","description":"');
  written = 0;
  const chunk = 'x'.repeat(64 * 1024);
  const go = () => {
    while (!res.destroyed && written < BIG) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', go);
    }
    if (!res.destroyed) res.end('"}');
  };
  res.on('error', () => {});
  go();
}

const server = createServer((req, res) => {
  req.resume();
  res.setHeader('connection', 'close');
  const json = { 'content-type': 'application/json' };
  if (mode === 'big') return void (res.writeHead(200, json), pump(res));
  if (mode === 'declared') return void res.writeHead(200, { ...json, 'content-length': String(BIG) }).flushHeaders();
  if (mode === 'deep') return void res.writeHead(200, json).end(`{"name":"hostile","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
  if (mode === 'utf8') return void res.writeHead(200, json).end(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
  res.writeHead(404).end();
});
let base = '';
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => expect(unhandled).toEqual([]));
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await new Promise((resolve) => server.close(resolve));
});

async function refused(m: string): Promise<A2aClientError> {
  mode = m;
  const t0 = Date.now();
  const err = await connect(base).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(A2aClientError);
  expect(Date.now() - t0).toBeLessThan(5_000);
  return err as A2aClientError;
}

describe('connect and a hostile agent card', () => {
  it('a card streamed past maxMessageBytes: A2aClientLimitError, the rest not read', async () => {
    const err = await refused('big');
    expect(err).toBeInstanceOf(A2aClientLimitError);
    expect(err).toMatchObject({ limit: 'maxMessageBytes', max: 4 * 1024 * 1024 });
    expect(written).toBeLessThan(BIG);
  });

  it('a card declared past maxMessageBytes: refused before reading', async () => {
    expect(await refused('declared')).toMatchObject({ limit: 'maxMessageBytes' });
  });

  it('a card nested 10,000 levels: A2aClientLimitError naming maxDepth', async () => {
    expect(await refused('deep')).toMatchObject({ limit: 'maxDepth', max: 128 });
  });

  it('a card with bytes that are not UTF-8: A2aClientError -32700', async () => {
    expect(await refused('utf8')).toMatchObject({ code: -32700 });
  });
});
