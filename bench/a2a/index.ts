/**
 * @module bench/a2a — part 4: A2A `SendMessage` (blocking: the answer is the completed task) requests per
 * second and p50/p99 latency, autocannon in its own process (same connections, pipelining, duration and
 * warm-up as part 2: bench/lib/load.ts), against
 *   ours: `wiregen serve research-agent --http 0` (runtime/a2a, the recorded research agent);
 *   the peer: the @a2a-js/sdk 1.3 server running the same agent (bench/a2a/sdk-server.ts, test/a2a/sdk-agent.ts).
 * Both print their base URL and serve JSON-RPC at /a2a (the path of the card's JSONRPC interface). Both answer
 * "summarise the design notes" with the completed task: one `summary` artifact in two chunks.
 */
import { join } from 'node:path';
import { CONNECTIONS, measureHttpSubjects, PIPELINING, type HttpSubject, type LoadResult } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH, ROOT, TSX } from '../lib/proc.ts';
import type { Row } from '../lib/table.ts';

/** The request of the recording `a2a_send` (test/fixtures/recordings/), with the version header @a2a-js/sdk routes on. */
export const SEND_MESSAGE = {
  path: '/a2a',
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
  body: JSON.stringify({
    id: 1,
    jsonrpc: '2.0',
    method: 'SendMessage',
    params: { message: { messageId: 'bench-1', parts: [{ text: 'summarise the design notes' }], role: 'ROLE_USER' } },
  }),
};

const completed = (json: unknown) => {
  const task = (json as { result?: { task?: { status?: { state?: string }; artifacts?: unknown[] } } })?.result?.task;
  return task?.status?.state === 'TASK_STATE_COMPLETED' && task.artifacts?.length === 1;
};

function subjects(options: PartOptions): HttpSubject[] {
  return [
    {
      key: 'ours',
      label: 'ours (wiregen serve research-agent --http)',
      args: [...profFlags(options, 'a2a'), join(ROOT, 'bin/wiregen.mjs'), 'serve', 'research-agent', '--http', '0'],
      request: SEND_MESSAGE,
      check: completed,
    },
    {
      key: 'sdk',
      label: '@a2a-js/sdk 1.3.0 (express, JSON-RPC)',
      args: [...TSX, join(BENCH, 'a2a/sdk-server.ts')],
      request: SEND_MESSAGE,
      check: completed,
    },
  ];
}

export async function run(options: PartOptions): Promise<Row[]> {
  const measured = await measureHttpSubjects('a2a', subjects(options), options);
  const part = 'a2a';
  const ours = measured.get('ours')!;
  const sdk = measured.get('sdk')!;
  const note = (r: LoadResult) => `${r.total} req, ${r.non2xx} non-2xx, ${r.errors} errors`;
  const detail = (rounds: LoadResult[]) => ({ rounds, connections: CONNECTIONS, pipelining: PIPELINING });
  const [o, p] = [ours.pick, sdk.pick];
  return [
    {
      part,
      subject: ours.subject.label,
      metric: 'req/s',
      value: o.reqPerSec,
      ratio: o.reqPerSec / p.reqPerSec,
      ratioLabel: '@a2a-js/sdk',
      target: '≥ 2× @a2a-js/sdk',
      met: o.reqPerSec >= 2 * p.reqPerSec,
      note: note(o),
      detail: detail(ours.rounds),
    },
    { part, subject: ours.subject.label, metric: 'p50 ms', value: o.latency.p50, ratio: o.latency.p50 / p.latency.p50, ratioLabel: '@a2a-js/sdk' },
    { part, subject: ours.subject.label, metric: 'p99 ms', value: o.latency.p99, ratio: o.latency.p99 / p.latency.p99, ratioLabel: '@a2a-js/sdk' },
    { part, subject: sdk.subject.label, metric: 'req/s', value: p.reqPerSec, note: note(p), detail: detail(sdk.rounds) },
    { part, subject: sdk.subject.label, metric: 'p50 ms', value: p.latency.p50 },
    { part, subject: sdk.subject.label, metric: 'p99 ms', value: p.latency.p99 },
  ];
}
