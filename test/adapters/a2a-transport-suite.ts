/**
 * @module test/adapters/a2a-transport-suite — one transport conformance suite for the A2A HTTP server
 * (https://a2a-protocol.org/latest/specification/), run by every way of serving it (targets.ts):
 * `runA2aTransportSuite(name, target)` covers the agent card (ETag, 304), the JSON-RPC binding (a result, the
 * envelope errors, 405, 413), the HTTP+JSON routes (the behaviour's content type, google.rpc.Status errors, 405
 * with Allow, 404), SSE on both bindings, the 401 challenge when `authenticate` refuses, and the end of a
 * stream when the client goes away, the hardening cases (a2a-suite-hardening.ts) and the card's security on every
 * method, or no start without a verifier (a2a-suite-security.ts). Expected answers as test/a2a pins them (agent-card, jsonrpc-envelope,
 * rest-binding, streaming) and as the SDK recorded them (a2a_errors).
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { A2aServer, type A2aServerOptions } from '../../runtime/a2a/server.ts';
import { loadA2aSessions } from '../helpers/a2a-replay.ts';
import { gate, testCard, userMessage, type Json } from '../helpers/a2a-server.ts';
import { canonicalJson } from '../helpers/golden.ts';
import { eventually, open, send, type Exchange } from '../helpers/http-client.ts';
import { scripted, watchEndedStreams } from './a2a-fixture.ts';
import { a2aHardeningCases } from './a2a-suite-hardening.ts';
import { a2aSecurityCases } from './a2a-suite-security.ts';
import type { A2aTarget, Served } from './targets.ts';

const CARD_PATH = '/.well-known/agent-card.json';
const RPC_HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const REST_HEADERS = { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' };
const recorded = loadA2aSessions()
  .find((s) => s.name === 'a2a_errors')!
  .messages.map((m) => m.json as Json);

/**
 * The options of a Connection header, once each (RFC 9110 §7.6.1, `Connection = #connection-option`): Deno's
 * server adds its own `close` to the one the handler set, so the header reads `close, close` there.
 */
const connectionOptions = (value: string | string[] | undefined) => [...new Set(String(value).split(/\s*,\s*/))];

const rpcBody = (id: unknown, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

export function runA2aTransportSuite(name: string, target: A2aTarget): void {
  describe(`A2A transport suite: ${name}`, () => {
    describe('hardening: depth', () => a2aHardeningCases(target));
    // Servers of its own (cards with security, verifiers): left out where another process serves the default agent.
    describe.skipIf(!target.traits.inProcess)('security as the card declares it', () => a2aSecurityCases(target));
    // Cases that watch the agent's streams or give it a function need it in this process (Traits.inProcess).
    const local = it.skipIf(!target.traits.inProcess);
    const running: Served[] = [];
    const streams: Exchange[] = [];
    afterEach(async () => {
      for (const s of streams.splice(0)) s.close();
      await Promise.all(running.splice(0).map((s) => s.close()));
    });
    /** An agent with both bindings; `ended` counts the answer streams whose iteration the HTTP layer ended. */
    const serve = async (options: Partial<A2aServerOptions> = {}, http: Parameters<A2aTarget['start']>[1] = {}) => {
      const g = gate();
      const server = new A2aServer({ card: testCard({ streaming: true }), executor: scripted(g), log: () => {}, ...options });
      const ended = watchEndedStreams(server);
      const s = await target.start(server, http);
      running.push(s);
      return { url: s.url, server, gate: g, ended };
    };

    it('serves the card: 200, its canonical JSON and a weak ETag; 304 to a matching If-None-Match', async () => {
      const { url } = await serve();
      const reply = await send(`${url}${CARD_PATH}`, { method: 'GET' });
      const etag = `W/"${createHash('sha256')
        .update(canonicalJson(testCard({ streaming: true })))
        .digest('hex')}"`;
      expect([reply.status, reply.headers['content-type'], reply.headers['etag']]).toEqual([200, 'application/json', etag]);
      expect(reply.text).toBe(canonicalJson(testCard({ streaming: true })));
      const again = await send(`${url}${CARD_PATH}`, { method: 'GET', headers: { 'if-none-match': etag } });
      expect([again.status, again.text, again.headers['etag']]).toEqual([304, '', etag]);
    });

    it('JSON-RPC: a result, the recorded unknown-task error, parse and envelope errors with id null', async () => {
      const { url } = await serve();
      const ok = await send(`${url}/a2a`, { headers: RPC_HEADERS, body: rpcBody(1, 'SendMessage', userMessage('hello')) });
      expect([ok.status, ok.headers['content-type']]).toEqual([200, 'application/json']);
      expect(ok.json).toMatchObject({ result: { message: { role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }, id: 1, jsonrpc: '2.0' });
      const unknown = await send(`${url}/a2a`, { headers: RPC_HEADERS, body: rpcBody(1, 'GetTask', { id: '0b9a2f1e-6a43-4c0e-9a57-1a5b1f3f4a11' }) });
      expect(unknown.json).toEqual(recorded[1]);
      for (const body of ['{"jsonrpc":"2.0","id":1,', 'not json']) {
        const reply = await send(`${url}/a2a`, { headers: RPC_HEADERS, body });
        expect(reply.status).toBe(200);
        expect(reply.json).toMatchObject({ error: { code: -32700 }, id: null, jsonrpc: '2.0' });
      }
      const empty = await send(`${url}/a2a`, { headers: { ...RPC_HEADERS, 'content-length': '0' }, body: '' });
      expect(empty.json).toMatchObject({ error: { code: -32700 }, id: null });
      const batch = await send(`${url}/a2a`, { headers: RPC_HEADERS, body: `[${rpcBody(1, 'GetTask', { id: 'x' })}]` });
      expect(batch.json).toMatchObject({ error: { code: -32600 }, id: null, jsonrpc: '2.0' });
      const get = await send(`${url}/a2a`, { method: 'GET', headers: { 'a2a-version': '1.0' } });
      expect([get.status, get.headers['allow']]).toEqual([405, 'POST']);
    });

    it('JSON-RPC: a 10 MiB body is 413 with Connection: close, and the agent keeps serving', async () => {
      const { url } = await serve();
      const big = await send(`${url}/a2a`, { headers: RPC_HEADERS, body: JSON.stringify(userMessage('x'.repeat(10 * 1024 * 1024))) });
      // Where the platform writes the connection headers itself, the client sees none (Traits.connectionHeader).
      const close = target.traits.connectionHeader ? ['close'] : connectionOptions(undefined);
      expect([big.status, connectionOptions(big.headers['connection'])]).toEqual([413, close]);
      expect(big.json).toMatchObject({ error: { code: -32600, message: 'Request body larger than 4194304 bytes' }, id: null });
      const after = await send(`${url}/a2a`, { headers: RPC_HEADERS, body: rpcBody(2, 'SendMessage', userMessage('hello')) });
      expect(after.json).toMatchObject({ id: 2, result: { message: { parts: [{ text: 'hi' }] } } });
    });

    it('HTTP+JSON: message:send, google.rpc.Status errors, 405 with Allow, 404 for an unknown path', async () => {
      const { url } = await serve();
      const sent = await send(`${url}/rest/message:send`, { headers: REST_HEADERS, body: JSON.stringify(userMessage('work')) });
      expect([sent.status, sent.headers['content-type']]).toEqual([200, 'application/json']);
      expect(sent.json).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'result' }] }] } });
      const missing = await send(`${url}/rest/tasks/nope`, { method: 'GET', headers: REST_HEADERS });
      expect([missing.status, missing.headers['content-type']]).toEqual([404, 'application/json']);
      expect(missing.json).toEqual({
        error: {
          code: 404,
          status: 'NOT_FOUND',
          message: 'Task not found',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org', metadata: {}, reason: 'TASK_NOT_FOUND' }],
        },
      });
      const wrongVerb = await send(`${url}/rest/tasks/x`, { method: 'DELETE', headers: REST_HEADERS });
      expect([wrongVerb.status, wrongVerb.headers['allow']]).toEqual([405, 'GET']);
      for (const path of ['/rest/nothing', '/elsewhere'])
        expect((await send(`${url}${path}`, { method: 'GET', headers: REST_HEADERS })).status, path).toBe(404);
    });

    it('SSE on both bindings: SendStreamingMessage frames in the envelope, message:stream bare StreamResponse objects', async () => {
      const { url } = await serve();
      const rpc = await open(`${url}/a2a`, {
        headers: { ...RPC_HEADERS, accept: 'text/event-stream' },
        body: rpcBody(3, 'SendStreamingMessage', userMessage('work')),
      });
      await rpc.ended;
      expect([rpc.status, rpc.headers['content-type']]).toEqual([200, 'text/event-stream']);
      expect(rpc.frames.map((f) => [f['id'], Object.keys(f['result'] as Json)[0]])).toEqual([
        [3, 'task'],
        [3, 'statusUpdate'],
        [3, 'artifactUpdate'],
        [3, 'statusUpdate'],
      ]);
      const rest = await open(`${url}/rest/message:stream`, { headers: REST_HEADERS, body: JSON.stringify(userMessage('work')) });
      await rest.ended;
      expect(rest.headers['content-type']).toBe('text/event-stream');
      expect(rest.frames.map((f) => Object.keys(f))).toEqual([['task'], ['statusUpdate'], ['artifactUpdate'], ['statusUpdate']]);
    });

    local('ends the stream it iterates when the client goes away', async () => {
      const { url, ended, gate: g } = await serve();
      const stream = await open(`${url}/a2a`, { headers: RPC_HEADERS, body: rpcBody(4, 'SendStreamingMessage', userMessage('slow')) });
      streams.push(stream);
      await stream.waitFor((f) => (f['result'] as Json)?.['statusUpdate'] !== undefined);
      expect(ended).toEqual([]);
      stream.close();
      await eventually(() => ended.length > 0);
      expect(ended).toEqual(['SendStreamingMessage']);
      g.open();
    });

    local('answers 401 with the challenge on both bindings when authenticate refuses; the card stays public', async () => {
      const challenge = 'Bearer realm="test"';
      const { url } = await serve(
        {},
        { authenticate: (req) => (req.headers['authorization'] === 'Bearer ok' ? { ok: true } : { ok: false, challenge }) },
      );
      for (const [path, headers, body] of [
        ['/a2a', RPC_HEADERS, rpcBody(1, 'GetTask', { id: 'x' })],
        ['/rest/message:send', REST_HEADERS, JSON.stringify(userMessage('work'))],
      ] as const) {
        const refused = await send(`${url}${path}`, { headers, body });
        expect([refused.status, refused.headers['www-authenticate'], refused.headers['content-type']]).toEqual([401, challenge, 'application/json']);
        expect(refused.text).toBe('{"error":"unauthorized"}');
      }
      expect((await send(`${url}${CARD_PATH}`, { method: 'GET' })).status).toBe(200);
      const signedIn = await send(`${url}/a2a`, {
        headers: { ...RPC_HEADERS, authorization: 'Bearer ok' },
        body: rpcBody(1, 'SendMessage', userMessage('hello')),
      });
      expect(signedIn.json).toMatchObject({ result: { message: { parts: [{ text: 'hi' }] } } });
    });
  });
}
