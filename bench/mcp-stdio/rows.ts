/**
 * @module bench/mcp-stdio/rows — the rows of the stdio part from its rounds: ours against the SDK v2 (the
 * targets) and the SDK v1, each against the bare ceiling (bench/servers/bare-stdio.mjs: a server doing
 * nothing but reading the id and writing fixed bytes), and the peers' and the ceilings' own values. Each
 * target row's note, and its target, say how far the ceiling itself is from the SDK v2 in the same rounds:
 * at 1 in flight the pipe's wake-ups dominate, so even the ceiling is only a few times the SDK v2.
 */
import { paired, spread, type Spread } from '../lib/pair.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import { median, type Row } from '../lib/table.ts';

/** Requests outstanding in the pipelined measurement: the server's own throughput rather than the pipe's round trip. */
export const PIPELINED = 16;

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
  /** A target row: its note, and its target text, carry the ceiling against the same peer in the same rounds. */
  const target = (id: string, bare: string, peer: string, f: (r: Round) => number, load: string) => {
    const ceiling = ceilingText(paired(of(bare, f), of(peer, f)), load);
    return { id, text: '≥ 3× SDK v2', ok: (r: number) => r >= 3, ceiling };
  };
  const versus = (ours: string, peer: string, peerLabel: string, targets?: { suffix: string; bare: string }) => {
    const t1 = targets && target(`stdio-1${targets.suffix}`, targets.bare, peer, perSec, 'at 1 in flight');
    const t16 = targets && target(`stdio-16${targets.suffix}`, targets.bare, peer, piped, `at ${PIPELINED} in flight`);
    const driver = `the driver (this process) spent ${median(of(ours, (r) => r.driver16)).toFixed(0)} µs CPU per request (${median(of(peer, (r) => r.driver16)).toFixed(0)} on the peer's)`;
    out.push(
      withCeiling(
        ratioRow(part, label(ours), 'round trips/s (1 in flight)', of(ours, perSec), of(peer, perSec), peerLabel, t1, t1 && `ceiling: ${t1.ceiling}`),
        t1?.ceiling,
      ),
      withCeiling(
        ratioRow(
          part,
          label(ours),
          `req/s (${PIPELINED} in flight)`,
          of(ours, piped),
          of(peer, piped),
          peerLabel,
          t16,
          t16 ? `ceiling: ${t16.ceiling}; ${driver}` : driver,
        ),
        t16?.ceiling,
      ),
    );
    if (!targets) return;
    const metrics: [string, (r: Round) => number][] = [
      [`CPU µs/req (${PIPELINED} in flight)`, (r) => r.cpu16],
      ['CPU µs/req (1 in flight)', (r) => r.cpu1],
      ['p50 ms (1 in flight)', (r) => r.p50],
      ['p99 ms (1 in flight)', (r) => r.p99],
    ];
    for (const [metric, f] of metrics) out.push(ratioRow(part, label(ours), metric, of(ours, f), of(peer, f), peerLabel));
  };
  versus('ours', 'v2', 'SDK v2', { suffix: '', bare: 'bare' });
  versus('oursHandshake', 'v2Handshake', 'SDK v2', { suffix: '-handshake', bare: 'bareHandshake' });
  versus('oursHandshake', 'v1Handshake', 'SDK v1');
  // Ours against the ceiling: how much of the ceiling's rate ours reaches, and its CPU per request over the ceiling's.
  const vsBare: [string, (r: Round) => number][] = [
    ['round trips/s (1 in flight)', perSec],
    [`req/s (${PIPELINED} in flight)`, piped],
    ['CPU µs/req (1 in flight)', (r) => r.cpu1],
    [`CPU µs/req (${PIPELINED} in flight)`, (r) => r.cpu16],
  ];
  for (const [ours, bare] of [
    ['ours', 'bare'],
    ['oursHandshake', 'bareHandshake'],
  ] as const)
    for (const [metric, f] of vsBare) out.push(ratioRow(part, label(ours), metric, of(ours, f), of(bare, f), 'bare'));
  // Each peer's own values: its rates, then what the rows above compare it on (the SDKs' spread of p99 kept).
  const cpu1: Metric = ['CPU µs/req (1 in flight)', (r) => r.cpu1];
  const cpu16: Metric = [`CPU µs/req (${PIPELINED} in flight)`, (r) => r.cpu16];
  const p99: Metric = ['p99 ms (1 in flight)', (r) => r.p99, true];
  const peers: [readonly string[], readonly Metric[]][] = [
    [
      ['v2', 'v2Handshake', 'v1Handshake'],
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
