/**
 * @module bench/startup/cold — one fresh server process: from spawn to the answer of its first request (over
 * stdio, or over HTTP once it has printed its URL), then its resident memory a second later (idle); and a
 * server after 100,000 requests.
 */
import { spawn } from 'node:child_process';
import { CONNECTIONS, PIPELINING, probe, runLoad, startChecked, urlOf, type HttpSubject } from '../lib/load.ts';
import { CHILD_ENV, NODE, ROOT, sleep } from '../lib/proc.ts';
import { memoryBreakdown, rssMiB, type MemoryBreakdown } from '../lib/procfs.ts';
import { StdioClient } from '../lib/stdio-client.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
export const FIRST = {
  handshake: {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  stateless: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } },
} as const;
export type Era = keyof typeof FIRST;

/** How long a server is left after its first answer before its idle RSS is read. */
const IDLE_MS = 1000;

export interface Cold {
  /** Spawn to the first answer. */
  readonly ms: number;
  /** VmRSS, MiB, IDLE_MS after that answer. */
  readonly rss: number;
  /** Where that memory is. */
  readonly memory: MemoryBreakdown | undefined;
}

function idle(pid: number, ms: number): Cold {
  return { ms, rss: rssMiB(pid), memory: memoryBreakdown(pid) };
}

/** Spawns `node <args>` with stdout piped; resolves with each stdout line as it comes through `onLine`. */
function spawnLines(args: readonly string[], onLine: (line: string) => void, env: NodeJS.ProcessEnv) {
  const child = spawn(NODE, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'], env });
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(line);
    }
  });
  return child;
}

/**
 * A stdio server: spawn, first request written at once, until its answer. With `graceful`, the server is then
 * let exit by closing its stdin (a profiler writes its profile on exit) instead of being killed.
 */
export async function coldStdio(args: readonly string[], era: Era, graceful = false, env: NodeJS.ProcessEnv = CHILD_ENV): Promise<Cold> {
  const t0 = performance.now();
  let answered!: (line: string) => void;
  const first = new Promise<string>((resolve) => (answered = resolve));
  const child = spawnLines(args, (line) => answered(line), env);
  try {
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before answering`))),
    );
    child.stdin.write(`${JSON.stringify(FIRST[era])}\n`);
    const line = await Promise.race([first, exited]);
    const ms = performance.now() - t0;
    if (!line.includes('"result"')) throw new Error(`${args.join(' ')} (${era}): ${line}`);
    if (graceful) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await Promise.race([gone, sleep(10_000)]);
      return { ms, rss: NaN, memory: undefined };
    }
    await sleep(IDLE_MS);
    return idle(child.pid!, ms);
  } finally {
    child.kill('SIGKILL');
  }
}

/** An HTTP server: spawn, wait for its URL line, POST the subject's request, until its answer. */
export async function coldHttp(s: HttpSubject): Promise<Cold> {
  const t0 = performance.now();
  let ready!: (line: string) => void;
  const first = new Promise<string>((resolve) => (ready = resolve));
  const child = spawnLines(s.args, (line) => ready(line), CHILD_ENV);
  try {
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${s.label} exited ${code} before answering`))));
    const url = urlOf(JSON.parse(await Promise.race([first, exited])) as Record<string, unknown>, s.request);
    const answer = await probe(url, s.request.headers, s.request.body);
    const ms = performance.now() - t0;
    if (answer.status !== 200 || !s.check(answer.json)) throw new Error(`${s.label}: ${answer.status} ${answer.text.slice(0, 300)}`);
    await sleep(IDLE_MS);
    return idle(child.pid!, ms);
  } finally {
    child.kill('SIGKILL');
  }
}

export const HUNDRED_K = 100_000;

/** An HTTP server sent 100,000 requests (the part's load, counted rather than timed); its memory a second later. */
export async function afterHttp(s: HttpSubject): Promise<MemoryBreakdown | undefined> {
  const { child, url } = await startChecked(s);
  try {
    const r = await runLoad({
      url,
      headers: s.request.headers,
      body: s.request.body,
      connections: CONNECTIONS,
      pipelining: PIPELINING,
      duration: 1,
      amount: HUNDRED_K,
    });
    if (r.non2xx || r.errors || r.total < HUNDRED_K) throw new Error(`${s.label}: ${r.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors`);
    await sleep(IDLE_MS);
    return memoryBreakdown(child.pid);
  } finally {
    await child.stop();
  }
}

/** A stdio server (2026-07-28) sent 100,000 requests, 16 in flight; its memory a second later. */
export async function afterStdio(args: readonly string[]): Promise<MemoryBreakdown | undefined> {
  const c = new StdioClient(args);
  try {
    const params = JSON.stringify(FIRST.stateless.params);
    let sent = 0;
    const lane = async () => {
      while (sent < HUNDRED_K) {
        sent++;
        const line = await c.requestLine('"tools/call"', params);
        if (!line.includes('"structuredContent":{"result":3}')) throw new Error(`unexpected answer ${line.slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
    await sleep(IDLE_MS);
    return memoryBreakdown(c.pid);
  } finally {
    await c.stop();
  }
}
