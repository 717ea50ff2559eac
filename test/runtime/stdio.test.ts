/**
 * The stdio transport (runtime/transports/stdio.ts) over PassThrough streams, with a server on top: lines
 * split on \n with a trailing \r dropped, chunks split anywhere (even inside a UTF-8 character), empty lines
 * ignored, an over-long line answered -32600 with id null without losing the next line, and one output line
 * per message.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineSplitter, stdioTransport } from '../../runtime/transports/stdio.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

const MAX = 120;
const OVERSIZE = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message larger than ${MAX} bytes"}}`;
const ping = (id: string | number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const pong = (id: string | number) => JSON.stringify({ jsonrpc: '2.0', id, result: {} });
const pad = (n: number) => ' '.repeat(n);

/** Feeds `chunks` to a server on stdio, ends the input, and returns its output split into lines. */
async function serve(chunks: (string | Buffer)[]): Promise<{ output: string; lines: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const server = new McpServer({ serverInfo: SERVER_INFO, capabilities: { handshake: {}, stateless: {} }, handlers: {}, log: () => {} });
  const conn = server.connect(stdioTransport(input, output, { maxLineBytes: MAX }));
  for (const chunk of chunks) {
    input.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  input.end();
  await conn.finished;
  await new Promise((resolve) => setImmediate(resolve));
  return { output: text, lines: text === '' ? [] : text.replace(/\n$/, '').split('\n') };
}

describe('stdio transport', () => {
  const cases: [string, { given: (string | Buffer)[]; want: string[] }][] = [
    ['one line', { given: [`${ping(1)}\n`], want: [pong(1)] }],
    ['a trailing \\r dropped', { given: [`${ping(1)}\r\n`], want: [pong(1)] }],
    ['two lines in one chunk', { given: [`${ping(1)}\n${ping(2)}\n`], want: [pong(1), pong(2)] }],
    ['a line split mid-way', { given: [ping(1).slice(0, 10), `${ping(1).slice(10)}\n`], want: [pong(1)] }],
    ['a line split byte by byte', { given: [...Buffer.from(`${ping(3)}\n`)].map((b) => Buffer.from([b])), want: [pong(3)] }],
    [
      'a UTF-8 character split across chunks',
      { given: [Buffer.from(ping('é')).subarray(0, 24), Buffer.concat([Buffer.from(ping('é')).subarray(24), Buffer.from('\n')])], want: [pong('é')] },
    ],
    ['empty and blank lines ignored', { given: [`\n\r\n   \n${ping(1)}\n\n`], want: [pong(1)] }],
    ['a last line without newline', { given: [`${ping(1)}\n${ping(2)}`], want: [pong(1), pong(2)] }],
    ['a line of exactly maxLineBytes', { given: [`${ping(1) + pad(MAX - ping(1).length)}\n`], want: [pong(1)] }],
    ['a line of exactly maxLineBytes ending in \\r\\n', { given: [`${ping(1) + pad(MAX - ping(1).length)}\r\n`], want: [pong(1)] }],
    ['a line one byte over, then a good line', { given: [`${ping(1) + pad(MAX + 1 - ping(1).length)}\n${ping(2)}\n`], want: [OVERSIZE, pong(2)] }],
    ['an over-long line spread over chunks', { given: [ping(1), pad(MAX), pad(MAX), `\n${ping(2)}\n`], want: [OVERSIZE, pong(2)] }],
    // Reported as soon as the line passes the limit (a line that never ends must not wait): before ping 1's answer.
    ['an over-long last line without newline', { given: [`${ping(1)}\n${pad(MAX * 2)}`], want: [OVERSIZE, pong(1)] }],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    const { output, lines } = await serve(given);
    expect(lines).toEqual(want);
    expect(output.endsWith('\n') || output === '').toBe(true);
  });

  it('writes one line per message, with the responses in order', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => i);
    const { lines } = await serve([ids.map((i) => `${ping(i)}\n`).join('')]);
    expect(lines).toEqual(ids.map(pong));
  });
});

describe('lineSplitter', () => {
  const cases: [string, { given: string[]; want: string[] }][] = [
    ['keeps inner \\r', { given: ['a\rb\r\n'], want: ['a\rb'] }],
    ['emits empty lines (the transport ignores them)', { given: ['\n\n'], want: ['', ''] }],
    ['flushes the tail at end', { given: ['abc'], want: ['abc'] }],
    ['reports an over-long line once', { given: ['x'.repeat(11), 'y'.repeat(11), '\nok\n'], want: ['<oversize>', 'ok'] }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const got: string[] = [];
    const splitter = lineSplitter(
      10,
      (l) => got.push(l),
      () => got.push('<oversize>'),
    );
    for (const chunk of given) splitter.push(Buffer.from(chunk));
    splitter.end();
    expect(got).toEqual(want);
  });
});
