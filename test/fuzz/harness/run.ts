/**
 * @module test/fuzz/harness/run — one fuzz run over every target at once: MCP over stdio in both eras, MCP
 * over Streamable HTTP, A2A over JSON-RPC and HTTP+JSON, each its own server process, all on loopback. The
 * messages are split between the targets by fixed shares; the same seed sends the same messages (timing
 * aside). Bounded in count and in time (`deadlineMs`: a target still running then stops sending).
 */
import { loadA2aCorpus, loadMcpCorpus, PROBE_LINES } from './corpus.ts';
import { fuzzA2a } from './a2a-target.ts';
import { fuzzMcpHttp } from './mcp-http-target.ts';
import { Random } from './random.ts';
import { formatReport, targetReport, totalViolations, type TargetReport } from './report.ts';
import { fuzzStdio } from './stdio-target.ts';

export interface FuzzOptions {
  /** Messages in all. Default 20,000. */
  readonly n?: number;
  /** Seed of the generator. Default 1. */
  readonly seed?: number;
  /** The longest an answer may take. Default 5,000 ms. */
  readonly answerMs?: number;
  /** The bound on each server's resident memory. Default 512 MB (an idle server from sources is about 100 MB). */
  readonly maxRssMb?: number;
  /** Requests in flight per HTTP target. Default 8. */
  readonly concurrency?: number;
  /** The longest the run may take: a target still sending then stops, and that is a violation. Default 600 s. */
  readonly deadlineMs?: number;
  /** The stdio servers' command (argv) instead of `wiregen serve recorded-server --stdio` (e.g. the built runtime). */
  readonly stdioCommand?: readonly string[];
}

export interface FuzzResult {
  readonly reports: readonly TargetReport[];
  readonly violations: number;
  readonly seconds: number;
  readonly text: string;
}

/** Shares of the messages: stdio 2026-07-28, stdio handshake, MCP HTTP, A2A JSON-RPC, A2A HTTP+JSON. */
const SHARES = [0.3, 0.15, 0.25, 0.15, 0.15] as const;

export async function runFuzz(options: FuzzOptions = {}): Promise<FuzzResult> {
  const n = options.n ?? 20_000;
  const seed = options.seed ?? 1;
  const answerMs = options.answerMs ?? 5_000;
  const maxRssMb = options.maxRssMb ?? 512;
  const concurrency = options.concurrency ?? 8;
  const started = performance.now();
  const stopAt = started + (options.deadlineMs ?? 600_000);
  const mcp = loadMcpCorpus();
  const counts = SHARES.map((share) => Math.round(n * share));
  const reports = ['mcp stdio 2026-07-28', 'mcp stdio handshake', 'mcp http', 'a2a json-rpc', 'a2a http+json'].map(targetReport);
  // Each target its own generator, so that one target's timing does not change another's messages.
  const rng = (k: number) => new Random((seed * 7919 + k) >>> 0);
  await Promise.all([
    fuzzStdio({
      report: reports[0]!,
      rng: rng(0),
      seeds: mcp.stateless,
      raw: [...mcp.raw, ...PROBE_LINES],
      ...(options.stdioCommand ? { command: options.stdioCommand } : {}),
      count: counts[0]!,
      answerMs,
      maxRssMb,
      stopAt,
    }),
    fuzzStdio({
      report: reports[1]!,
      rng: rng(1),
      seeds: mcp.handshake.slice(1),
      opening: [mcp.handshake[0]!, { jsonrpc: '2.0', method: 'notifications/initialized' }],
      raw: [...mcp.raw, ...PROBE_LINES],
      ...(options.stdioCommand ? { command: options.stdioCommand } : {}),
      count: counts[1]!,
      answerMs,
      maxRssMb,
      stopAt,
    }),
    fuzzMcpHttp({
      report: reports[2]!,
      rng: rng(2),
      stateless: mcp.stateless,
      handshake: mcp.handshake,
      count: counts[2]!,
      answerMs,
      maxRssMb,
      stopAt,
      concurrency,
    }),
    fuzzA2a({
      jsonrpc: reports[3]!,
      rest: reports[4]!,
      rng: rng(3),
      seeds: loadA2aCorpus(),
      count: { jsonrpc: counts[3]!, rest: counts[4]! },
      answerMs,
      maxRssMb,
      stopAt,
      concurrency,
    }),
  ]);
  const seconds = (performance.now() - started) / 1000;
  return { reports, violations: totalViolations(reports), seconds, text: formatReport(reports, seed, seconds) };
}
