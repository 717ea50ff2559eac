/**
 * Progress and logging (runtime/mcp/server/context.ts): ctx.progress sends notifications/progress only when the
 * request carried `_meta.progressToken` (both eras), always before the response; ctx.log sends
 * notifications/message in 2026-07-28 only when the request's logLevel admits the level, and in the
 * handshake era only when the server advertises `logging` (logging/setLevel raises the threshold).
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { LoggingLevel, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, LOG_LEVEL, mcpPair, SERVER_INFO, withMeta } from '../helpers/mcp-pair.ts';

const LEVELS: LoggingLevel[] = ['debug', 'info', 'warning', 'error', 'emergency'];

function options(handshakeCaps: JsonObject = { tools: {} }): McpServerOptions {
  return {
    serverInfo: SERVER_INFO,
    capabilities: { handshake: handshakeCaps, stateless: { tools: {} } },
    handlers: {
      'tools/call': async (params, ctx) => {
        if (params['name'] === 'count') {
          ctx.progress(1, 3, 'one');
          ctx.progress(2, 3);
          ctx.progress(3);
        } else if (params['name'] === 'destructured') {
          // As handlers often take it: `async (args, { progress }) => …`.
          const { progress } = ctx;
          progress(1, 3, 'one');
          progress(2, 3);
          progress(3);
        } else for (const level of LEVELS) ctx.log(level, { level }, level === 'error' ? 'db' : undefined);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { content: [] };
      },
    },
  };
}

const progress = (progressToken: string | number) => [
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 1, total: 3, message: 'one' } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 2, total: 3 } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 3 } },
];
const message = (level: LoggingLevel) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: level === 'error' ? { level, logger: 'db', data: { level } } : { level, data: { level } },
});

describe('progress', () => {
  const cases: [string, { era: 'stateless' | 'handshake'; token?: string | number; want: unknown[] }][] = [
    ['2026-07-28 with a string token', { era: 'stateless', token: 'p-1', want: progress('p-1') }],
    ['2026-07-28 with an integer token', { era: 'stateless', token: 7, want: progress(7) }],
    ['2026-07-28 without a token', { era: 'stateless', want: [] }],
    ['handshake with a string token', { era: 'handshake', token: 'p-1', want: progress('p-1') }],
    ['handshake with an integer token', { era: 'handshake', token: 0, want: progress(0) }],
    ['handshake without a token', { era: 'handshake', want: [] }],
  ];
  it.each(cases)('%s', async (_name, { era, token, want }) => {
    const pair = mcpPair(options());
    const tokenMeta = token === undefined ? {} : { progressToken: token };
    if (era === 'handshake') await handshake(pair);
    const params = era === 'stateless' ? withMeta({ name: 'count' }, tokenMeta) : { name: 'count', _meta: tokenMeta };
    const { response, notifications } = await pair.request('tools/call', params);
    expect(response['result']).toBeDefined();
    expect(notifications).toEqual(want);
    await pair.quiet();
    await pair.close();
  });
});

it('a handler may destructure the context: `const { progress } = ctx` sends the same notifications', async () => {
  const pair = mcpPair(options());
  const { response, notifications } = await pair.request('tools/call', withMeta({ name: 'destructured' }, { progressToken: 'p-1' }));
  expect(response['result']).toBeDefined();
  expect(notifications).toEqual(progress('p-1'));
  await pair.quiet();
  await pair.close();
});

describe('progress tokens beyond 2^53 (int64, echoed digit for digit)', () => {
  const ENVELOPE = '"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}';
  const cases: [string, { era: 'stateless' | 'handshake'; token: string }][] = [
    ['2026-07-28, int64 max', { era: 'stateless', token: '9223372036854775807' }],
    ['2026-07-28, int64 min', { era: 'stateless', token: '-9223372036854775808' }],
    ['handshake, int64 max', { era: 'handshake', token: '9223372036854775807' }],
  ];
  it.each(cases)('%s', async (_name, { era, token }) => {
    const pair = mcpPair(options());
    if (era === 'handshake') await handshake(pair);
    const envelope = era === 'stateless' ? `,${ENVELOPE}` : '';
    const start = pair.lines.length;
    pair.send(`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"count","_meta":{"progressToken":${token}${envelope}}}}`);
    await pair.waitFor((f) => f['id'] === 'big');
    expect(pair.lines.slice(start, start + 3)).toEqual([
      `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${token},"progress":1,"total":3,"message":"one"}}`,
      `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${token},"progress":2,"total":3}}`,
      `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${token},"progress":3}}`,
    ]);
    await pair.close();
  });
});

describe('logging in 2026-07-28', () => {
  const cases: [string, { level?: LoggingLevel; want: LoggingLevel[] }][] = [
    ['no logLevel sends nothing', { want: [] }],
    ['debug admits every level', { level: 'debug', want: LEVELS }],
    ['warning admits warning and above', { level: 'warning', want: ['warning', 'error', 'emergency'] }],
    ['emergency admits emergency only', { level: 'emergency', want: ['emergency'] }],
  ];
  it.each(cases)('%s', async (_name, { level, want }) => {
    const pair = mcpPair(options());
    const { notifications } = await pair.request('tools/call', withMeta({ name: 'log' }, level ? { [LOG_LEVEL]: level } : {}));
    expect(notifications).toEqual(want.map(message));
    await pair.close();
  });
});

describe('logging in the handshake era', () => {
  it('sends nothing when the server does not advertise logging, and has no logging/setLevel', async () => {
    const pair = mcpPair(options());
    await handshake(pair);
    expect((await pair.request('tools/call', { name: 'log' })).notifications).toEqual([]);
    expect((await pair.request('logging/setLevel', { level: 'debug' }, 's')).response).toEqual({
      jsonrpc: '2.0',
      id: 's',
      error: { code: -32601, message: 'Method not found', data: 'logging/setLevel' },
    });
    expect((await pair.request('tools/call', { name: 'log' })).notifications).toEqual([]);
    await pair.close();
  });

  it('sends every level when logging is advertised, and what logging/setLevel admits after it', async () => {
    const pair = mcpPair(options({ tools: {}, logging: {} }));
    await handshake(pair);
    expect((await pair.request('tools/call', { name: 'log' })).notifications).toEqual(LEVELS.map(message));
    expect((await pair.request('logging/setLevel', { level: 'error' }, 's')).response).toEqual({ jsonrpc: '2.0', id: 's', result: {} });
    expect((await pair.request('tools/call', { name: 'log' })).notifications).toEqual((['error', 'emergency'] as LoggingLevel[]).map(message));
    await pair.close();
  });

  it('refuses logging/setLevel with an unknown level', async () => {
    const pair = mcpPair(options({ tools: {}, logging: {} }));
    await handshake(pair);
    expect((await pair.request('logging/setLevel', { level: 'loud' }, 's')).response).toEqual({
      jsonrpc: '2.0',
      id: 's',
      error: { code: -32602, message: 'Invalid request parameters', data: '' },
    });
    await pair.close();
  });
});
