#!/usr/bin/env node
/**
 * A hostile MCP server on stdio, for test/hostile/mcp-client.test.ts: not an MCP implementation, a script that
 * answers each request it reads in one hostile way.
 *
 * usage: node hostile-stdio-server.mjs <mode>
 *
 *   deep       the response with a result nested 10,000 levels
 *   big-line   a response line of 8 MiB
 *   endless    one line that never ends (64 KiB chunks while stdout drains)
 *   flood      100,000 notifications, then the response
 *   trickle    the response, one byte every 50 ms
 *   utf8       the response with a byte that is not UTF-8 (0xFF) in a string
 *   ids        responses to unknown ids (a number, a string, null), then the response twice
 *
 * It writes `pid <n>` on stderr first, so the test can make sure the process is gone.
 */
import { createInterface } from 'node:readline';

const mode = process.argv[2];
process.stderr.write(`pid ${process.pid}\n`);
const line = (text) => process.stdout.write(`${text}\n`);
const result = (id, text = 'ok') => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

/** Writes chunks from `next` while stdout drains, until `next` returns undefined. */
function pump(next) {
  const go = () => {
    for (;;) {
      const chunk = next();
      if (chunk === undefined) return;
      if (!process.stdout.write(chunk)) return void process.stdout.once('drain', go);
    }
  };
  go();
}

function answer(id) {
  switch (mode) {
    case 'deep':
      return line(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`);
    case 'big-line':
      return line(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"pad":"${'x'.repeat(8 * 1024 * 1024)}"}}`);
    case 'endless': {
      const chunk = 'z'.repeat(64 * 1024);
      return pump(() => chunk);
    }
    case 'flood': {
      let n = 0;
      return pump(() => {
        if (n > 100_000) return undefined;
        if (n++ === 100_000) return `${result(id, 'after the flood')}\n`;
        return `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `note ${n}` } })}\n`;
      });
    }
    case 'trickle': {
      const text = `${result(id)}\n`;
      let i = 0;
      const timer = setInterval(() => (i < text.length ? process.stdout.write(text[i++]) : clearInterval(timer)), 50);
      return;
    }
    case 'utf8': {
      const [before, after] = result(id, 'BAD').split('BAD');
      return void process.stdout.write(Buffer.concat([Buffer.from(before), Buffer.from([0x61, 0xff, 0x62]), Buffer.from(`${after}\n`)]));
    }
    case 'ids':
      for (const other of [987654, 'someone-else', null]) line(result(other, 'not yours'));
      line(result(id, 'first'));
      return line(result(id, 'second'));
  }
}

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })
  .on('line', (text) => {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof msg?.method === 'string' && 'id' in msg) answer(msg.id);
  })
  .on('close', () => process.exit(0));
