/**
 * @module bench/mcp-http — part 2: `tools/call` of `add` over Streamable HTTP, every server as its users run it
 * (plain JavaScript; ours from the built packages, bench/lib/built.ts):
 *   ours    `listenMcpHttp` (bench/servers/wiregen-http.ts), and for information the same server behind
 *           `mcpNodeHandler` on node:http and `mcpFetchHandler` on @hono/node-server;
 *   SDK v2  `createMcpHandler` + `toNodeHandler` on node:http (bench/servers/v2-http.mjs): the primary peer;
 *   SDK v1  McpServer + StreamableHTTPServerTransport, stateless, on node:http and in its express setup;
 *   tmcp    1.20 HttpTransport on @remix-run/node-fetch-server (bench/servers/tmcp-http.mjs), 2026-07-28,
 *           its answer an SSE stream of one event;
 *   mcp-lite 0.10 `StreamableHttpTransport` on node:http through @remix-run/node-fetch-server
 *           (bench/servers/mcp-lite-http.mjs), 2025-06-18, the newest revision it speaks;
 *   bare    node:http answering fixed bytes: the ceiling for Node on this machine.
 * Ours and SDK v2 speak 2026-07-28 (the same request and, but for `isError: false`, the same answer bytes);
 * SDK v1 speaks 2025-11-25, the last revision it knows. Requests per second and p50/p99 (autocannon, its own
 * process) and the server's CPU per request (its /proc stat), every ratio paired within its round.
 */
import { join } from 'node:path';
import { builtServer } from '../lib/built.ts';
import { CONNECTIONS, measureHttpSubjects, PIPELINING, type HttpRequest, type HttpRound, type HttpSubject } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH } from '../lib/proc.ts';
import { profileHttp } from '../lib/profiling.ts';
import { bestPerRound, ratioRow, valueRow } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ACCEPT = 'application/json, text/event-stream';

/** A 2026-07-28 `tools/call` (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): envelope in `_meta`, mirrored headers. */
export const MODERN_REQUEST: HttpRequest = {
  headers: {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'add',
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } }),
};
/** SDK v1 speaks up to 2025-11-25: the same call without the 2026-07-28 envelope. */
export const LEGACY_REQUEST: HttpRequest = {
  headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-11-25' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }),
};

/**
 * mcp-lite speaks up to 2025-06-18 and, stateless, answers a call without `initialize`. It answers in SSE when
 * the client accepts it, so it gets `accept: application/json` (as a JSON-only client sends): a plain JSON
 * answer as every other server here gives.
 */
export const LITE_REQUEST: HttpRequest = {
  headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-06-18' },
  body: LEGACY_REQUEST.body,
};

export const addResultOk = (json: unknown) => {
  const r = (json as { result?: { structuredContent?: { result?: unknown }; content?: { text?: string }[] } })?.result;
  return r?.structuredContent?.result === 3 && r.content?.[0]?.text === '3';
};

const LABELS = {
  ours: 'ours: listenMcpHttp (built packages)',
  oursNode: 'ours: mcpNodeHandler on node:http',
  oursFetch: 'ours: mcpFetchHandler on @hono/node-server',
  v2: 'SDK v2 2.4.0: createMcpHandler + toNodeHandler',
  v1: 'SDK v1 1.32.2: stateless, node:http (2025-11-25)',
  v1Express: 'SDK v1 1.32.2: stateless, express (2025-11-25)',
  bare: 'bare node:http, fixed answer (ceiling)',
  tmcp: 'tmcp 1.20: HttpTransport on @remix-run/node-fetch-server (answers SSE)',
  mcpLite: 'mcp-lite 0.10.0: node-fetch-server, node:http (2025-06-18)',
} as const;
type Key = keyof typeof LABELS;

/** Ours over `listenMcpHttp` as a subject (also the startup part's HTTP server). */
export async function oursHttp(extraArgs: readonly string[] = [], mode = 'listen'): Promise<HttpSubject> {
  const file = await builtServer('servers/wiregen-http.ts');
  return { key: 'ours', label: LABELS.ours, args: [...extraArgs, file, '--mode', mode], request: MODERN_REQUEST, check: addResultOk };
}

export function v2Http(): HttpSubject {
  return { key: 'v2', label: LABELS.v2, args: [join(BENCH, 'servers/v2-http.mjs')], request: MODERN_REQUEST, check: addResultOk };
}

/** tmcp over HTTP as its README runs it on Node (bench/servers/tmcp-http.mjs; also the startup part's). */
export function tmcpHttp(): HttpSubject {
  return { key: 'tmcp', label: LABELS.tmcp, args: [join(BENCH, 'servers/tmcp-http.mjs')], request: MODERN_REQUEST, check: addResultOk };
}

async function subjects(options: PartOptions): Promise<HttpSubject[]> {
  const prof = profFlags(options, 'mcp-http');
  const mode = async (key: Key, m: string) => ({ ...(await oursHttp(prof, m)), key, label: LABELS[key] });
  const peer = (key: Key, file: string, args: string[], request: HttpRequest): HttpSubject => ({
    key,
    label: LABELS[key],
    args: [join(BENCH, 'servers', file), ...args],
    request,
    check: addResultOk,
  });
  // The targets' pairs side by side in every round (the order is reversed every other round): ours between
  // bare node:http (the CPU target) and the SDK v2 (req/s and p99), so each pair is measured seconds apart
  // rather than across the round's half a minute.
  return [
    await oursHttp(prof),
    peer('bare', 'bare-http.mjs', [], MODERN_REQUEST),
    v2Http(),
    await mode('oursNode', 'node'),
    await mode('oursFetch', 'fetch'),
    peer('v1', 'v1-http.mjs', ['--mode', 'node'], LEGACY_REQUEST),
    peer('v1Express', 'v1-http.mjs', ['--mode', 'express'], LEGACY_REQUEST),
    tmcpHttp(),
    peer('mcpLite', 'mcp-lite-http.mjs', [], LITE_REQUEST),
  ];
}

export async function run(options: PartOptions): Promise<Row[]> {
  const m = await measureHttpSubjects('mcp-http', await subjects(options), options);
  const part = 'mcp-http';
  const of = (k: Key, f: (r: HttpRound) => number) => m.get(k)!.map(f);
  const rps = (r: HttpRound) => r.reqPerSec;
  const cpu = (r: HttpRound) => r.cpuUsPerReq;
  const p50 = (r: HttpRound) => r.latency.p50;
  const p99 = (r: HttpRound) => r.latency.p99;
  const load = { connections: CONNECTIONS, pipelining: PIPELINING };
  // The fastest peer (not bare) of each round: the req/s target pairs ours with it round by round.
  const peerKeys = (Object.keys(LABELS) as Key[]).filter((k) => !k.startsWith('ours') && k !== 'bare');
  const fastest = bestPerRound(new Map(peerKeys.map((k) => [k, of(k, rps)])));
  const out: Row[] = [
    ratioRow(
      part,
      LABELS.ours,
      'req/s',
      of('ours', rps),
      fastest.values,
      'fastest peer',
      { id: 'http-rps', text: '≥ 5× the fastest peer', ok: (r) => r >= 5 },
      `fastest peer by round: ${fastest.keys.join(', ')}`,
    ),
    ratioRow(part, LABELS.ours, 'CPU µs/req', of('ours', cpu), of('bare', cpu), 'bare', {
      id: 'http-cpu-bare',
      text: '≤ 1.5× bare node:http',
      ok: (r) => r <= 1.5,
    }),
    ratioRow(part, LABELS.ours, 'req/s', of('ours', rps), of('v2', rps), 'SDK v2'),
    ratioRow(part, LABELS.ours, 'req/s', of('ours', rps), of('mcpLite', rps), 'mcp-lite'),
    ratioRow(part, LABELS.ours, 'CPU µs/req', of('ours', cpu), of('mcpLite', cpu), 'mcp-lite'),
    ratioRow(part, LABELS.ours, 'p99 ms', of('ours', p99), of('v2', p99), 'SDK v2', { id: 'http-p99', text: '< SDK v2 p99', ok: (r) => r < 1 }),
    ratioRow(part, LABELS.ours, 'CPU µs/req', of('ours', cpu), of('v2', cpu), 'SDK v2'),
    ratioRow(part, LABELS.ours, 'p50 ms', of('ours', p50), of('v2', p50), 'SDK v2'),
    ratioRow(part, LABELS.ours, 'req/s', of('ours', rps), of('bare', rps), 'bare'),
    ratioRow(part, LABELS.ours, 'req/s', of('ours', rps), of('v1', rps), 'SDK v1'),
    ratioRow(part, LABELS.ours, 'req/s', of('ours', rps), of('tmcp', rps), 'tmcp'),
    ratioRow(part, LABELS.ours, 'CPU µs/req', of('ours', cpu), of('tmcp', cpu), 'tmcp'),
    ratioRow(part, LABELS.ours, 'p99 ms', of('ours', p99), of('tmcp', p99), 'tmcp'),
  ];
  for (const k of ['oursNode', 'oursFetch'] as const)
    out.push(
      ratioRow(part, LABELS[k], 'req/s', of(k, rps), of('v2', rps), 'SDK v2'),
      ratioRow(part, LABELS[k], 'CPU µs/req', of(k, cpu), of('bare', cpu), 'bare'),
    );
  for (const k of ['v2', 'v1', 'v1Express', 'mcpLite', 'bare', 'tmcp'] as const)
    out.push(
      valueRow(part, LABELS[k], 'req/s', of(k, rps), {
        note: `${of(k, (r) => r.total).reduce((a, b) => a + b, 0)} req in all, 0 non-2xx, 0 errors`,
        detail: load,
      }),
      valueRow(part, LABELS[k], 'CPU µs/req', of(k, cpu)),
      valueRow(part, LABELS[k], 'p50 ms', of(k, p50)),
      valueRow(part, LABELS[k], 'p99 ms', of(k, p99)),
    );
  return out;
}

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const dir = join(options.missProfDir, 'mcp-http');
  const summary = await profileHttp(await oursHttp(), dir, options.duration);
  return [{ targets: ids, subject: `${LABELS.ours} under --cpu-prof, ${options.duration} s of the same load`, summary }];
}
