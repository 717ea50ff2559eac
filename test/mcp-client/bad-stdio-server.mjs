#!/usr/bin/env node
/**
 * A misbehaving MCP server on stdio, for test/mcp-client/bad-server.test.ts: not an MCP implementation, a
 * script that answers each request it reads in one bad way.
 *
 * usage: node bad-stdio-server.mjs <mode>
 *
 *   garbage         answers every request with lines that are not JSON, JSON that is not JSON-RPC, a response
 *                   to an id nobody used and an id-only object; never a real answer
 *   eof             exits as soon as the first request arrives, without answering
 *   eof-mid-line    writes half a response (no newline) to the first request, then exits
 *   server-request  answers the first request (a 2026-07-28 call) with an elicitation/create request frame
 *                   instead of an input_required result, then waits
 *   result-string   answers with `"result": "not an object"`
 *   error-string    answers with `"error": "boom"` (an error that is not an error object)
 *   silent          never writes anything; exits when stdin closes
 *   stubborn        never writes anything and does not exit when stdin closes (only a signal ends it)
 *
 * Every mode writes `pid <n>` first on stderr, then `got <line>` for each line it reads, so the test can see
 * what the client sent and make sure the process is gone.
 */
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'silent';
const out = (text) => process.stdout.write(`${text}\n`);
process.stderr.write(`pid ${process.pid}\n`);

let requests = 0;
createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => {
    process.stderr.write(`got ${line}\n`);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof msg?.method !== 'string' || !('id' in msg)) return;
    requests++;
    const id = msg.id;
    switch (mode) {
      case 'garbage':
        out('this is not JSON at all');
        out('{"jsonrpc": "2.0", "id": 1, "res');
        out('{"hello": "world"}');
        out('[1, 2, 3]');
        out('42');
        out(JSON.stringify({ jsonrpc: '2.0', id: 'nobody-asked', result: {} }));
        out(JSON.stringify({ jsonrpc: '2.0', id }));
        return;
      case 'eof':
        process.exit(0);
        return;
      case 'eof-mid-line':
        process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"too`, () => process.exit(0));
        return;
      case 'server-request':
        if (requests === 1)
          out(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 's1',
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Delete build/?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
            }),
          );
        return;
      case 'result-string':
        out(JSON.stringify({ jsonrpc: '2.0', id, result: 'not an object' }));
        return;
      case 'error-string':
        out(JSON.stringify({ jsonrpc: '2.0', id, error: 'boom' }));
        return;
      default:
        return; // silent, stubborn
    }
  })
  .on('close', () => {
    if (mode === 'stubborn') setInterval(() => {}, 1_000);
  });
