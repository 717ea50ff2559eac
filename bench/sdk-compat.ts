/**
 * @module bench/sdk-compat — the same server code on both runtimes: the SDK v2 peer of the mcp-http part
 * (bench/servers/v2-http.mjs: `createMcpHandler` + `toNodeHandler` on node:http, the `add` tool with Zod
 * schemas, bench/servers/v2-tool.mjs) on `@modelcontextprotocol/server` 2.4.0, and unchanged on
 * `@wiregen/runtime/sdk` (its imports redirected by bench/servers/on-wiregen.mjs to the built packages).
 * `tools/call` of `add` in 2026-07-28 over Streamable HTTP: requests per second, p50/p99 and server CPU per
 * request (autocannon in its own process), paired within interleaved rounds. For reference, the same tool as a
 * wiregen server written with its own API (the mcp-http part's `listenMcpHttp` server).
 *
 *   npx tsx bench/sdk-compat.ts [--duration <s>] [--rounds <n>]     (also `npm run bench -- --only sdk-compat`)
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './lib/built.ts';
import { CONNECTIONS, measureHttpSubjects, PIPELINING, type HttpRound } from './lib/load.ts';
import type { PartOptions } from './lib/part.ts';
import { BENCH } from './lib/proc.ts';
import { ratioRow, valueRow } from './lib/rows.ts';
import { renderTable, type Row } from './lib/table.ts';
import { addResultOk, MODERN_REQUEST, oursHttp, v2Http } from './mcp-http/index.ts';

const LABELS = {
  v2: 'SDK v2 server code on @modelcontextprotocol/server 2.4.0',
  compat: 'the same code on @wiregen/runtime/sdk',
  ours: 'wiregen API: listenMcpHttp (reference)',
} as const;

export async function run(options: PartOptions): Promise<Row[]> {
  await ensureBuilt();
  const part = 'sdk-compat';
  const compat = {
    key: 'compat',
    label: LABELS.compat,
    args: ['--import', join(BENCH, 'servers', 'on-wiregen.mjs'), join(BENCH, 'servers', 'v2-http.mjs')],
    request: MODERN_REQUEST,
    check: addResultOk,
  };
  const m = await measureHttpSubjects(part, [{ ...v2Http(), label: LABELS.v2 }, compat, { ...(await oursHttp()), label: LABELS.ours }], options);
  const of = (k: keyof typeof LABELS, f: (r: HttpRound) => number) => m.get(k)!.map(f);
  const rps = (r: HttpRound) => r.reqPerSec;
  const cpu = (r: HttpRound) => r.cpuUsPerReq;
  const p50 = (r: HttpRound) => r.latency.p50;
  const p99 = (r: HttpRound) => r.latency.p99;
  const out: Row[] = [
    ratioRow(part, LABELS.compat, 'req/s', of('compat', rps), of('v2', rps), 'SDK v2'),
    ratioRow(part, LABELS.compat, 'CPU µs/req', of('compat', cpu), of('v2', cpu), 'SDK v2'),
    ratioRow(part, LABELS.compat, 'p99 ms', of('compat', p99), of('v2', p99), 'SDK v2'),
    ratioRow(part, LABELS.compat, 'req/s', of('compat', rps), of('ours', rps), 'wiregen API'),
  ];
  for (const k of ['v2', 'compat', 'ours'] as const)
    out.push(
      valueRow(part, LABELS[k], 'req/s', of(k, rps), { detail: { connections: CONNECTIONS, pipelining: PIPELINING } }),
      valueRow(part, LABELS[k], 'CPU µs/req', of(k, cpu)),
      valueRow(part, LABELS[k], 'p50 ms', of(k, p50)),
      valueRow(part, LABELS[k], 'p99 ms', of(k, p99)),
    );
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } } });
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const rows = await run({ duration: Number(values.duration), rounds: Number(values.rounds), missProfDir: join(BENCH, 'results'), log });
  process.stdout.write(`${renderTable(rows)}\n`);
}
