/**
 * Messages a client writes at once, without waiting for answers (a script, a test harness, a shell pipe), are
 * handled as if it had waited: initialize is answered first, notifications/initialized then takes effect, and
 * the request after it is served in the negotiated era. Over stdio through the stdio transport (one chunk
 * holding every line), in process and in a spawned `wiregen serve` whose revision packages are not loaded yet.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { stdioTransport } from '../../runtime/transports/stdio.ts';
import { meta, SERVER_INFO } from '../helpers/mcp-pair.ts';
import { startServer } from '../helpers/stdio-server.ts';

const initialize = (id: number, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'pipe', version: '1.0.0' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const listTools = (id: number, params: object = {}) => ({ jsonrpc: '2.0', id, method: 'tools/list', params });

/** A server with one tool; `chunk` written to its stdin at once; the parsed output lines once stdin ended. */
async function serveChunk(messages: readonly object[]): Promise<Record<string, unknown>[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const server = new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    handlers: { 'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }) },
    log: () => {},
  });
  const conn = server.connect(stdioTransport(input, output));
  input.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  await conn.finished;
  await new Promise((resolve) => setImmediate(resolve));
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('pipelined messages on one connection', () => {
  it('initialize, initialized and a request written at once: answered in order, the request served', async () => {
    const out = await serveChunk([initialize(1), initialized, listTools(2)]);
    expect(out.map((f) => f['id'])).toEqual([1, 2]);
    expect(out[0]).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    expect(out[1]).toMatchObject({ result: { tools: [{ name: 'echo' }] } });
  });

  it('a request before notifications/initialized is still refused (the lifecycle is kept, not relaxed)', async () => {
    const out = await serveChunk([initialize(1), listTools(2), initialized, listTools(3)]);
    expect(out.map((f) => f['id'])).toEqual([1, 2, 3]);
    expect(out[1]).toHaveProperty('error.code', -32602);
    expect(out[2]).toHaveProperty('result.tools');
  });

  it('a refused initialize lets the next one decide', async () => {
    const bad = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 7 } };
    const out = await serveChunk([bad, initialize(2), initialized, listTools(3)]);
    expect(out.map((f) => f['id'])).toEqual([1, 2, 3]);
    expect(out[0]).toHaveProperty('error.code', -32602);
    expect(out[2]).toHaveProperty('result.tools');
  });

  it('a 2026-07-28 request first locks the era; a later initialize is refused as in that era', async () => {
    const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } };
    const out = await serveChunk([discover, initialize(2), listTools(3, { _meta: meta() })]);
    const byId = new Map(out.map((f) => [f['id'], f]));
    expect(byId.get(1)).toHaveProperty('result');
    expect(byId.get(2)).toHaveProperty('error');
    expect(byId.get(3)).toHaveProperty('result.tools');
  });

  it('over a spawned stdio server that loads its revision on the first request', async () => {
    const server = startServer();
    try {
      server.send([initialize(1), initialized, { jsonrpc: '2.0', id: 2, method: 'ping' }, listTools(3)].map((m) => JSON.stringify(m)).join('\n'));
      const lines: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        const next = await server.nextLine();
        if (next.kind !== 'line') throw new Error(`no answer ${i + 1}: ${next.kind}\n${server.stderr()}`);
        lines.push(JSON.parse(next.line));
      }
      expect(lines.map((f) => (f as { id: number }).id)).toEqual([1, 2, 3]);
      expect(lines[2]).toHaveProperty('result.tools');
    } finally {
      await server.close();
    }
  });
});
