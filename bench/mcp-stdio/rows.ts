/**
 * @module bench/mcp-stdio/rows — the rows of the stdio part from its rounds: ours against the SDK v2, the SDK v1
 * and tmcp, and against the bare ceiling (the targets) (bench/servers/bare-stdio.mjs: a server doing
 * nothing but reading the id and writing fixed bytes), and the peers' and the ceilings' own values. Each
 * target row's note, and its target, say how far the ceiling itself is from the SDK v2 in the same rounds:
 * at 1 in flight the pipe's wake-ups dominate, so even the ceiling is only a few times the SDK v2.
 */
import { paired, spread, type Spread } from '../lib/pair.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import { median, type Row } from '../lib/table.ts';

/** Requests outstanding in the pipelined measurement: the server's own throughput rather than the pipe's round trip. */
export const PIPELINED = 16;
/** The targets: ours reaches this share of the bare ceiling's rate with 1 in flight, and with 16. */
export const STDIO_1_OF_BARE = 0.95;
export const STDIO_16_OF_BARE = 0.8;

/** One subject's round, summarised. */
export interface Round {
  /** Round trips per second with 1 in flight, and requests per second with 16. */
  readonly perSec: number;
  readonly piped: number;
  readonly p50: number;
  readonly p99: number;
  /** Server CPU µs per request: with 1 in flight, and with 16. */
  readonly cpu1: number;
  readonly cpu16: number;
  /** The driver's CPU µs per request with 16 in flight: near 1e6 / req/s, the driver is what limits. */
  readonly driver16: number;
  readonly calls: number;
}

/** A measured subject as the rows name it. */
export interface Labelled {
  readonly key: string;
  readonly label: string;
}

const fx = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** `bare stdio is 2.30× SDK v2 at 1 in flight (paired; 2.10–2.50 over 3 rounds)`. */
function ceilingText(s: Spread, load: string): string {
  const range = s.rounds.length > 1 ? `; ${fx(s.min)}–${fx(s.max)} over ${s.rounds.length} rounds` : '';
  return `bare stdio is ${fx(s.median)}× SDK v2 ${load} (paired${range})`;
}

export function stdioRows(list: readonly Labelled[], rounds: ReadonlyMap<string, readonly Round[]>): Row[] {
  const part = 'mcp-stdio';
  const label = (k: string) => list.find((s) => s.key === k)!.label;
  const of = (k: string, f: (r: Round) => number) => rounds.get(k)!.map(f);
  const perSec = (r: Round) => r.perSec;
  const piped = (r: Round) => r.piped;
  const out: Row[] = [];
  /** `bare stdio is 2.30× SDK v2 …`: how far the ceiling is from the SDK v2 in the same rounds. */
  const ceiling = (bare: string, peer: string, f: (r: Round) => number, load: string) => ceilingText(paired(of(bare, f), of(peer, f)), load);
  const versus = (ours: string, peer: string, peerLabel: string, details: boolean) => {
    const driver = `the driver (this process) spent ${median(of(ours, (r) => r.driver16)).toFixed(0)} µs CPU per request (${median(of(peer, (r) => r.driver16)).toFixed(0)} on the peer's)`;
    out.push(
      ratioRow(part, label(ours), 'round trips/s (1 in flight)', of(ours, perSec), of(peer, perSec), peerLabel),
      ratioRow(part, label(ours), `req/s (${PIPELINED} in flight)`, of(ours, piped), of(peer, piped), peerLabel, undefined, driver),
    );
    if (!details) return;
    const metrics: [string, (r: Round) => number][] = [
      [`CPU µs/req (${PIPELINED} in flight)`, (r) => r.cpu16],
      ['CPU µs/req (1 in flight)', (r) => r.cpu1],
      ['p50 ms (1 in flight)', (r) => r.p50],
      ['p99 ms (1 in flight)', (r) => r.p99],
    ];
    for (const [metric, f] of metrics) out.push(ratioRow(part, label(ours), metric, of(ours, f), of(peer, f), peerLabel));
  };
  versus('ours', 'v2', 'SDK v2', true);
  versus('oursHandshake', 'v2Handshake', 'SDK v2', true);
  versus('oursHandshake', 'v1Handshake', 'SDK v1', false);
  versus('ours', 'tmcp', 'tmcp', false);
  versus('oursHandshake', 'tmcpHandshake', 'tmcp', false);
  // Ours against the ceiling (the targets): how much of the ceiling's rate ours reaches, and its CPU per request
  // over the ceiling's. Each target row carries how far the ceiling itself is from the SDK v2 in the same rounds.
  const eras = [
    ['ours', 'bare', 'v2', ''],
    ['oursHandshake', 'bareHandshake', 'v2Handshake', '-handshake'],
  ] as const;
  for (const [ours, bare, v2, suffix] of eras) {
    const c1 = ceiling(bare, v2, perSec, 'at 1 in flight');
    const c16 = ceiling(bare, v2, piped, `at ${PIPELINED} in flight`);
    const t1 = { id: `stdio-1${suffix}`, text: `≥ ${STDIO_1_OF_BARE}× bare stdio`, ok: (r: number) => r >= STDIO_1_OF_BARE };
    const t16 = { id: `stdio-16${suffix}`, text: `≥ ${STDIO_16_OF_BARE}× bare stdio`, ok: (r: number) => r >= STDIO_16_OF_BARE };
    out.push(
      withCeiling(ratioRow(part, label(ours), 'round trips/s (1 in flight)', of(ours, perSec), of(bare, perSec), 'bare', t1, `ceiling: ${c1}`), c1),
      withCeiling(
        ratioRow(part, label(ours), `req/s (${PIPELINED} in flight)`, of(ours, piped), of(bare, piped), 'bare', t16, `ceiling: ${c16}`),
        c16,
      ),
      ratioRow(
        part,
        label(ours),
        'CPU µs/req (1 in flight)',
        of(ours, (r) => r.cpu1),
        of(bare, (r) => r.cpu1),
        'bare',
      ),
      ratioRow(
        part,
        label(ours),
        `CPU µs/req (${PIPELINED} in flight)`,
        of(ours, (r) => r.cpu16),
        of(bare, (r) => r.cpu16),
        'bare',
      ),
    );
  }
  // Each peer's own values: its rates, then what the rows above compare it on (the SDKs' spread of p99 kept).
  const cpu1: Metric = ['CPU µs/req (1 in flight)', (r) => r.cpu1];
  const cpu16: Metric = [`CPU µs/req (${PIPELINED} in flight)`, (r) => r.cpu16];
  const p99: Metric = ['p99 ms (1 in flight)', (r) => r.p99, true];
  const peers: [readonly string[], readonly Metric[]][] = [
    [
      ['v2', 'v2Handshake', 'v1Handshake', 'tmcp', 'tmcpHandshake'],
      [cpu16, p99],
    ],
    [
      ['bare', 'bareHandshake'],
      [cpu1, cpu16],
    ],
  ];
  for (const [keys, metrics] of peers)
    for (const k of keys) {
      const calls = of(k, (r) => r.calls).reduce((a, b) => a + b, 0);
      out.push(
        valueRow(part, label(k), 'round trips/s (1 in flight)', of(k, perSec), { note: `${calls} calls in all` }),
        valueRow(part, label(k), `req/s (${PIPELINED} in flight)`, of(k, piped)),
        ...metrics.map(([metric, f, withSpread]) =>
          valueRow(part, label(k), metric, of(k, f), withSpread ? { detail: { spread: spread(of(k, f)) } } : {}),
        ),
      );
    }
  return out;
}

/** A row's metric, how a round gives it, and whether the row carries its spread over the rounds. */
type Metric = readonly [string, (r: Round) => number, boolean?];

/** The row with its target's ceiling (printed with the target by bench/lib/targets.ts), when it has one. */
function withCeiling(row: Row, ceiling: string | undefined): Row {
  return ceiling === undefined ? row : { ...row, ceiling };
}
