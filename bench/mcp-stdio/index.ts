/**
 * @module bench/mcp-stdio — part 3: `tools/call` of `add` over stdio, newline-delimited JSON. Round trips per
 * second with one request in flight (send, wait for the answer, send the next), and the latency of each,
 * against ours (`wiregen serve fixture-server --stdio`) in both eras and the SDK's stdio server. The driver
 * is this process (stdio has no other way in); each server is a child process of its own, all started and
 * warmed up first, then measured in 250 ms slices handed out round-robin. Also the throughput with 16 requests
 * in flight (the server's own capacity, the pipe's latency hidden), in slices of half that length.
 */
import { join } from 'node:path';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH, ROOT, TSX } from '../lib/proc.ts';
import { StdioClient } from '../lib/stdio-client.ts';
import { median, percentile, type Row } from '../lib/table.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

interface Subject {
  readonly key: string;
  readonly label: string;
  readonly args: string[];
  readonly era: 'handshake' | 'stateless';
}

function subjects(options: PartOptions): Subject[] {
  const ours = [...profFlags(options, 'mcp-stdio'), join(ROOT, 'bin/wiregen.mjs'), 'serve', 'fixture-server', '--stdio'];
  return [
    { key: 'oursHandshake', label: 'ours (wiregen), handshake era 2025-11-25', args: ours, era: 'handshake' },
    { key: 'oursStateless', label: 'ours (wiregen), 2026-07-28', args: ours, era: 'stateless' },
    {
      key: 'sdk',
      label: 'SDK 1.32.2 McpServer, StdioServerTransport (2025-11-25)',
      args: [...TSX, join(BENCH, 'mcp-stdio/sdk-server.ts')],
      era: 'handshake',
    },
  ];
}

function callParams(era: Subject['era']): Record<string, unknown> {
  return era === 'stateless' ? { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } : { name: 'add', arguments: { a: 1, b: 2 } };
}

/** Round trips for `seconds`, `inFlight` requests outstanding at any time: each latency, and the time taken. */
async function measure(client: StdioClient, era: Subject['era'], seconds: number, inFlight = 1): Promise<{ lat: number[]; ms: number }> {
  const params = callParams(era);
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let last = t0;
  const lane = async () => {
    let now = performance.now();
    while (now < end) {
      const start = now;
      const res = await client.request('tools/call', params);
      if ((res['result'] as { structuredContent?: { result?: number } } | undefined)?.structuredContent?.result !== 3)
        throw new Error(`unexpected answer ${JSON.stringify(res)}`);
      now = performance.now();
      lat.push(now - start);
    }
    last = Math.max(last, now);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { lat, ms: last - t0 };
}

const SLICE_S = 0.25;
/** Requests outstanding in the pipelined measurement: the server's own throughput rather than the pipe's round trip. */
const PIPELINED = 16;

export async function run(options: PartOptions): Promise<Row[]> {
  const list = subjects(options);
  const seconds = Math.max(1, options.duration / 2) * options.rounds;
  const clients = new Map<string, StdioClient>();
  const acc = new Map<string, { lat: number[]; ms: number; slices: number[] }>();
  const piped = new Map<string, { n: number; ms: number }>();
  try {
    for (const s of list) {
      const c = new StdioClient(s.args);
      clients.set(s.key, c);
      if (s.era === 'handshake') await c.handshake().catch((err: Error) => Promise.reject(new Error(`${s.label}: ${err.message}`)));
      options.log(`mcp-stdio: ${s.key} started, warming up 1.5 s`);
      await measure(c, s.era, 1.5);
      await measure(c, s.era, 0.5, PIPELINED);
      acc.set(s.key, { lat: [], ms: 0, slices: [] });
      piped.set(s.key, { n: 0, ms: 0 });
    }
    // Slices of SLICE_S handed out round-robin, so a machine whose load drifts weighs on every subject alike.
    const count = Math.round(seconds / SLICE_S);
    for (let i = 0; i < count; i++) {
      for (const s of i % 2 ? [...list].reverse() : list) {
        const r = await measure(clients.get(s.key)!, s.era, SLICE_S);
        const a = acc.get(s.key)!;
        for (const x of r.lat) a.lat.push(x);
        a.ms += r.ms;
        a.slices.push(r.lat.length / (r.ms / 1000));
        const p = await measure(clients.get(s.key)!, s.era, SLICE_S / 2, PIPELINED);
        piped.get(s.key)!.n += p.lat.length;
        piped.get(s.key)!.ms += p.ms;
      }
    }
  } finally {
    for (const c of clients.values()) await c.stop();
  }
  const pick = (key: string) => {
    const a = acc.get(key)!;
    const sorted = [...a.lat].sort((x, y) => x - y);
    const p = piped.get(key)!;
    return {
      perSec: a.lat.length / (a.ms / 1000),
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      n: a.lat.length,
      sliceMedian: median(a.slices),
      piped: p.n / (p.ms / 1000),
      pipedN: p.n,
    };
  };
  const sdk = pick('sdk');
  const part = 'mcp-stdio';
  const out: Row[] = [];
  for (const s of list) {
    const r = pick(s.key);
    options.log(`mcp-stdio: ${s.key}: ${r.perSec.toFixed(0)} round trips/s, p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms`);
    const isOurs = s.key !== 'sdk';
    out.push(
      {
        part,
        subject: s.label,
        metric: 'round trips/s',
        value: r.perSec,
        ...(isOurs ? { ratio: r.perSec / sdk.perSec, ratioLabel: 'SDK' } : {}),
        note: `1 in flight, ${r.n} calls`,
        detail: { seconds, sliceS: SLICE_S, sliceMedian: r.sliceMedian },
      },
      { part, subject: s.label, metric: 'p50 ms', value: r.p50, ...(isOurs ? { ratio: r.p50 / sdk.p50, ratioLabel: 'SDK' } : {}) },
      { part, subject: s.label, metric: 'p99 ms', value: r.p99, ...(isOurs ? { ratio: r.p99 / sdk.p99, ratioLabel: 'SDK' } : {}) },
      {
        part,
        subject: s.label,
        metric: `req/s (${PIPELINED} in flight)`,
        value: r.piped,
        ...(isOurs ? { ratio: r.piped / sdk.piped, ratioLabel: 'SDK' } : {}),
        note: `${r.pipedN} calls`,
      },
    );
  }
  return out;
}
