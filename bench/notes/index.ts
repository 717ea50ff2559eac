/**
 * @module bench/notes — the same Zod-schema MCP server on every framework: the notes server of
 * examples/notes-server (`add_note`, `list_notes`; bench/servers/notes/notes.mjs, written once) served over HTTP
 * by thin entry files, every one as its README runs it, plain JavaScript:
 *   ours      `mcpServer()` given the Zod schemas (Standard Schema: Zod validates), `listenMcpHttp`, from
 *             the built packages: what a user writes, and what the targets judge;
 *   compiled  the same server given `z.toJSONSchema` of the schemas (wiregen's compiled validators), beside it;
 *   SDK v2    `createMcpHandler` + `toNodeHandler` (2026-07-28);
 *   tmcp      1.20 with @tmcp/adapter-zod, @tmcp/transport-http through @remix-run/node-fetch-server (2026-07-28);
 *   SDK v1    stateless McpServer + StreamableHTTPServerTransport (2025-11-25, the last revision it speaks).
 * Two workloads, each on servers of its own: `add_note` (a ~300-character note with tags, priority and due
 * date) and `list_notes` (limit 50, after the same 200 notes prefilled at start). Requests per second and the
 * server's CPU per request (/proc), ratios paired within rounds against the fastest peer and each peer.
 */
import { join } from 'node:path';
import { ensureBuilt } from '../lib/built.ts';
import { measureHttpSubjects, WARMUP_S, type HttpRequest, type HttpRound, type HttpSubject } from '../lib/load.ts';
import { profFlags, type PartOptions } from '../lib/part.ts';
import { BENCH, TSX } from '../lib/proc.ts';
import { profileHttp } from '../lib/profiling.ts';
import { ratioRow, valueRow, type RowTarget } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';
import { benchNote } from '../servers/notes/notes.mjs';

export const PART = 'notes';
const SERVERS = join(BENCH, 'servers', 'notes');
/** Notes each `list_notes` server holds before any call: four pages of 50. */
export const PREFILL = 200;

export const LABELS = {
  ours: 'ours: mcpServer() with Zod (Standard Schema), listenMcpHttp',
  compiled: 'ours: mcpServer() with z.toJSONSchema (compiled validators)',
  v2: 'SDK v2 2.4.0: createMcpHandler + toNodeHandler',
  tmcp: 'tmcp 1.20: adapter-zod, transport-http',
  v1: 'SDK v1 1.32.2: stateless, node:http (2025-11-25)',
} as const;
export type Key = keyof typeof LABELS;
const PEERS = ['v2', 'tmcp', 'v1'] as const satisfies readonly Key[];
const PEER_NAMES: Record<(typeof PEERS)[number], string> = { v2: 'SDK v2', tmcp: 'tmcp', v1: 'SDK v1' };

export const WORKLOADS = {
  add_note: { arguments: benchNote(1), prefill: 0 },
  list_notes: { arguments: { limit: 50 }, prefill: PREFILL },
} as const;
export type Workload = keyof typeof WORKLOADS;

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ACCEPT = 'application/json, text/event-stream';

/** A `tools/call` of `name` with `args`: 2026-07-28 (envelope in `_meta`, mirrored headers), or 2025-11-25 for the SDK v1. */
export function callRequest(name: string, args: unknown, legacy = false): HttpRequest {
  if (legacy)
    return {
      headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    };
  return {
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
  };
}

const structured = (json: unknown) => (json as { result?: { structuredContent?: Record<string, unknown>; isError?: boolean } })?.result;
/** The right answer of each workload: a new note's id, or the first page of the prefilled notes with a cursor. */
const CHECKS: Record<Workload, (json: unknown) => boolean> = {
  add_note: (json) => /^n\d+$/.test(String(structured(json)?.structuredContent?.['id'])) && structured(json)?.isError !== true,
  list_notes: (json) => {
    const sc = structured(json)?.structuredContent as { notes?: { id: string }[]; next?: string } | undefined;
    return sc?.notes?.length === 50 && sc.notes[49]!.id === 'n50' && sc.next === '50';
  },
};

/** How ours is run: from the built packages (the bench) or from sources under tsx (the tests). */
export interface NotesRun {
  readonly fromSources?: boolean;
  /** Seconds of warm-up load per server (WARMUP_S); 0 for none. */
  readonly warmupS?: number;
  /** The workloads to run (both by default). */
  readonly workloads?: readonly Workload[];
}

/** The servers of one workload, ours between the peers so each pair is measured seconds apart. */
export function notesSubjects(workload: Workload, extra: readonly string[] = [], run: NotesRun = {}): HttpSubject[] {
  const { arguments: args, prefill } = WORKLOADS[workload];
  const tail = prefill ? ['--prefill', String(prefill)] : [];
  const subject = (key: Key, file: string, mode: string[] = [], ours = false): HttpSubject => ({
    key,
    label: LABELS[key],
    args: [...(ours ? [...(run.fromSources ? TSX : []), ...extra] : []), join(SERVERS, file), ...mode, ...tail],
    request: callRequest(workload, args, key === 'v1'),
    check: CHECKS[workload],
  });
  return [
    subject('ours', 'wiregen.mjs', ['--mode', 'standard'], true),
    subject('tmcp', 'tmcp.mjs'),
    subject('v2', 'v2.mjs'),
    subject('compiled', 'wiregen.mjs', ['--mode', 'compiled'], true),
    subject('v1', 'v1.mjs'),
  ];
}

const TARGET_IDS: Record<Workload, string> = { add_note: 'notes-rps-add', list_notes: 'notes-rps-list' };

/** The rows of one workload: ours and compiled against the fastest peer and each peer; every subject's values. */
export function workloadRows(workload: Workload, m: ReadonlyMap<string, readonly HttpRound[]>): Row[] {
  const of = (k: Key, f: (r: HttpRound) => number) => m.get(k)!.map(f);
  const rps = (r: HttpRound) => r.reqPerSec;
  const cpu = (r: HttpRound) => r.cpuUsPerReq;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const fastest = PEERS.reduce((a, b) => (median(of(b, rps)) > median(of(a, rps)) ? b : a));
  const w = (row: Row): Row => ({ ...row, workload });
  const target: RowTarget = { id: TARGET_IDS[workload], text: '≥ 5× the fastest peer', ok: (r) => r >= 5 };
  const out: Row[] = [];
  for (const k of ['ours', 'compiled'] as const) {
    out.push(
      w(ratioRow(PART, LABELS[k], 'req/s', of(k, rps), of(fastest, rps), `fastest peer (${PEER_NAMES[fastest]})`, k === 'ours' ? target : undefined)),
    );
    for (const p of PEERS)
      out.push(
        w(ratioRow(PART, LABELS[k], 'req/s', of(k, rps), of(p, rps), PEER_NAMES[p])),
        // ours ÷ peer as in mcp-http: below 1 is less CPU per request than the peer.
        w(ratioRow(PART, LABELS[k], 'CPU µs/req', of(k, cpu), of(p, cpu), PEER_NAMES[p])),
      );
  }
  out.push(w(ratioRow(PART, LABELS.compiled, 'req/s', of('compiled', rps), of('ours', rps), 'Standard Schema path')));
  for (const k of Object.keys(LABELS) as Key[])
    out.push(
      w(valueRow(PART, LABELS[k], 'req/s', of(k, rps), { note: `${of(k, (r) => r.total).reduce((a, b) => a + b, 0)} req in all` })),
      w(valueRow(PART, LABELS[k], 'CPU µs/req', of(k, cpu))),
      w(
        valueRow(
          PART,
          LABELS[k],
          'p99 ms',
          of(k, (r) => r.latency.p99),
        ),
      ),
    );
  return out;
}

/** Both workloads, each on fresh servers. */
export async function measure(options: PartOptions, run: NotesRun = {}): Promise<Row[]> {
  if (!run.fromSources) await ensureBuilt();
  const rows: Row[] = [];
  for (const workload of run.workloads ?? (Object.keys(WORKLOADS) as Workload[])) {
    const subjects = notesSubjects(workload, profFlags(options, PART), run);
    const m = await measureHttpSubjects(`${PART} ${workload}`, subjects, options, run.warmupS ?? WARMUP_S);
    rows.push(...workloadRows(workload, m));
  }
  return rows;
}

export const run = (options: PartOptions): Promise<Row[]> => measure(options);

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  await ensureBuilt();
  const reports: ProfileReport[] = [];
  for (const workload of Object.keys(WORKLOADS) as Workload[]) {
    if (!ids.includes(TARGET_IDS[workload])) continue;
    const ours = notesSubjects(workload)[0]!;
    const summary = await profileHttp(ours, join(options.missProfDir, PART, workload), options.duration);
    reports.push({
      targets: [TARGET_IDS[workload]],
      subject: `${LABELS.ours}, ${workload}, under --cpu-prof, ${options.duration} s of the same load`,
      summary,
    });
  }
  return reports;
}
