/**
 * 2026-07-28 responses over HTTP (runtime/mcp/http/handler.ts;
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): one JSON body with the status of the
 * transports page's table by default; Server-Sent Events once a request produces a notification (progress or log), the
 * notifications first and the response as the last event; an error after the stream started is an event of a 200
 * response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcError, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import type { McpHandlers } from '../../runtime/mcp/server/types.ts';
import { call, serverPool, type CallOptions } from '../helpers/http-client.ts';
import { LOG_LEVEL, SERVER_INFO, SERVER_INFO_KEY } from '../helpers/mcp-pair.ts';

const logged: string[] = [];
const TOOLS: Record<string, NonNullable<McpHandlers['tools/call']>> = {
  ok: () => ({ content: [{ type: 'text', text: 'fine' }] }),
  invalid: () => {
    throw new JsonRpcError(-32602, 'Bad widget', { widget: 7 });
  },
  request: () => {
    throw new JsonRpcError(-32600, 'Not like this');
  },
  app: () => {
    throw new JsonRpcError(-32001, 'Application failure');
  },
  crash: () => {
    throw new Error('boom');
  },
  sample: async (_p, ctx) => ({
    content: [
      { type: 'text', text: JSON.stringify(await ctx.input('s', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } })) },
    ],
  }),
  progress: (_p, ctx) => {
    ctx.progress(1, 3, 'one');
    ctx.progress(2, 3);
    ctx.log('info', 'halfway', 'worker');
    ctx.log('debug', 'too detailed');
    return { content: [{ type: 'text', text: 'done' }] };
  },
  lateError: (_p, ctx) => {
    ctx.progress(1);
    throw new JsonRpcError(-32602, 'Failed after starting');
  },
  lateCrash: async (_p, ctx) => {
    ctx.log('error', 'about to fail');
    await new Promise((r) => setTimeout(r, 5));
    throw new Error('late boom');
  },
};

const pool = serverPool();
let srv: RunningHttpServer;
beforeAll(async () => {
  srv = await pool.start({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {}, logging: {}, completions: {} } },
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (params, ctx) => TOOLS[params['name'] as string]!(params, ctx),
      // A crash outside tools/call is -32603 with its message (a tool's is its isError result).
      'completion/complete': () => {
        throw new Error('boom');
      },
    },
    log: (line) => logged.push(line),
  });
});
afterAll(() => pool.closeAll());

const tool = (name: string, options: CallOptions = {}) => call(srv.url, 'tools/call', { name, arguments: {} }, { id: `t-${name}`, ...options });

describe('JSON responses: the HTTP status of each outcome', () => {
  const err = (code: number, message: string, data?: unknown) => ({ error: data === undefined ? { code, message } : { code, message, data } });
  const cases: [string, { send: () => ReturnType<typeof call>; id: unknown; status: number; want: JsonObject }][] = [
    [
      'a result',
      {
        send: () => tool('ok'),
        id: 't-ok',
        status: 200,
        want: { result: { content: [{ type: 'text', text: 'fine' }], resultType: 'complete', _meta: { [SERVER_INFO_KEY]: SERVER_INFO } } },
      },
    ],
    [
      'an unknown method: -32601',
      {
        send: () => call(srv.url, 'tools/frobnicate', {}, { id: 'u' }),
        id: 'u',
        status: 404,
        want: err(-32601, 'Method not found', 'tools/frobnicate'),
      },
    ],
    [
      'ping with the 2026-07-28 envelope: -32601',
      { send: () => call(srv.url, 'ping', {}, { id: 'p' }), id: 'p', status: 404, want: err(-32601, 'Method not found', 'ping') },
    ],
    [
      'initialize with the 2026-07-28 envelope: -32601',
      { send: () => call(srv.url, 'initialize', {}, { id: 'i' }), id: 'i', status: 404, want: err(-32601, 'Method not found', 'initialize') },
    ],
    [
      'an ungated method: -32601',
      { send: () => call(srv.url, 'prompts/list', {}, { id: 'g' }), id: 'g', status: 404, want: err(-32601, 'Method not found', 'prompts/list') },
    ],
    ['a handler throwing -32602', { send: () => tool('invalid'), id: 't-invalid', status: 400, want: err(-32602, 'Bad widget', { widget: 7 }) }],
    [
      'params failing the schema: -32602',
      {
        send: () => call(srv.url, 'tools/call', { arguments: {} }, { id: 's', headers: { 'mcp-name': '' } }),
        id: 's',
        status: 400,
        want: err(-32602, "Invalid params: must have required property 'name'"),
      },
    ],
    ['a handler throwing -32600', { send: () => tool('request'), id: 't-request', status: 400, want: err(-32600, 'Not like this') }],
    [
      'a handler crashing: -32603',
      {
        send: () => call(srv.url, 'completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }, { id: 'c' }),
        id: 'c',
        status: 500,
        want: err(-32603, 'boom'),
      },
    ],
    [
      'a tool crashing: its isError result, 200',
      {
        send: () => tool('crash'),
        id: 't-crash',
        status: 200,
        want: {
          result: { content: [{ type: 'text', text: 'boom' }], isError: true, resultType: 'complete', _meta: { [SERVER_INFO_KEY]: SERVER_INFO } },
        },
      },
    ],
    [
      'a capability the client lacks: -32021',
      {
        send: () => tool('sample'),
        id: 't-sample',
        status: 400,
        want: err(-32021, 'Missing required client capability', { requiredCapabilities: { sampling: {} } }),
      },
    ],
    ['an application error code: 200', { send: () => tool('app'), id: 't-app', status: 200, want: err(-32001, 'Application failure') }],
  ];
  it.each(cases)('%s', async (_name, c) => {
    const reply = await c.send();
    expect(reply.status).toBe(c.status);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: c.id, ...c.want });
  });

  it('logs a crash with its stack', async () => {
    logged.length = 0;
    await tool('crash');
    expect(logged).toEqual([expect.stringMatching(/^request tools\/call crash failed: Error: boom\n\s+at /)]);
  });

  it('stays JSON when progress and logs were not asked for', async () => {
    const reply = await tool('progress');
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toMatchObject({ id: 't-progress', result: { content: [{ type: 'text', text: 'done' }] } });
  });
});

describe('SSE responses', () => {
  it('switches to SSE at the first notification: notifications first, the response last', async () => {
    const reply = await tool('progress', { meta: { progressToken: 'p-1', [LOG_LEVEL]: 'info' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['x-accel-buffering']).toBe('no');
    expect(reply.frames).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1, total: 3, message: 'one' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 2, total: 3 } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'worker', data: 'halfway' } },
      {
        jsonrpc: '2.0',
        id: 't-progress',
        result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete', _meta: { [SERVER_INFO_KEY]: SERVER_INFO } },
      },
    ]);
  });

  it('writes each message as one data: line of one event', async () => {
    const reply = await tool('progress', { meta: { progressToken: 7 } });
    const events = reply.text.split('\n\n').filter((e) => e !== '');
    expect(reply.text.endsWith('\n\n')).toBe(true);
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event.split('\n')).toHaveLength(1);
      expect(event.startsWith('data: ')).toBe(true);
      expect(() => JSON.parse(event.slice(6))).not.toThrow();
    }
  });

  it('sends only progress when only progress was asked for', async () => {
    const reply = await tool('progress', { meta: { progressToken: 'only' } });
    expect(reply.frames.map((f) => f['method'] ?? f['id'])).toEqual(['notifications/progress', 'notifications/progress', 't-progress']);
  });

  const late: [string, { name: string; meta: JsonObject; answer: JsonObject; notifications: number }][] = [
    [
      'a JSON-RPC error',
      { name: 'lateError', meta: { progressToken: 'x' }, answer: { error: { code: -32602, message: 'Failed after starting' } }, notifications: 1 },
    ],
    [
      'a crash (its isError result)',
      {
        name: 'lateCrash',
        meta: { [LOG_LEVEL]: 'debug' },
        answer: {
          result: {
            content: [{ type: 'text', text: 'late boom' }],
            isError: true,
            resultType: 'complete',
            _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
          },
        },
        notifications: 1,
      },
    ],
  ];
  it.each(late)('sends %s after the stream started as an event of a 200 response', async (_name, c) => {
    const reply = await tool(c.name, { meta: c.meta });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.frames).toHaveLength(c.notifications + 1);
    expect(reply.frames.at(-1)).toEqual({ jsonrpc: '2.0', id: `t-${c.name}`, ...c.answer });
  });
});
