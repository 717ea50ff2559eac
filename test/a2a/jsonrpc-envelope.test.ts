/**
 * The JSON-RPC binding's envelope and params checks (A2A §9, JSON-RPC 2.0 §4–5): what a malformed request,
 * missing or invalid params, an unknown task, an oversized body and a v0.3 method name get. Shapes the SDK
 * recorded (the SDK's recorded a2a_errors session) are compared exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadA2aSessions } from '../helpers/a2a-replay.ts';
import { agentPool, userMessage, type Json } from '../helpers/a2a-server.ts';
import { send } from '../helpers/http-client.ts';

const pool = agentPool();
afterEach(() => pool.closeAll());
const errors = loadA2aSessions()
  .find((s) => s.name === 'a2a_errors')!
  .messages.map((m) => m.json as Json);

/** An agent that answers every message with a message (no task). */
const start = () => pool.start({ executor: { execute: (ctx) => ctx.reply(`echo: ${ctx.text}`) } });
const post = async (url: string, body: string, headers: Record<string, string> = {}) =>
  send(`${url}/a2a`, { headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers }, body });

describe('JSON-RPC envelope', () => {
  it('a body that is not JSON gets -32700 with id null', async () => {
    const a = await start();
    for (const body of ['{"jsonrpc":"2.0","id":1,', 'not json', '']) {
      const reply = await post(a.url, body);
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ error: { code: -32700, message: expect.any(String) }, id: null, jsonrpc: '2.0' });
    }
  });

  it.each([
    ['wrong jsonrpc', { jsonrpc: '1.0', id: 1, method: 'GetTask', params: { id: 'x' } }, 1],
    ['no jsonrpc', { id: 1, method: 'GetTask', params: { id: 'x' } }, 1],
    ['missing method', { jsonrpc: '2.0', id: 1, params: {} }, 1],
    ['method not a string', { jsonrpc: '2.0', id: 1, method: 7 }, 1],
    ['id an object', { jsonrpc: '2.0', id: {}, method: 'GetTask', params: { id: 'x' } }, null],
    ['id a fraction', { jsonrpc: '2.0', id: 1.5, method: 'GetTask', params: { id: 'x' } }, null],
    ['id a boolean', { jsonrpc: '2.0', id: true, method: 'GetTask', params: { id: 'x' } }, null],
    ['params an array', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: ['x'] }, 1],
    ['params a string', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: 'x' }, 1],
    ['params null', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: null }, 1],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }], null],
  ])('%s: -32600', async (_, body, id) => {
    const a = await start();
    expect((await post(a.url, JSON.stringify(body))).json).toMatchObject({ error: { code: -32600 }, id, jsonrpc: '2.0' });
  });

  it('SendMessage without params: -32602 "Validation failed" naming `message`', async () => {
    const a = await start();
    const reply = (await a.rpc('SendMessage')) as Json;
    expect(reply.error).toMatchObject({ code: -32602, message: 'Validation failed' });
    expect(reply.error.data[0]).toMatchObject({
      reason: 'INVALID_PARAMS',
      metadata: { errors: [{ field: 'message', message: expect.any(String) }] },
    });
    expect(reply.error.data[1]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ description: expect.any(String), field: 'message' }],
    });
  });

  it('a message with no parts: the recorded -32602 exactly (a2a_errors #7)', async () => {
    const a = await start();
    const reply = await a.rpc('SendMessage', { message: { messageId: 'm-1', parts: [], role: 'ROLE_USER' } }, { id: 4 });
    expect(reply).toEqual(errors[7]);
  });

  it.each(['ROLE_AGENT', 'ROLE_UNSPECIFIED', 'user'])('a message with role %s: -32602', async (role) => {
    const a = await start();
    const reply = await a.rpc('SendMessage', userMessage('hi', { role }));
    expect(reply.error).toMatchObject({ code: -32602, message: 'Validation failed' });
    expect(JSON.stringify(reply.error.data)).toContain('message.role');
  });

  it('an unknown task id: -32001 with the recorded shape (a2a_errors #1)', async () => {
    const a = await start();
    expect(await a.rpc('GetTask', { id: '0b9a2f1e-6a43-4c0e-9a57-1a5b1f3f4a11' }, { id: 1 })).toEqual(errors[1]);
    expect(await a.rpc('CancelTask', { id: 'nope' }, { id: 1 })).toEqual(errors[1]);
    expect(await a.rpc('SendMessage', userMessage('hi', { taskId: 'nope' }), { id: 1 })).toEqual(errors[1]);
    expect(await a.rpc('SubscribeToTask', { id: 'nope' }, { id: 1 })).toEqual(errors[1]);
  });

  it('a 10 MiB body gets 413, and the server keeps serving', async () => {
    const a = await start();
    const big = JSON.stringify(userMessage('x'.repeat(10 * 1024 * 1024)));
    const reply = await post(a.url, big);
    expect(reply.status).toBe(413);
    // Sent chunked (no Content-Length), the body is cut off while it streams in.
    const chunked = await post(a.url, big, { 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(413);
    expect((await a.rpc('SendMessage', userMessage('still there?'))).result.message.parts).toEqual([{ text: 'echo: still there?' }]);
  });

  it.each([
    'message/send',
    'message/stream',
    'tasks/get',
    'tasks/cancel',
    'tasks/resubscribe',
    'tasks/pushNotificationConfig/set',
    'agent/getAuthenticatedExtendedCard',
  ])('the v0.3 method %s: -32601 as recorded (a2a_errors #5)', async (method) => {
    const a = await start();
    expect(await a.rpc(method, { message: { messageId: 'm', parts: [{ text: 'x' }], role: 'ROLE_USER' } }, { id: 3 })).toEqual(errors[5]);
  });

  it('names that are not methods of the table (toString, __proto__, constructor) get -32601', async () => {
    const a = await start();
    for (const method of ['toString', '__proto__', 'constructor', 'hasOwnProperty'])
      expect((await a.rpc(method, {})).error).toEqual({ code: -32601, message: 'Method not found' });
  });

  it('the endpoint takes POST only (405 with Allow)', async () => {
    const a = await start();
    const reply = await send(`${a.url}/a2a`, { method: 'GET', headers: { 'a2a-version': '1.0' } });
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
  });

  it('member order follows the behaviour: the SDK writes result|error, id, jsonrpc; the kit jsonrpc, id, result|error', async () => {
    const { KIT_BEHAVIOUR, SDK_BEHAVIOUR } = await import('../../runtime/a2a/types.ts');
    const keysOf = (text: string) => Object.keys(JSON.parse(text) as object);
    for (const [behaviour, ok, failed] of [
      [SDK_BEHAVIOUR, ['result', 'id', 'jsonrpc'], ['error', 'id', 'jsonrpc']],
      [KIT_BEHAVIOUR, ['jsonrpc', 'id', 'result'], ['jsonrpc', 'id', 'error']],
    ] as const) {
      const a = await pool.start({ behaviour, executor: { execute: (ctx) => ctx.reply(`echo: ${ctx.text}`) } });
      const message = { messageId: 'm-1', parts: [{ text: 'hi' }], role: 'ROLE_USER' };
      expect(keysOf((await post(a.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }))).text)).toEqual(ok);
      expect(keysOf((await post(a.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: 'none' } }))).text)).toEqual(failed);
      expect(keysOf((await post(a.url, 'not json')).text)).toEqual(failed);
      const stream = await post(a.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'SendStreamingMessage', params: { message } }), {
        accept: 'text/event-stream',
      });
      expect(stream.frames.length).toBeGreaterThan(0);
      for (const frame of stream.frames) expect(Object.keys(frame as object)).toEqual(ok);
    }
  });
});
