/**
 * The stdio transport's batching (runtime/transports/stdio.ts): the frames sent within one turn of the event
 * loop go out in one write, in the order sent; close() writes what is waiting first; while the output wants
 * draining nothing more is written until it drains, and the frames waiting count against the queue's limit.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stdioTransport } from '../../runtime/transports/stdio.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));
const frame = (i: number) => JSON.stringify({ jsonrpc: '2.0', id: i, result: {} });

/** An output that records each write, and drains only when told to (its callbacks held until then). */
function recorder(highWaterMark = 1 << 20) {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  let hold = false;
  const output = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk.toString('utf8'));
      if (hold) held.push(() => cb());
      else cb();
    },
  });
  return {
    output,
    writes,
    holdWrites: () => (hold = true),
    release: () => {
      hold = false;
      for (const cb of held.splice(0)) cb();
    },
  };
}

function open(output: Writable, options = {}) {
  const reasons: (string | undefined)[] = [];
  const t = stdioTransport(new PassThrough(), output, { log: () => {}, ...options });
  t.start({ message: () => {}, close: (reason) => reasons.push(reason) });
  return { t, reasons };
}

describe('stdio transport batching', () => {
  it('writes the frames of one turn in one write, in the order sent, and the next turn in the next', async () => {
    const r = recorder();
    const { t } = open(r.output);
    for (let i = 0; i < 16; i++) t.send(frame(i));
    expect(r.writes).toEqual([]);
    await turn();
    t.send(frame(16));
    await Promise.resolve();
    t.send(frame(17));
    await turn();
    expect(r.writes).toEqual([Array.from({ length: 16 }, (_, i) => `${frame(i)}\n`).join(''), `${frame(16)}\n${frame(17)}\n`]);
  });

  it('writes what is waiting when closed, before the close', () => {
    const r = recorder();
    const { t, reasons } = open(r.output);
    t.send(frame(1));
    t.send(frame(2));
    t.close();
    expect(r.writes).toEqual([`${frame(1)}\n${frame(2)}\n`]);
    expect(reasons).toEqual([undefined]);
  });

  it('waits for drain while the output wants draining, then writes the waiting frames in order', async () => {
    const r = recorder(64);
    const { t } = open(r.output);
    r.holdWrites();
    t.send('x'.repeat(100));
    await turn();
    expect(r.output.writableNeedDrain).toBe(true);
    t.send(frame(1));
    t.send(frame(2));
    await turn();
    await turn();
    expect(r.writes).toEqual([`${'x'.repeat(100)}\n`]);
    r.release();
    await turn();
    expect(r.writes).toEqual([`${'x'.repeat(100)}\n`, `${frame(1)}\n${frame(2)}\n`]);
  });

  it('counts the frames waiting against the queue limit: past it, the connection closes', () => {
    const r = recorder();
    const { t, reasons } = open(r.output, { maxQueueBytes: 100 });
    t.send('y'.repeat(60));
    t.send('y'.repeat(60));
    t.send(frame(3));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/outbound queue over 100 bytes/);
  });
});
