/**
 * @module bench/a2a — part 4: A2A `SendMessage` (blocking: the answer is the completed task) requests per
 * second and p50/p99 latency, autocannon in its own process (same connections, pipelining, duration and
 * warm-up as part 2), against
 *   ours: `wiregen serve research-agent --http 0` (runtime/a2a, the seed 000 research agent), JSON-RPC at /a2a;
 *   the peer: an @a2a-js/sdk 1.3 server running the same agent (bench/a2a/sdk-server.ts).
 * Both answer "summarise the design notes" with the completed task: one `summary` artifact in two chunks.
 * On a checkout without our A2A server (before the A2A issue), ours is a placeholder row with no value.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { probe, runLoad, type LoadResult } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH, ROOT, startServer, TSX, type RunningChild } from '../lib/proc.ts';
import { median, type Row } from '../lib/table.ts';
import { CONNECTIONS, PIPELINING, WARMUP_S } from '../mcp-http/index.ts';

/** The request of the recording `a2a_send` (seed 000), with the version header @a2a-js/sdk routes on. */
export const SEND_MESSAGE = {
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
  body: JSON.stringify({
    id: 1,
    jsonrpc: '2.0',
    method: 'SendMessage',
    params: { message: { messageId: 'bench-1', parts: [{ text: 'summarise the design notes' }], role: 'ROLE_USER' } },
  }),
};

interface Subject {
  readonly key: string;
  readonly label: string;
  readonly args: string[];
  readonly path: string;
}

/** Whether our A2A server is in this checkout (it landed with the A2A issue). */
export const OURS_AVAILABLE = existsSync(join(ROOT, 'runtime/a2a/http.ts')) && existsSync(join(ROOT, 'fixtures/research-agent.ts'));

function subjects(options: PartOptions): Subject[] {
  return [
    ...(OURS_AVAILABLE ? [{ key: 'ours', label: 'ours (wiregen serve research-agent --http)', args: [...profFlags(options, 'a2a'), join(ROOT, 'bin/wiregen.mjs'), 'serve', 'research-agent', '--http', '0'], path: 'a2a' }] : []),
    { key: 'sdk', label: '@a2a-js/sdk 1.3.0 (express, JSON-RPC)', args: [...TSX, join(BENCH, 'a2a/sdk-server.ts')], path: '' },
  ];
}

/** The JSON-RPC endpoint: ours serves it at the path of the card's JSONRPC interface (/a2a), the peer at /. */
const endpoint = (child: RunningChild, s: Subject) => String(child.ready['url']).replace(/\/$/, '') + '/' + s.path;

const completed = (json: unknown) => {
  const task = (json as { result?: { task?: { status?: { state?: string }; artifacts?: unknown[] } } })?.result?.task;
  return task?.status?.state === 'TASK_STATE_COMPLETED' && task.artifacts?.length === 1;
};

export async function run(options: PartOptions): Promise<Row[]> {
  const list = subjects(options);
  const running = new Map<string, RunningChild>();
  const results = new Map<string, LoadResult[]>();
  try {
    for (const s of list) {
      const child = await startServer(s.key, s.args);
      running.set(s.key, child);
      const url = endpoint(child, s);
      const p = await probe(url, SEND_MESSAGE.headers, SEND_MESSAGE.body);
      if (p.status !== 200 || !completed(p.json)) throw new Error(`${s.label}: unexpected answer ${p.status} ${p.text.slice(0, 300)}`);
      options.log(`a2a: ${s.key} ready at ${url}, warming up ${WARMUP_S} s`);
      await runLoad({ url, ...SEND_MESSAGE, connections: CONNECTIONS, pipelining: PIPELINING, duration: WARMUP_S });
      results.set(s.key, []);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const s of round % 2 ? [...list].reverse() : list) {
        const url = endpoint(running.get(s.key)!, s);
        const r = await runLoad({ url, ...SEND_MESSAGE, connections: CONNECTIONS, pipelining: PIPELINING, duration: options.duration });
        options.log(`a2a: round ${round + 1} ${s.key}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non2xx ${r.non2xx}, errors ${r.errors}`);
        results.get(s.key)!.push(r);
      }
    }
  } finally {
    for (const c of running.values()) await c.stop();
  }
  const part = 'a2a';
  const picked = new Map<string, LoadResult & { rounds: LoadResult[] }>();
  for (const s of list) {
    const rounds = results.get(s.key)!;
    const m = median(rounds.map((r) => r.reqPerSec));
    const pick = rounds.reduce((best, r) => (Math.abs(r.reqPerSec - m) < Math.abs(best.reqPerSec - m) ? r : best));
    picked.set(s.key, { ...pick, reqPerSec: m, rounds });
  }
  const sdk = picked.get('sdk')!;
  const note = (r: LoadResult) => `${r.total} req, ${r.non2xx} non-2xx, ${r.errors} errors`;
  const rows: Row[] = [];
  const ours = picked.get('ours');
  if (ours) {
    const label = list[0]!.label;
    rows.push(
      { part, subject: label, metric: 'req/s', value: ours.reqPerSec, ratio: ours.reqPerSec / sdk.reqPerSec, ratioLabel: '@a2a-js/sdk', target: '≥ 2× @a2a-js/sdk', met: ours.reqPerSec >= 2 * sdk.reqPerSec, note: note(ours), detail: { rounds: ours.rounds, connections: CONNECTIONS, pipelining: PIPELINING } },
      { part, subject: label, metric: 'p50 ms', value: ours.latency.p50, ratio: ours.latency.p50 / sdk.latency.p50, ratioLabel: '@a2a-js/sdk' },
      { part, subject: label, metric: 'p99 ms', value: ours.latency.p99, ratio: ours.latency.p99 / sdk.latency.p99, ratioLabel: '@a2a-js/sdk' },
    );
  } else {
    rows.push({ part, subject: 'our A2A server: pending the A2A issue', metric: 'req/s', value: null, target: '≥ 2× @a2a-js/sdk', met: null, note: 'not measured: no runtime/a2a in this checkout (no number is invented)' });
  }
  const label = list.at(-1)!.label;
  rows.push(
    { part, subject: label, metric: 'req/s', value: sdk.reqPerSec, note: note(sdk), detail: { rounds: sdk.rounds, connections: CONNECTIONS, pipelining: PIPELINING } },
    { part, subject: label, metric: 'p50 ms', value: sdk.latency.p50 },
    { part, subject: label, metric: 'p99 ms', value: sdk.latency.p99 },
  );
  return rows;
}
