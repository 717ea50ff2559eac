/**
 * @module bench/lib/load — the HTTP load parts' measurement, written once: each subject is a server in a
 * process of its own; autocannon (bench/lib/loadgen.mjs, a child process of its own) sends it the same
 * request with the same connections, pipelining and duration as every other subject of the part. Every
 * server is started, probed (its answer must be the right one before any load) and warmed up; then the
 * measured rounds run interleaved across subjects, reversed every other round. Each round of each subject
 * records its req/s, latency percentiles and the server process's own CPU time per request (procfs.ts), so
 * that every ratio can be paired within its round (pair.ts).
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { PartOptions } from './part.ts';
import { BENCH, runNode, startServer, type RunningChild } from './proc.ts';
import { cpuSeconds, machineTicks, stealPercent } from './procfs.ts';

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
  /** Seconds (ignored when `amount` is given). */
  readonly duration: number;
  /** Send exactly this many requests, then stop. */
  readonly amount?: number;
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
  const timeoutS = (cfg.amount ? 600 : cfg.duration) + 60;
  const { stdout } = await runNode([join(BENCH, 'lib', 'loadgen.mjs'), JSON.stringify(cfg)], { timeoutMs: timeoutS * 1000 });
  const line = stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as LoadResult;
}

/** The last `data:` line of a text/event-stream answer as JSON (a server that answers a POST with an SSE stream). */
function sseData(text: string): unknown {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .at(-1);
  try {
    return data === undefined ? undefined : JSON.parse(data.slice(5));
  } catch {
    return undefined;
  }
}

/** One POST with node:http (no keep-alive), for the check before any load and the cold-start clock. */
export function probe(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): Promise<{ status: number; json: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          // A server that answers a POST with an SSE stream (tmcp does).
          json = sseData(text);
        }
        resolve({ status: res.statusCode ?? 0, json, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
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
  /** `node <args>`: a server that prints `{"url": …}` when it listens. */
  readonly args: readonly string[];
  readonly request: HttpRequest;
  /** Whether the probe's answer (HTTP 200, this JSON) is the right one. */
  readonly check: (json: unknown) => boolean;
}

export function urlOf(ready: Record<string, unknown>, request: HttpRequest): string {
  return String(ready['url']).replace(/\/$/, '') + (request.path ?? '');
}

/** Starts `s` and checks its answer; throws with the answer when it is not the right one. */
export async function startChecked(s: HttpSubject): Promise<{ child: RunningChild; url: string }> {
  const child = await startServer(s.key, s.args);
  const url = urlOf(child.ready, s.request);
  const p = await probe(url, s.request.headers, s.request.body).catch(async (err: Error) => {
    await child.stop();
    throw err;
  });
  if (p.status !== 200 || !s.check(p.json)) {
    await child.stop();
    throw new Error(`${s.label}: unexpected answer ${p.status} ${p.text.slice(0, 300)}`);
  }
  return { child, url };
}

/** One measured run of one subject: the load's figures and the server's own CPU time per request. */
export interface HttpRound extends LoadResult {
  /** Server CPU (user + system) per request, µs. */
  readonly cpuUsPerReq: number;
  /** The machine's CPU time the hypervisor took during the run, percent (a noisy neighbour shows here). */
  readonly stealPct?: number;
}

/** Sends the load and reads the server's CPU time around it. */
export async function measuredLoad(pid: number, cfg: LoadConfig): Promise<HttpRound> {
  const cpu0 = cpuSeconds(pid);
  const ticks0 = machineTicks();
  const r = await runLoad(cfg);
  const cpu1 = cpuSeconds(pid);
  const stealPct = stealPercent(ticks0, machineTicks());
  return { ...r, cpuUsPerReq: ((cpu1 - cpu0) * 1e6) / r.total, ...(stealPct === undefined ? {} : { stealPct }) };
}

/** Starts, probes and warms up every subject (`warmupS` seconds each), then measures `options.rounds` interleaved rounds; by key. */
export async function measureHttpSubjects(
  part: string,
  subjects: readonly HttpSubject[],
  options: PartOptions,
  warmupS = WARMUP_S,
): Promise<Map<string, HttpRound[]>> {
  const running = new Map<string, { child: RunningChild; url: string }>();
  const results = new Map<string, HttpRound[]>();
  const cfg = (s: HttpSubject, duration: number): LoadConfig => ({
    url: running.get(s.key)!.url,
    headers: s.request.headers,
    body: s.request.body,
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    duration,
  });
  try {
    for (const s of subjects) {
      running.set(s.key, await startChecked(s));
      options.log(`${part}: ${s.key} ready at ${running.get(s.key)!.url}, warming up ${warmupS} s`);
      if (warmupS > 0) await runLoad(cfg(s, warmupS));
      results.set(s.key, []);
    }
    for (let round = 0; round < options.rounds; round++) {
      // Interleaved, and reversed every other round, so drift on a noisy machine hits every subject alike.
      for (const s of round % 2 ? [...subjects].reverse() : subjects) {
        const r = await measuredLoad(running.get(s.key)!.child.pid, cfg(s, options.duration));
        options.log(
          `${part}: round ${round + 1} ${s.key}: ${r.reqPerSec.toFixed(0)} req/s, ${r.cpuUsPerReq.toFixed(0)} µs CPU/req, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non2xx ${r.non2xx}, errors ${r.errors}, steal ${r.stealPct?.toFixed(1) ?? '?'} %`,
        );
        if (r.non2xx || r.errors) throw new Error(`${part}: ${s.label}: ${r.non2xx} non-2xx answers, ${r.errors} errors under load`);
        results.get(s.key)!.push(r);
      }
    }
  } finally {
    for (const { child } of running.values()) await child.stop();
  }
  return results;
}
