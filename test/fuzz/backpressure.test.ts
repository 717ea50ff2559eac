/**
 * @module test/fuzz/backpressure — bounded outbound queues (runtime/transports/transport.ts OutboundLimits)
 * and handlers that cannot starve the server: the stdio transport over a stream that never drains leaves
 * out progress past the soft limit and closes past the hard one with a logged reason; a real stdio server
 * flooding 2,000,000 progress notifications at a client that stops reading keeps its RSS under FLOOD_RSS_MB
 * and still answers; webhooks keep at most `maxQueued` updates each; Peer's handlerTimeoutMs answers -32001.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '@wiregen/a2a-1.0';
import { PushSender } from '../../runtime/a2a/push.ts';
import { SDK_BEHAVIOUR, type TaskPushNotificationConfig } from '../../runtime/a2a/types.ts';
import { Peer } from '../../runtime/jsonrpc/peer.ts';
import { stdioTransport } from '../../runtime/transports/stdio.ts';
import { admitFrame, createLinkedPair } from '../../runtime/transports/transport.ts';
import { ROOT } from '../helpers/project.ts';

/**
 * The bound of the flood test: the server's peak RSS while it floods (an idle server run from sources with
 * tsx is about 100 MB; before the bound, it measured 1.4 GB for the same request).
 */
const FLOOD_RSS_MB = 300;

/** A Writable that takes nothing (its callback never runs): what stdout is to a client that stopped reading. */
function stalled(): Writable {
  return new Writable({ highWaterMark: 1024, write: () => {} });
}

describe('outbound queue limits', () => {
  it('admitFrame: send, drop a droppable frame past the soft limit, close past the hard one', () => {
    const limits = { softQueueBytes: 10, maxQueueBytes: 100 };
    expect(admitFrame(10, { kind: 'notification', droppable: true }, limits)).toBe('send');
    expect(admitFrame(11, { kind: 'notification', droppable: true }, limits)).toBe('drop');
    expect(admitFrame(11, { kind: 'response', id: 1 }, limits)).toBe('send');
    expect(admitFrame(101, { kind: 'response', id: 1 }, limits)).toBe('close');
  });

  it('stdio: past softQueueBytes progress is left out, responses are not; past maxQueueBytes the connection closes, logged', async () => {
    const logs: string[] = [];
    const output = stalled();
    const input = new PassThrough();
    const transport = stdioTransport(input, output, { softQueueBytes: 4096, maxQueueBytes: 64 * 1024, log: (l) => logs.push(l) });
    let closedWith: string | undefined | null = null;
    transport.start({ message: () => {}, close: (reason) => (closedWith = reason) });
    const progress = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"pad":"${'x'.repeat(100)}"}}`;
    for (let i = 0; i < 1000; i++) transport.send(progress, { kind: 'notification', droppable: true });
    const afterProgress = output.writableLength;
    expect(afterProgress).toBeLessThan(4096 + 2 * progress.length);
    for (let i = 0; i < 1000 && closedWith === null; i++)
      transport.send(`{"jsonrpc":"2.0","id":${i},"result":{"pad":"${'y'.repeat(200)}"}}`, { kind: 'response', id: i });
    expect(closedWith).toBe('stdio: outbound queue over 65536 bytes (the client is not reading)');
    const frozen = output.writableLength;
    transport.send('{"jsonrpc":"2.0","id":"late","result":{}}', { kind: 'response', id: 'late' });
    expect(output.writableLength).toBe(frozen);
    expect(frozen).toBeLessThan(64 * 1024 + 300);
  });

  it('a Peer whose transport fails aborts its running requests and logs the reason', async () => {
    const logs: string[] = [];
    const [client, server] = createLinkedPair();
    let aborted: unknown;
    let closeSink: ((reason?: string) => void) | undefined;
    const wrapped = {
      start: (sink: Parameters<typeof server.start>[0]) => {
        closeSink = sink.close;
        server.start(sink);
      },
      send: (text: string) => server.send(text),
      close: () => server.close(),
    };
    new Peer(wrapped, {
      onRequest: (req) => new Promise((resolve) => req.signal.addEventListener('abort', () => resolve((aborted = req.signal.reason)))),
      log: (l) => logs.push(l),
    });
    client.start({ message: () => {}, close: () => {} });
    client.send('{"jsonrpc":"2.0","id":1,"method":"wait"}');
    await new Promise((r) => setTimeout(r, 20));
    closeSink!('stdio: outbound queue over 1 bytes (the client is not reading)');
    expect((aborted as Error).message).toBe('Connection closed: stdio: outbound queue over 1 bytes (the client is not reading)');
    expect(logs).toEqual(['connection closed: stdio: outbound queue over 1 bytes (the client is not reading)']);
  });

  it('handlerTimeoutMs: a request running past it is answered -32001 and its signal aborts; its late result is dropped', async () => {
    const [client, server] = createLinkedPair();
    const frames: string[] = [];
    let signal: AbortSignal | undefined;
    new Peer(server, {
      handlerTimeoutMs: 50,
      onRequest: (req) => {
        if (req.method === 'quick') return Promise.resolve({});
        signal = req.signal;
        return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 150));
      },
    });
    client.start({ message: (t) => frames.push(t), close: () => {} });
    client.send('{"jsonrpc":"2.0","id":1,"method":"slow"}');
    client.send('{"jsonrpc":"2.0","id":2,"method":"quick"}');
    await new Promise((r) => setTimeout(r, 250));
    expect(frames.map((f) => JSON.parse(f))).toEqual([
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Request timed out after 50 ms' } },
    ]);
    expect(signal?.aborted).toBe(true);
  });

  it('webhooks: at most maxQueued updates wait per webhook; the rest are left out, logged', async () => {
    const logs: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let posted = 0;
    const push = new PushSender(
      {
        allowedHosts: ['127.0.0.1'],
        maxQueued: 3,
        fetch: async () => {
          posted++;
          await held;
          return new Response('', { status: 200 });
        },
      },
      SDK_BEHAVIOUR,
      (l) => logs.push(l),
    );
    const config: TaskPushNotificationConfig = { taskId: 't', id: 'c', url: 'http://127.0.0.1:9/hook' };
    const update: StreamResponse = { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } };
    for (let i = 0; i < 10; i++) push.deliver([config], update);
    expect(logs.filter((l) => l.includes('left out'))).toHaveLength(7);
    release();
    await push.drain();
    expect(posted).toBe(3);
  });
});

describe('a flood from a handler (2,000,000 progress notifications)', () => {
  it(`keeps the stdio server under ${FLOOD_RSS_MB} MB while the client stops reading, then answers it and a ping`, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fuzz/flood-server.ts'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, progressToken: 'p' };
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'flood', method: 'tools/call', params: { name: 'flood', arguments: { n: 2_000_000 }, _meta: meta } })}\n`,
    );
    // The client does not read for a while: the pipe fills, then the server's queue.
    child.stdout.pause();
    await new Promise((r) => setTimeout(r, 3000));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping', params: { _meta: meta } })}\n`);
    const lines = createInterface({ input: child.stdout });
    let progress = 0;
    const answered = new Set<string>();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not answered; stderr: ${stderr}`)), 60_000);
      lines.on('line', (line) => {
        const msg = JSON.parse(line) as { id?: string; method?: string };
        if (msg.method === 'notifications/progress') progress++;
        if (msg.id) answered.add(msg.id);
        if (answered.has('flood') && answered.has('ping')) (clearTimeout(timer), resolve());
      });
    });
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    const peak = Number(/peak-rss-mb (\d+)/.exec(stderr)?.[1]);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(FLOOD_RSS_MB);
    expect(progress).toBeLessThan(2_000_000);
    expect(stderr).toMatch(/left out \d+ progress\/log notification/);
  });
});
