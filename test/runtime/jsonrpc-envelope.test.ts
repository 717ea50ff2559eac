/**
 * The JSON-RPC 2.0 envelope (runtime/jsonrpc/message.ts), directly and through a server: which ids are
 * usable, what is answered with which error (and id), and what is never answered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify, parseFrame, readId, serialize, serializeNotification, serializeResult, WideId } from '../../runtime/jsonrpc/message.ts';
import { mcpPair, SERVER_INFO } from '../helpers/mcp-pair.ts';

const OPTIONS = { serverInfo: SERVER_INFO, capabilities: { handshake: {}, stateless: {} }, handlers: {} };
const BAD_ID = 'Invalid Request: id must be a string of at most 256 bytes or an int64 integer';

describe('readId', () => {
  const cases: [string, { given: unknown; text?: string; want: unknown }][] = [
    ['a 256-byte string', { given: 'a'.repeat(256), want: 'a'.repeat(256) }],
    ['a 257-byte string', { given: 'a'.repeat(257), want: undefined }],
    ['256 bytes of two-byte characters', { given: 'é'.repeat(128), want: 'é'.repeat(128) }],
    ['258 bytes of two-byte characters', { given: 'é'.repeat(129), want: undefined }],
    ['a safe integer', { given: -42, want: -42 }],
    ['a float', { given: 1.5, want: undefined }],
    ['int64 max kept as its digits', { given: new WideId('9223372036854775807'), want: new WideId('9223372036854775807') }],
    ['int64 min kept as its digits', { given: new WideId('-9223372036854775808'), want: new WideId('-9223372036854775808') }],
    ['2^63 as digits', { given: new WideId('9223372036854775808'), want: undefined }],
    ['a wide integer as a rounded number', { given: 2 ** 63, want: undefined }],
    ['true', { given: true, want: undefined }],
    ['null', { given: null, want: undefined }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(readId(given)).toEqual(want);
  });
});

describe('classify', () => {
  const cases: [string, { given: unknown; want: unknown }][] = [
    [
      'a request',
      { given: { jsonrpc: '2.0', id: 1, method: 'm', params: { a: 1 } }, want: { kind: 'request', id: 1, method: 'm', params: { a: 1 } } },
    ],
    ['a notification', { given: { jsonrpc: '2.0', method: 'n' }, want: { kind: 'notification', method: 'n', params: undefined } }],
    ['a result', { given: { jsonrpc: '2.0', id: 3, result: {} }, want: { kind: 'response', id: 3, result: {} } }],
    [
      'an error',
      { given: { jsonrpc: '2.0', id: 3, error: { code: 1, message: 'x' } }, want: { kind: 'response', id: 3, error: { code: 1, message: 'x' } } },
    ],
    ['a notification without jsonrpc', { given: { method: 'n' }, want: { kind: 'ignored', reason: 'notification without jsonrpc "2.0"' } }],
    [
      'a notification with array params',
      { given: { jsonrpc: '2.0', method: 'n', params: [1] }, want: { kind: 'ignored', reason: 'notification params must be an object' } },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(classify(given)).toEqual(want);
  });

  it('parseFrame ignores text that is not JSON unless asked to answer it', () => {
    expect(parseFrame('{nope')).toEqual({ kind: 'ignored', reason: 'not JSON' });
    const answered = parseFrame('{nope', true);
    expect(answered.kind === 'invalid' && [answered.id, answered.error.toJSON()]).toEqual([null, { code: -32700, message: 'Parse error' }]);
  });

  it('serialize writes a WideId as its digits', () => {
    expect(serialize({ id: new WideId('9223372036854775807'), s: 'x' })).toBe('{"id":9223372036854775807,"s":"x"}');
  });

  it('serializeResult and serializeNotification write what serialize writes of the envelope object', () => {
    const wide = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => new WideId(String(n)));
    const id = fc.oneof(fc.maxSafeInteger(), fc.string({ unit: 'grapheme', maxLength: 40 }), wide);
    const value = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.record({ token: wide, nested: fc.array(wide, { maxLength: 3 }) }));
    fc.assert(
      fc.property(id, value, (i, result) => {
        expect(serializeResult(i, result)).toBe(serialize({ jsonrpc: '2.0', id: i, result }));
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), value, (method, params) => {
        const envelope = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
        expect(serializeNotification(method, params)).toBe(serialize(envelope));
      }),
    );
  });

  it('serializeResult writes wide ids as digits, leaves out an undefined result, and throws on a BigInt', () => {
    const wide = new WideId('-9223372036854775808');
    expect(serializeResult(wide, { requestId: new WideId('9223372036854775807') })).toBe(
      '{"jsonrpc":"2.0","id":-9223372036854775808,"result":{"requestId":9223372036854775807}}',
    );
    expect(serializeResult('a"b', undefined)).toBe('{"jsonrpc":"2.0","id":"a\\"b"}');
    expect(() => serializeResult(1, { n: 1n })).toThrow(TypeError);
  });
});

describe('the envelope through a server', () => {
  /** Sends one raw frame to a fresh server; the raw reply line. */
  async function reply(frame: string, answerParseErrors = false): Promise<string> {
    const pair = mcpPair(OPTIONS, { connection: { answerParseErrors } });
    pair.send(frame);
    await pair.waitFor(() => true);
    await pair.close();
    return pair.lines[0]!;
  }
  const error = (id: string, code: number, message: string) => `{"jsonrpc":"2.0","id":${id},"error":{"code":${code},"message":"${message}"}}`;
  const ping = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
  const ok = (id: string) => `{"jsonrpc":"2.0","id":${id},"result":{}}`;
  const long = (n: number) => JSON.stringify('a'.repeat(n));

  const cases: [string, { given: string; want: string }][] = [
    ['a 256-byte string id', { given: ping(long(256)), want: ok(long(256)) }],
    ['a 257-byte string id', { given: ping(long(257)), want: error('null', -32600, BAD_ID) }],
    ['int64 max, digit for digit', { given: ping('9223372036854775807'), want: ok('9223372036854775807') }],
    ['int64 min, digit for digit', { given: ping('-9223372036854775808'), want: ok('-9223372036854775808') }],
    ['2^63', { given: ping('9223372036854775808'), want: error('null', -32600, BAD_ID) }],
    ['a float id', { given: ping('1.5'), want: error('null', -32600, BAD_ID) }],
    ['a boolean id', { given: ping('true'), want: error('null', -32600, BAD_ID) }],
    ['an array id', { given: ping('[1]'), want: error('null', -32600, BAD_ID) }],
    ['an object id', { given: ping('{"a":1}'), want: error('null', -32600, BAD_ID) }],
    ['a null id', { given: ping('null'), want: error('null', -32600, BAD_ID) }],
    ['an empty batch', { given: '[]', want: error('null', -32600, 'Invalid Request: batches are not supported') }],
    ['a batch of one request', { given: `[${ping('1')}]`, want: error('null', -32600, 'Invalid Request: batches are not supported') }],
    ['a JSON number', { given: '42', want: error('null', -32600, 'Invalid Request: a message must be a JSON object') }],
    ['no jsonrpc member', { given: '{"id":7,"method":"ping"}', want: error('7', -32600, 'Expected a JSON-RPC 2.0 request') }],
    [
      'jsonrpc "1.0" with int64 max, digit for digit',
      {
        given: '{"jsonrpc":"1.0","id":9223372036854775807,"method":"ping"}',
        want: error('9223372036854775807', -32600, 'Expected a JSON-RPC 2.0 request'),
      },
    ],
    ['jsonrpc "1.0"', { given: '{"jsonrpc":"1.0","id":"x","method":"ping"}', want: error('"x"', -32600, 'Expected a JSON-RPC 2.0 request') }],
    ['a numeric method', { given: '{"jsonrpc":"2.0","id":8,"method":42}', want: error('8', -32600, 'Invalid Request: method must be a string') }],
    ['no method and no result', { given: '{"jsonrpc":"2.0","id":9}', want: error('9', -32600, 'Invalid Request: method must be a string') }],
    [
      'array params',
      { given: '{"jsonrpc":"2.0","id":10,"method":"ping","params":[1]}', want: error('10', -32602, 'Request params must be an object') },
    ],
    [
      'null params',
      { given: '{"jsonrpc":"2.0","id":11,"method":"ping","params":null}', want: error('11', -32602, 'Request params must be an object') },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    expect(await reply(given)).toBe(want);
  });

  it('answers a frame that is not JSON with -32700 and id null when asked to', async () => {
    expect(await reply('{"jsonrpc":"2.0","id":1,', true)).toBe(error('null', -32700, 'Parse error'));
  });

  const silent: [string, { given: string }][] = [
    ['a frame that is not JSON (default)', { given: '{"jsonrpc":"2.0","id":1,' }],
    ['a notification', { given: '{"jsonrpc":"2.0","method":"notifications/whatever"}' }],
    ['a notification without jsonrpc', { given: '{"method":"notifications/whatever"}' }],
    ['a notification with array params', { given: '{"jsonrpc":"2.0","method":"notifications/whatever","params":[1]}' }],
    ['notifications/initialized with string params', { given: '{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}' }],
    ['a result from the client', { given: '{"jsonrpc":"2.0","id":99,"result":{}}' }],
    ['an error from the client', { given: '{"jsonrpc":"2.0","id":99,"error":{"code":-1,"message":"no"}}' }],
    ['a response with an unusable id', { given: '{"jsonrpc":"2.0","id":1.5,"result":{}}' }],
  ];
  it.each(silent)('never answers %s', async (_name, { given }) => {
    const pair = mcpPair(OPTIONS);
    pair.send(given);
    await pair.quiet();
    // …and the connection still serves the next request.
    expect((await pair.request('ping', undefined, 1)).response).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await pair.close();
  });
});
