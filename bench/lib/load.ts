/**
 * @module bench/lib/load — drives autocannon (bench/lib/loadgen.mjs, a child process of its own) against one
 * server: the same connections, pipelining and duration for every subject of a part.
 */
import { join } from 'node:path';
import { BENCH, runNode } from './proc.ts';

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
export async function probe(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<{ status: number; json: unknown; text: string }> {
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
