/**
 * @module bench/workloads — realistic MCP workloads over Streamable HTTP, each against every peer as its users run
 * it (bench/servers/workloads/, one file per peer; ours from the built packages):
 *   tool     tools/call of the GitHub MCP server's `create_pull_request` (its published input schema, ~520 B of
 *            arguments) answering ~1.3 KB of structuredContent checked against an output schema;
 *   list     tools/list of 100 GitHub tools (~110–120 KB);
 *   blob     resources/read of a 64 KB binary resource (base64 `blob`, ~87 KB);
 *   invalid  tools/call of `create_pull_request` with arguments its schema rejects (isError, or an error).
 * Ours, SDK v2 and tmcp speak 2026-07-28; mcp-lite 2025-06-18 and SDK v1 2025-11-25 (their newest); bare node:http answers precomputed bytes
 * (the ceiling). Each workload is measured as the mcp-http part measures `add` (bench/lib/load.ts): req/s and the
 * server's CPU per request from /proc, rounds interleaved, every ratio paired within its round.
 */
import { join } from 'node:path';
import { builtServer } from '../lib/built.ts';
import { measureHttpSubjects, type HttpRequest, type HttpRound, type HttpSubject } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH } from '../lib/proc.ts';
import { profileHttp } from '../lib/profiling.ts';
import { bestPerRound, ratioRow, valueRow } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';
// @ts-expect-error plain JavaScript shared with the servers
import { answerOk, legacyRequest, modernRequest, WORKLOADS } from './requests.mjs';

export interface Workload {
  readonly name: 'tool' | 'list' | 'blob' | 'invalid';
  readonly label: string;
}
export const ALL: readonly Workload[] = WORKLOADS as Workload[];

export const PEERS = {
  ours: { label: 'ours: code-first, listenMcpHttp (built packages)', short: 'ours' },
  v2: { label: 'SDK v2 2.4.0: createMcpHandler + toNodeHandler', short: 'SDK v2' },
  tmcp: { label: 'tmcp 1.20.0: HttpTransport, node-fetch-server, Zod adapter', short: 'tmcp' },
  mcpLite: { label: 'mcp-lite 0.10.0: node-fetch-server (2025-06-18)', short: 'mcp-lite' },
  v1: { label: 'SDK v1 1.32.2: stateless, node:http (2025-11-25)', short: 'SDK v1' },
  bare: { label: 'bare node:http, precomputed answer (ceiling)', short: 'bare' },
} as const;
export type PeerKey = keyof typeof PEERS;

/** Every peer's subject for workload `w`. */
export async function subjects(w: Workload, prof: readonly string[] = []): Promise<HttpSubject[]> {
  const check = (json: unknown) => answerOk(w, json) as boolean;
  const modern = modernRequest(w) as HttpRequest;
  const file = (f: string) => join(BENCH, 'servers', 'workloads', f);
  const subject = (key: PeerKey, args: string[], request: HttpRequest): HttpSubject => ({ key, label: PEERS[key].label, args, request, check });
  return [
    subject('ours', [...prof, await builtServer('servers/workloads/wiregen.ts')], modern),
    subject('bare', [file('bare.mjs')], modern),
    subject('v2', [file('v2.mjs')], modern),
    // tmcp answers every POST as one SSE event (the probe reads its data line); the load counts the bytes alike.
    subject('tmcp', [file('tmcp.mjs')], modern),
    subject('mcpLite', [file('mcp-lite.mjs')], legacyRequest(w, '2025-06-18', true) as HttpRequest),
    subject('v1', [file('v1.mjs')], legacyRequest(w, '2025-11-25') as HttpRequest),
  ];
}

/** The rows of workload `w` from its peers' rounds (by key). */
export function rowsOf(w: Workload, m: Map<string, HttpRound[]>): Row[] {
  const part = 'workloads';
  const of = (k: PeerKey, f: (r: HttpRound) => number) => m.get(k)!.map(f);
  const rps = (r: HttpRound) => r.reqPerSec;
  const cpu = (r: HttpRound) => r.cpuUsPerReq;
  const peers = (Object.keys(PEERS) as PeerKey[]).filter((k) => k !== 'ours' && k !== 'bare');
  const fastest = bestPerRound(new Map(peers.map((k) => [k, of(k, rps)])));
  const tag = (r: Row): Row => ({ ...r, workload: w.label });
  const out: Row[] = [
    ratioRow(
      part,
      PEERS.ours.label,
      'req/s',
      of('ours', rps),
      fastest.values,
      'fastest peer',
      { id: `workload-rps-${w.name}`, text: '≥ 5× the fastest peer', ok: (r) => r >= 5 },
      `fastest peer by round: ${fastest.keys.join(', ')}`,
    ),
  ];
  if (w.name === 'tool')
    out.push(
      ratioRow(part, PEERS.ours.label, 'CPU µs/req', of('ours', cpu), of('bare', cpu), 'bare', {
        id: 'workload-cpu-bare-tool',
        text: '≤ 2× bare node:http',
        ok: (r) => r <= 2,
      }),
    );
  // Every peer against every other, on both metrics (CPU: lower is better, the ratio reads the same way).
  for (const a of Object.keys(PEERS) as PeerKey[])
    for (const b of Object.keys(PEERS) as PeerKey[]) {
      if (a === b) continue;
      out.push(ratioRow(part, PEERS[a].label, 'req/s', of(a, rps), of(b, rps), PEERS[b].short));
      // Ours ÷ bare CPU on the tool is the target's row above.
      if (!(a === 'ours' && b === 'bare' && w.name === 'tool'))
        out.push(ratioRow(part, PEERS[a].label, 'CPU µs/req', of(a, cpu), of(b, cpu), PEERS[b].short));
    }
  for (const k of Object.keys(PEERS) as PeerKey[])
    out.push(valueRow(part, PEERS[k].label, 'req/s', of(k, rps)), valueRow(part, PEERS[k].label, 'CPU µs/req', of(k, cpu)));
  return out.map(tag);
}

/** One workload at a time: its peers' servers started, measured in interleaved rounds, stopped. */
export async function run(options: PartOptions, only: readonly Workload[] = ALL): Promise<Row[]> {
  const rows: Row[] = [];
  for (const w of only) {
    const s = await subjects(w, profFlags(options, `workloads-${w.name}`));
    rows.push(...rowsOf(w, await measureHttpSubjects(`workloads ${w.name}`, s, options)));
  }
  return rows;
}

/** Ours under --cpu-prof doing each missed workload: what bounds it. */
export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const out: ProfileReport[] = [];
  for (const w of ALL) {
    const mine = ids.filter((id) => id === `workload-rps-${w.name}` || (w.name === 'tool' && id === 'workload-cpu-bare-tool'));
    if (!mine.length) continue;
    const ours = (await subjects(w))[0]!;
    const summary = await profileHttp(ours, join(options.missProfDir, `workloads-${w.name}`), options.duration);
    out.push({ targets: mine, subject: `${PEERS.ours.label}, ${w.label}, under --cpu-prof, ${options.duration} s of the same load`, summary });
  }
  return out;
}
