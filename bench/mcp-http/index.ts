/**
 * @module bench/mcp-http — part 2: `tools/call` of `add` over Streamable HTTP. Requests per second and
 * p50/p99 latency (autocannon, its own process) against
 *   (a) ours: `wiregen serve fixture-server --http 0`, 2026-07-28 stateless requests;
 *   (b) the official SDK: McpServer + StreamableHTTPServerTransport, stateless, on node:http (the peer the
 *       targets are measured against) and in the SDK's own express setup (for information);
 *   (c) bare node:http answering a fixed JSON-RPC result: the ceiling for Node on this machine.
 * Same connections, pipelining, duration and warm-up for every subject; each server in its own process;
 * rounds interleaved across subjects, the median round reported.
 */
import { join } from 'node:path';
import { CONNECTIONS, measureHttpSubjects, PIPELINING, type HttpSubject, type LoadResult, type Measured } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH, ROOT, TSX } from '../lib/proc.ts';
import type { Row } from '../lib/table.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ACCEPT = 'application/json, text/event-stream';

export const OURS_REQUEST = {
  headers: {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'add',
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } }),
};
/** The SDK speaks up to 2025-11-25: the same call without the 2026-07-28 envelope. */
export const SDK_REQUEST = {
  headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-11-25' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }),
};

const addResultOk = (json: unknown) => {
  const r = (json as { result?: { structuredContent?: { result?: unknown }; content?: { text?: string }[] } })?.result;
  return r?.structuredContent?.result === 3 && r.content?.[0]?.text === '3';
};

export function subjects(options: PartOptions): HttpSubject[] {
  return [
    {
      key: 'ours',
      label: 'ours (wiregen, 2026-07-28 stateless)',
      args: [...profFlags(options, 'mcp-http'), join(ROOT, 'bin/wiregen.mjs'), 'serve', 'fixture-server', '--http', '0'],
      request: OURS_REQUEST,
      check: addResultOk,
    },
    {
      key: 'sdk',
      label: 'SDK 1.32.2 McpServer, stateless, node:http',
      args: [...TSX, join(BENCH, 'mcp-http/sdk-server.ts'), '--mode', 'node'],
      request: SDK_REQUEST,
      check: addResultOk,
    },
    {
      key: 'sdkExpress',
      label: 'SDK 1.32.2 McpServer, stateless, express (SDK example)',
      args: [...TSX, join(BENCH, 'mcp-http/sdk-server.ts'), '--mode', 'express'],
      request: SDK_REQUEST,
      check: addResultOk,
    },
    {
      key: 'bare',
      label: 'bare node:http, fixed result (ceiling)',
      args: [...TSX, join(BENCH, 'mcp-http/bare-server.ts')],
      request: OURS_REQUEST,
      check: addResultOk,
    },
  ];
}

export async function run(options: PartOptions): Promise<Row[]> {
  return rows(await measureHttpSubjects('mcp-http', subjects(options), options));
}

function rows(m: Map<string, Measured>): Row[] {
  const ours = m.get('ours')!.pick;
  const sdk = m.get('sdk')!.pick;
  const sdkX = m.get('sdkExpress')!.pick;
  const bare = m.get('bare')!.pick;
  const part = 'mcp-http';
  const label = (k: string) => m.get(k)!.subject.label;
  const note = (r: LoadResult) => `${r.total} req, ${r.non2xx} non-2xx, ${r.errors} errors`;
  const detail = (k: string) => ({ rounds: m.get(k)!.rounds, connections: CONNECTIONS, pipelining: PIPELINING });
  const out: Row[] = [
    {
      part,
      subject: label('ours'),
      metric: 'req/s',
      value: ours.reqPerSec,
      ratio: ours.reqPerSec / sdk.reqPerSec,
      ratioLabel: 'SDK',
      target: '≥ 2× SDK',
      met: ours.reqPerSec >= 2 * sdk.reqPerSec,
      note: note(ours),
      detail: detail('ours'),
    },
    {
      part,
      subject: label('ours'),
      metric: 'req/s',
      value: ours.reqPerSec,
      ratio: ours.reqPerSec / bare.reqPerSec,
      ratioLabel: 'bare',
      target: '≥ 0.5× bare node:http',
      met: ours.reqPerSec >= 0.5 * bare.reqPerSec,
    },
    { part, subject: label('ours'), metric: 'req/s', value: ours.reqPerSec, ratio: ours.reqPerSec / sdkX.reqPerSec, ratioLabel: 'SDK express' },
    { part, subject: label('ours'), metric: 'p50 ms', value: ours.latency.p50, ratio: ours.latency.p50 / sdk.latency.p50, ratioLabel: 'SDK' },
    {
      part,
      subject: label('ours'),
      metric: 'p99 ms',
      value: ours.latency.p99,
      ratio: ours.latency.p99 / sdk.latency.p99,
      ratioLabel: 'SDK',
      target: '< SDK p99',
      met: ours.latency.p99 < sdk.latency.p99,
    },
  ];
  for (const k of ['sdk', 'sdkExpress', 'bare']) {
    const r = m.get(k)!.pick;
    out.push(
      { part, subject: label(k), metric: 'req/s', value: r.reqPerSec, note: note(r), detail: detail(k) },
      { part, subject: label(k), metric: 'p50 ms', value: r.latency.p50 },
      { part, subject: label(k), metric: 'p99 ms', value: r.latency.p99 },
    );
  }
  return out;
}
