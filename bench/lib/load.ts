/**
 * @module bench/lib/load — the HTTP load parts' measurement, written once: each subject is a server in a
 * process of its own; autocannon (bench/lib/loadgen.mjs, a child process of its own) sends it the same
 * request with the same connections, pipelining and duration as every other subject of the part. Every
 * server is started, probed (its answer must be the right one before any load) and warmed up; then the
 * measured rounds run interleaved across subjects, reversed every other round, and the median round counts.
 */
import { join } from 'node:path';
import type { PartOptions } from './part.ts';
import { BENCH, runNode, startServer, type RunningChild } from './proc.ts';
import { median } from './table.ts';

/** Load of every HTTP part (MCP HTTP and A2A alike). */
export const CONNECTIONS = 10;
export const PIPELINING = 1;
/** Seconds of load before the measured rounds. */
export const WARMUP_S = 5;

export interface LoadConfig {
  readonly url: string;
  readonly method?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly connections: number;
  readonly pipelining: number;
  /** Seconds. */
  readonly duration: number;
}

export interface LoadResult {
  readonly reqPerSec: number;
  readonly total: number;
  readonly durationS: number;
  readonly latency: { readonly average: number; readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

export async function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  const { stdout } = await runNode([join(BENCH, 'lib', 'loadgen.mjs'), JSON.stringify(cfg)], { timeoutMs: (cfg.duration + 60) * 1000 });
  const line = stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as LoadResult;
}

/** One request with fetch, for the sanity check before any load: the answer must be what the subject claims. */
export async function probe(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** What a subject is sent: POSTed to its ready line's `url`, plus `path` when given. */
export interface HttpRequest {
  readonly path?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface HttpSubject {
  readonly key: string;
  readonly label: string;
  /** `node <args>`: a server that prints `{"url": …}` (or ours, `{…, "url": …}`) when it listens. */
  readonly args: readonly string[];
  readonly request: HttpRequest;
  /** Whether the probe's answer (HTTP 200, this JSON) is the right one. */
  readonly check: (json: unknown) => boolean;
}

export interface Measured {
  readonly subject: HttpSubject;
  readonly rounds: LoadResult[];
  /** The round with the median req/s (its latencies are reported with it), `reqPerSec` the median itself. */
  readonly pick: LoadResult;
}

/** Starts, probes and warms up every subject, then measures `options.rounds` interleaved rounds; by key. */
export async function measureHttpSubjects(part: string, subjects: readonly HttpSubject[], options: PartOptions): Promise<Map<string, Measured>> {
  const running = new Map<string, RunningChild>();
  const results = new Map<string, LoadResult[]>();
  const urlOf = (s: HttpSubject) => String(running.get(s.key)!.ready['url']).replace(/\/$/, '') + (s.request.path ?? '');
  const load = (s: HttpSubject, duration: number) =>
    runLoad({ url: urlOf(s), headers: s.request.headers, body: s.request.body, connections: CONNECTIONS, pipelining: PIPELINING, duration });
  try {
    for (const s of subjects) {
      running.set(s.key, await startServer(s.key, s.args));
      const url = urlOf(s);
      const p = await probe(url, s.request.headers, s.request.body);
      if (p.status !== 200 || !s.check(p.json)) throw new Error(`${s.label}: unexpected answer ${p.status} ${p.text.slice(0, 300)}`);
      options.log(`${part}: ${s.key} ready at ${url}, warming up ${WARMUP_S} s`);
      await load(s, WARMUP_S);
      results.set(s.key, []);
    }
    for (let round = 0; round < options.rounds; round++) {
      // Interleaved, and reversed every other round, so drift on a noisy machine hits every subject alike.
      for (const s of round % 2 ? [...subjects].reverse() : subjects) {
        const r = await load(s, options.duration);
        options.log(
          `${part}: round ${round + 1} ${s.key}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non2xx ${r.non2xx}, errors ${r.errors}`,
        );
        results.get(s.key)!.push(r);
      }
    }
  } finally {
    for (const c of running.values()) await c.stop();
  }
  const measured = new Map<string, Measured>();
  for (const s of subjects) {
    const rounds = results.get(s.key)!;
    const m = median(rounds.map((r) => r.reqPerSec));
    const pick = rounds.reduce((best, r) => (Math.abs(r.reqPerSec - m) < Math.abs(best.reqPerSec - m) ? r : best));
    measured.set(s.key, { subject: s, rounds, pick: { ...pick, reqPerSec: m } });
  }
  return measured;
}
