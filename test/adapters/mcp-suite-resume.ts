/**
 * @module test/adapters/mcp-suite-resume — the transport suite's resumability cases
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery,
 * SEP-1699): off by default (no event ids); with `resumability`, a session's SSE stream opens with a priming
 * event (an id, a `retry`, empty data) and gives every event an id; `ctx.closeStream()` ends the POST stream
 * without ending the request, and a GET with `Last-Event-ID` receives what that stream missed (never another
 * stream's events), then the rest; a client that drops a resumable stream does not cancel its request; the
 * replay log is bounded (`replayBytes`): a reconnect whose events were dropped is not resumed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHttpOptions } from '../../runtime/mcp/http/handler.ts';
import { eventually, JSON_HEADERS, open, send, type Exchange } from '../helpers/http-client.ts';
import { INIT, mcpFixture, rpc, type Fixture } from './mcp-fixture.ts';
import type { McpTarget, Served } from './targets.ts';

/** One SSE event as the text carries it (the WHATWG format: `field: value` lines, a blank line after each). */
interface RawEvent {
  readonly id?: string;
  readonly retry?: string;
  readonly data: string;
}

/** The events of an SSE body, comments left out (the test's own reader: independent of the server's writer). */
function rawEvents(text: string): RawEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const m = /^([a-z]+): ?(.*)$/.exec(line);
        if (m) fields[m[1]!] = m[2]!;
      }
      return {
        ...(fields['id'] !== undefined ? { id: fields['id'] } : {}),
        ...(fields['retry'] !== undefined ? { retry: fields['retry'] } : {}),
        data: fields['data'] ?? '',
      };
    });
}

const progress = (n: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'pt', progress: n } });
const POLLED = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'polled' }] } };
const pollCall = rpc(7, 'tools/call', { name: 'poll', arguments: {}, _meta: { progressToken: 'pt' } });

export function resumeCases(target: McpTarget): void {
  const running: Served[] = [];
  const streams: Exchange[] = [];
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await Promise.all(running.splice(0).map((s) => s.close()));
  });

  /** A served fixture with a handshake-era session open (initialize, notifications/initialized). */
  async function session(options: McpHttpOptions): Promise<Fixture & { url: string; id: string }> {
    const fixture = mcpFixture();
    const s = await target.start(fixture.server, options);
    running.push(s);
    const init = await send(s.url, { headers: JSON_HEADERS, body: rpc(1, 'initialize', INIT) });
    const id = init.headers['mcp-session-id'] as string;
    await send(s.url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id }, body: rpc(undefined, 'notifications/initialized') });
    return { ...fixture, url: s.url, id };
  }
  const post = async (url: string, id: string, body: string) => {
    const stream = await open(url, { headers: { ...JSON_HEADERS, 'mcp-session-id': id }, body });
    streams.push(stream);
    return stream;
  };
  const reconnect = async (url: string, id: string, lastEventId: string) => {
    const stream = await open(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'last-event-id': lastEventId } });
    streams.push(stream);
    return stream;
  };

  // Cases that read the fixture's aborts need it in this process (Traits.inProcess).
  const local = it.skipIf(!target.traits.inProcess);
  describe('resumable SSE streams (SEP-1699)', () => {
    it('off by default: no priming event and no event ids', async () => {
      const { url, id } = await session({});
      const stream = await post(url, id, rpc(3, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 'pt' } }));
      await stream.ended;
      const events = rawEvents(stream.text);
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.id === undefined && e.retry === undefined && e.data !== '')).toBe(true);
    });

    it('a stream opens with a priming event (id, retry, empty data); every event after it has an id of that stream', async () => {
      const { url, id } = await session({ resumability: { retryMs: 250 } });
      const stream = await post(url, id, rpc(3, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 'pt' } }));
      await stream.ended;
      const [priming, ...rest] = rawEvents(stream.text);
      expect(priming).toEqual({ id: expect.any(String), retry: '250', data: '' });
      expect(rest.length).toBe(3);
      const streamOf = (eventId: string | undefined) => eventId?.replace(/-\d+$/, '');
      expect(new Set(rest.map((e) => e.id)).size).toBe(rest.length);
      for (const e of rest) expect(streamOf(e.id)).toBe(streamOf(priming!.id));
      expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({ id: 3, result: {} });
    });

    local('ctx.closeStream ends the POST stream; a GET with Last-Event-ID replays what it missed, then the request ends there', async () => {
      const { url, id, aborted } = await session({ resumability: {} });
      const stream = await post(url, id, pollCall);
      await stream.ended;
      expect(stream.frames).toEqual([progress(1)]);
      const lastId = rawEvents(stream.text).at(-1)!.id!;
      // Reconnect after the answer was given: it comes from the replay log.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const resumed = await reconnect(url, id, lastId);
      expect([resumed.status, resumed.headers['content-type']]).toEqual([200, 'text/event-stream']);
      await resumed.ended;
      expect(resumed.frames).toEqual([progress(2), POLLED]);
      expect(aborted).toEqual([]);
    });

    it('a reconnect while the request still runs gets the rest as it comes', async () => {
      const { url, id } = await session({ resumability: {} });
      const stream = await post(url, id, pollCall);
      await stream.ended;
      const resumed = await reconnect(url, id, rawEvents(stream.text).at(-1)!.id!);
      await resumed.ended;
      expect(resumed.frames).toEqual([progress(2), POLLED]);
    });

    it('replays only the named stream after the given id: not its earlier events, not other streams', async () => {
      const { url, id } = await session({ resumability: {} });
      const other = await post(url, id, rpc(4, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 'pt' } }));
      await other.ended;
      const stream = await post(url, id, pollCall);
      await stream.ended;
      const priming = rawEvents(stream.text)[0]!.id!;
      await new Promise((resolve) => setTimeout(resolve, 150));
      const resumed = await reconnect(url, id, priming);
      await resumed.ended;
      expect(resumed.frames).toEqual([progress(1), progress(2), POLLED]);
    });

    local('a client that drops a resumable stream does not cancel its request', async () => {
      const { url, id, aborted } = await session({ resumability: {} });
      const stream = await post(url, id, rpc(8, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 'pt' } }));
      await stream.ended;
      const waiting = await post(url, id, rpc(9, 'tools/call', { name: 'wait', arguments: {}, _meta: { progressToken: 'w' } }));
      await waiting.waitFor((f) => f['method'] === 'notifications/progress');
      waiting.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(aborted).toEqual([]);
    });

    it('the replay log is bounded: a reconnect whose events were dropped is not resumed', async () => {
      const { url, id } = await session({ resumability: { replayBytes: 64 } });
      const stream = await post(url, id, pollCall);
      await stream.ended;
      await new Promise((resolve) => setTimeout(resolve, 150));
      const resumed = await reconnect(url, id, rawEvents(stream.text).at(-1)!.id!);
      // Not resumed: the session's plain GET stream instead, with nothing replayed.
      expect(resumed.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(resumed.frames).toEqual([]);
      expect(rawEvents(resumed.text)).toEqual([{ id: expect.any(String), retry: '1000', data: '' }]);
    });

    it('an unknown Last-Event-ID opens the plain GET stream', async () => {
      const { url, id } = await session({ resumability: {} });
      const resumed = await reconnect(url, id, 'no-such-event');
      expect(resumed.status).toBe(200);
      await eventually(() => resumed.text.includes('retry:'));
      expect(resumed.frames).toEqual([]);
    });
  });
}
