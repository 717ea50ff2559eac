/**
 * The shared event-stream reader: events split at blank lines across arbitrary chunk boundaries, CRLF and
 * LF line ends, multi-line data, comments skipped, id and retry carried with their event, a priming event
 * (id only, no data) kept so a client can resume from it.
 */
import { describe, expect, it } from 'vitest';
import { sseEvents, type SseEvent } from '../../runtime/transports/sse.ts';

function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function read(chunks: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of sseEvents(bodyOf(chunks))) out.push(e);
  return out;
}

describe('sseEvents', () => {
  it('splits events at blank lines, whatever the chunking', async () => {
    const text = 'event: message\ndata: {"a":1}\n\ndata: {"b":2}\n\n';
    const whole = await read([text]);
    expect(whole).toEqual([{ data: '{"a":1}' }, { data: '{"b":2}' }]);
    expect(await read(text.split(''))).toEqual(whole);
  });

  it('accepts CRLF, joins data lines with \\n, keeps a leading-space-free value as is', async () => {
    expect(await read(['data: one\r\ndata:two\r\n\r\n'])).toEqual([{ data: 'one\ntwo' }]);
  });

  it('skips comments and unknown fields; carries id and retry; keeps a data-less priming event', async () => {
    const events = await read([': keep-alive\n\nid: 7\nretry: 1500\ndata:\n\n', 'id: 8\nfoo: bar\ndata: x\n\n', 'retry: soon\ndata: y\n\n']);
    expect(events).toEqual([{ data: '', id: '7', retryMs: 1500 }, { data: 'x', id: '8' }, { data: 'y' }]);
  });

  it('yields a last event of complete lines with no blank line after; drops a line the stream cut off', async () => {
    expect(await read(['data: tail\n'])).toEqual([{ data: 'tail' }]);
    expect(await read(['data: {"a":1}\n\n', 'data: {"b":'])).toEqual([{ data: '{"a":1}' }]);
  });
});
