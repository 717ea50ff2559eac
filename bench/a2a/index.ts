/**
 * @module bench/a2a — part 4: A2A `SendMessage` (blocking: the answer is the completed task), requests per
 * second, p50/p99 (autocannon in its own process, the load of bench/lib/load.ts) and the server's CPU per
 * request, every ratio paired within its round, against
 *   ours: the research agent on `listenA2aHttp`, from the built packages (bench/servers/wiregen-a2a.ts);
 *   the peer: @a2a-js/sdk 1.3.0 on express running the same agent, plain JavaScript (bench/servers/a2a-sdk.mjs).
 * Both serve JSON-RPC at /a2a (the path of the card's JSONRPC interface) and answer "summarise the design
 * notes" with the completed task: one `summary` artifact in two chunks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import agent from '../../samples/research-agent.ts';
import { BUILT, builtServer } from '../lib/built.ts';
import { CONNECTIONS, measureHttpSubjects, PIPELINING, type HttpRound, type HttpSubject } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH } from '../lib/proc.ts';
import { profileHttp } from '../lib/profiling.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';

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

const OURS = 'ours: listenA2aHttp (built packages)';
const SDK = '@a2a-js/sdk 1.3.0 (express, JSON-RPC)';

async function ours(extraArgs: readonly string[] = []): Promise<HttpSubject> {
  return { key: 'ours', label: OURS, args: [...extraArgs, await builtServer('servers/wiregen-a2a.ts')], request: SEND_MESSAGE, check: completed };
}

/** The peer, given the sample's card (the generated one, as JSON: the peer is plain JavaScript). */
function sdk(): HttpSubject {
  mkdirSync(BUILT, { recursive: true });
  const card = join(BUILT, 'research-agent-card.json');
  writeFileSync(card, JSON.stringify(agent.card));
  return { key: 'sdk', label: SDK, args: [join(BENCH, 'servers/a2a-sdk.mjs'), card], request: SEND_MESSAGE, check: completed };
}

export async function run(options: PartOptions): Promise<Row[]> {
  const m = await measureHttpSubjects('a2a', [await ours(profFlags(options, 'a2a')), sdk()], options);
  const part = 'a2a';
  const of = (k: string, f: (r: HttpRound) => number) => m.get(k)!.map(f);
  const rps = (r: HttpRound) => r.reqPerSec;
  const cpu = (r: HttpRound) => r.cpuUsPerReq;
  const p50 = (r: HttpRound) => r.latency.p50;
  const p99 = (r: HttpRound) => r.latency.p99;
  const label = '@a2a-js/sdk';
  const load = { connections: CONNECTIONS, pipelining: PIPELINING };
  return [
    ratioRow(part, OURS, 'req/s', of('ours', rps), of('sdk', rps), label, { id: 'a2a-rps', text: '≥ 3× @a2a-js/sdk', ok: (r) => r >= 3 }),
    ratioRow(part, OURS, 'CPU µs/req', of('ours', cpu), of('sdk', cpu), label),
    ratioRow(part, OURS, 'p50 ms', of('ours', p50), of('sdk', p50), label),
    ratioRow(part, OURS, 'p99 ms', of('ours', p99), of('sdk', p99), label),
    valueRow(part, SDK, 'req/s', of('sdk', rps), {
      note: `${of('sdk', (r) => r.total).reduce((a, b) => a + b, 0)} req in all, 0 non-2xx, 0 errors`,
      detail: load,
    }),
    valueRow(part, SDK, 'CPU µs/req', of('sdk', cpu)),
    valueRow(part, SDK, 'p50 ms', of('sdk', p50)),
    valueRow(part, SDK, 'p99 ms', of('sdk', p99)),
  ];
}

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const summary = await profileHttp(await ours(), join(options.missProfDir, 'a2a'), options.duration);
  return [{ targets: ids, subject: `${OURS} under --cpu-prof, ${options.duration} s of the same load`, summary }];
}
