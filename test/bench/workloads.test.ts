/**
 * @module test/bench/workloads — the workloads part's servers answer alike (a smoke test, seconds): each peer's
 * server of bench/servers/workloads/ is started as the bench starts it (ours from sources under tsx here; the
 * bench runs it from the built packages) and must answer every workload the way the bench checks it: the same
 * structuredContent for create_pull_request, the same 100 tool names, the same blob, and a rejection of the
 * invalid arguments; bare node:http must send those answers too. The part's rows are checked on made-up rounds
 * (a measured run warms each server up for 5 s, too long for a unit test).
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { probe, startChecked, type HttpRequest } from '../../bench/lib/load.ts';
import { BENCH, TSX } from '../../bench/lib/proc.ts';
import type { HttpRound } from '../../bench/lib/load.ts';
import { ALL, PEERS, rowsOf, type PeerKey } from '../../bench/workloads/index.ts';
// @ts-expect-error plain JavaScript shared with the servers
import { answerOk, legacyRequest, modernRequest } from '../../bench/workloads/requests.mjs';

const dir = join(BENCH, 'servers', 'workloads');
const SERVERS: Record<PeerKey, { args: string[]; request: (w: unknown) => HttpRequest }> = {
  ours: { args: [...TSX, join(dir, 'wiregen.ts')], request: (w) => modernRequest(w) },
  bare: { args: [join(dir, 'bare.mjs')], request: (w) => modernRequest(w) },
  v2: { args: [join(dir, 'v2.mjs')], request: (w) => modernRequest(w) },
  tmcp: { args: [join(dir, 'tmcp.mjs')], request: (w) => modernRequest(w) },
  mcpLite: { args: [join(dir, 'mcp-lite.mjs')], request: (w) => legacyRequest(w, '2025-06-18', true) },
  v1: { args: [join(dir, 'v1.mjs')], request: (w) => legacyRequest(w, '2025-11-25') },
};

describe.concurrent('every peer answers every workload alike', () => {
  for (const [key, s] of Object.entries(SERVERS))
    test(
      key,
      async () => {
        const [first, ...rest] = ALL;
        const { child, url } = await startChecked({ key, label: key, args: s.args, request: s.request(first), check: (j) => answerOk(first, j) });
        try {
          for (const w of rest) {
            const r = s.request(w);
            const p = await probe(url, r.headers, r.body);
            expect(p.status, `${key} ${w.name}`).toBe(200);
            expect(answerOk(w, p.json), `${key} ${w.name}: ${p.text.slice(0, 200)}`).toBe(true);
          }
        } finally {
          await child.stop();
        }
      },
      55_000,
    );
});

describe('the part yields rows', () => {
  test('every row names its workload; the targets judge ours against the fastest peer and bare', () => {
    const round = (rps: number, cpu: number) => ({ reqPerSec: rps, cpuUsPerReq: cpu }) as HttpRound;
    const m = new Map(
      (Object.keys(PEERS) as PeerKey[]).map((k, i) => [k, [round(1000 * (i + 1), 100 / (i + 1)), round(1100 * (i + 1), 90 / (i + 1))]]),
    );
    const tool = ALL.find((w) => w.name === 'tool')!;
    const rows = rowsOf(tool, m);
    expect(rows.every((r) => r.workload === tool.label && r.part === 'workloads')).toBe(true);
    const rps = rows.find((r) => r.targetId === 'workload-rps-tool')!;
    // In PEERS order ours gets 1000 req/s, v2 2000, tmcp 3000, mcp-lite 4000, SDK v1 5000, bare 6000 (and 10 %
    // more in round 2): the fastest peer not bare is SDK v1, and ours uses 6× bare's CPU.
    expect(rps.ratio).toBeCloseTo(1 / 5);
    expect(rps.met).toBe(false);
    const cpu = rows.find((r) => r.targetId === 'workload-cpu-bare-tool')!;
    expect(cpu.ratio).toBeCloseTo(6);
    expect(cpu.met).toBe(false);
  });
});
