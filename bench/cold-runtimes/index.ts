/**
 * @module bench/cold-runtimes — part `cold-runtimes`: cold start of the same add server on each runtime, ours
 * against the official SDK v2 (`@modelcontextprotocol/server` 2.4.0) on each:
 *   node     this Node; ours `listenMcpHttp` from the built packages and the SDK's `createMcpHandler` through
 *            `toNodeHandler` on node:http (the startup part's HTTP servers, bench/mcp-http/index.ts);
 *   bun      Bun 1.4.5, `Bun.serve` around each fetch handler (handlers/ours.ts: `mcpFetchHandler`;
 *            handlers/sdk.mjs: `createMcpHandler(…).fetch`), bundled for it (bundle.ts);
 *   deno     Deno 2.9.6, `Deno.serve` around the same handlers, bundled for it;
 *   workerd  the handlers bundled as a Worker, served by miniflare 4.20260730.0 (on-miniflare.mjs on Node 22),
 *            no compatibility flag.
 * Each start: spawn → the server's ready line (printed once it listens) → a 2026-07-28 `tools/call` POSTed at
 * once over 127.0.0.1 → its answer (spawn.ts). Within a round each runtime's ours and SDK start back to back
 * (which goes first alternates), each round giving one paired ratio. Bun, Deno and workerd also start a
 * "hello" handler (handlers/hello.mjs) that loads nothing: the runtime's own start, for workerd miniflare's,
 * the floor every Worker pays under `wrangler dev`. A runtime or server that cannot run is a row saying why.
 */
import { join } from 'node:path';
import { addResultOk, MODERN_REQUEST, oursHttp, v2Http } from '../mcp-http/index.ts';
import type { HttpRequest } from '../lib/load.ts';
import type { PartOptions } from '../lib/part.ts';
import { CHILD_ENV, NODE, ROOT } from '../lib/proc.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import { findRuntime, type RuntimeName } from '../lib/runtimes.ts';
import { median, type Row } from '../lib/table.ts';
import { bundleFor, type Handler } from './bundle.ts';
import { coldStart, type Launch } from './spawn.ts';

export const PART = 'cold-runtimes';
type Runtime = 'node' | RuntimeName;
type Who = 'ours' | 'sdk' | 'hello' | 'modern';
export const RUNTIMES: readonly Runtime[] = ['node', 'bun', 'deno', 'workerd'];

/** What each runtime's rows say they include. */
const HOSTED: Record<Runtime, string> = {
  node: `Node ${process.version}: ours listenMcpHttp (built packages), SDK createMcpHandler + toNodeHandler on node:http`,
  bun: 'Bun.serve around each fetch handler, one esbuild bundle each',
  deno: 'Deno.serve around each fetch handler, one esbuild bundle each (deno run --allow-net=127.0.0.1 --allow-env --allow-read)',
  workerd: 'each fetch handler as a Worker bundle, miniflare on Node 22 starting workerd, no compatibility flag',
};

/** One server of one runtime as measured: how it is started, or why it cannot be. */
interface Subject {
  readonly label: string;
  readonly launch?: Launch;
  readonly request: HttpRequest;
  readonly check: (json: unknown) => boolean;
  reason?: string;
  readonly ms: number[];
}

const HELLO_OK = (json: unknown) => (json as { result?: unknown })?.result !== undefined;
const QUIET = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', DO_NOT_TRACK: '1' };

function subject(label: string, launch: Launch | string, hello = false): Subject {
  const request = MODERN_REQUEST;
  const check = hello ? HELLO_OK : addResultOk;
  return typeof launch === 'string' ? { label, request, check, reason: launch, ms: [] } : { label, launch, request, check, ms: [] };
}

/** The subjects of a runtime: ours, the SDK, and (not on Node) the hello floor. */
async function subjectsOf(runtime: Runtime): Promise<Record<Who, Subject | undefined>> {
  if (runtime === 'node') {
    const [ours, sdk] = [await oursHttp(), v2Http()];
    return {
      ours: subject('ours', { binary: NODE, args: ours.args, env: CHILD_ENV }),
      sdk: subject('SDK v2', { binary: NODE, args: sdk.args, env: CHILD_ENV }),
      hello: undefined,
      modern: undefined,
    };
  }
  const found = findRuntime(runtime);
  const launchOf = async (handler: Handler): Promise<Launch | string> => {
    if (!found.binary) return `${found.label} cannot run here: ${found.reason}`;
    try {
      const bundle = await bundleFor(runtime, handler);
      const args =
        runtime === 'bun'
          ? ['run', bundle]
          : runtime === 'deno'
            ? ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--no-prompt', bundle]
            : [join(ROOT, 'bench', 'cold-runtimes', 'on-miniflare.mjs'), bundle];
      return { binary: found.binary, args, env: { ...CHILD_ENV, ...QUIET } };
    } catch (err) {
      return `bundling for ${runtime} failed: ${(err as Error).message.split('\n')[0]}`;
    }
  };
  return {
    ours: subject('ours', await launchOf('ours')),
    sdk: subject('SDK v2', await launchOf('sdk')),
    hello: subject('hello', await launchOf('hello'), true),
    modern: runtime === 'workerd' ? subject('ours, 2026-07-28 only', await launchOf('ours-modern')) : undefined,
  };
}

/** One start of `s`, its time recorded; a failure marks it as not running, with the reason. */
async function once(runtime: Runtime, s: Subject, record: boolean): Promise<void> {
  if (!s.launch || s.reason) return;
  try {
    const ms = await coldStart(`${s.label} on ${runtime}`, s.launch, s.request, s.check);
    if (record) s.ms.push(ms);
  } catch (err) {
    s.reason = (err as Error).message.split('\n')[0]!.slice(0, 400);
  }
}

export interface MeasureOptions {
  readonly rounds: number;
  readonly log: (line: string) => void;
  readonly runtimes?: readonly Runtime[];
  /** Skip the unrecorded first start of each (the smoke test's short version: one start each). */
  readonly quick?: boolean;
}

/** Measures `rounds` rounds (after one unrecorded start of each, which warms the file system cache) and returns the rows. */
export async function measure({ rounds, log, runtimes = RUNTIMES, quick = false }: MeasureOptions): Promise<Row[]> {
  const all = new Map<Runtime, Record<Who, Subject | undefined>>();
  for (const r of runtimes) all.set(r, await subjectsOf(r));
  if (!quick) for (const [r, s] of all) for (const x of [s.ours, s.sdk, s.modern, s.hello]) if (x) await once(r, x, false);
  for (let round = 0; round < rounds; round++) {
    for (const [r, s] of all) {
      const pair = round % 2 === 0 ? [s.ours, s.sdk] : [s.sdk, s.ours];
      for (const x of [...pair, s.modern, s.hello]) if (x) await once(r, x, true);
    }
  }
  const rows: Row[] = [];
  const metric = 'cold start ms';
  const fmt = (xs: readonly number[]) => xs.map((x) => x.toFixed(0)).join(' ');
  for (const [r, s] of all) {
    const { ours, sdk, hello, modern } = s as Record<'ours' | 'sdk', Subject> & { hello?: Subject; modern?: Subject };
    log(
      `${PART} ${r}: ours ${fmt(ours.ms)} ms, SDK v2 ${fmt(sdk.ms)} ms${modern ? `, ours 2026-07-28 only ${fmt(modern.ms)} ms` : ''}${hello ? `, hello ${fmt(hello.ms)} ms` : ''}`,
    );
    const what = `${r}, first answer: tools/call 2026-07-28 (${HOSTED[r]})`;
    const failed = (x: Subject) => x.reason !== undefined || x.ms.length === 0;
    if (!failed(ours) && !failed(sdk) && ours.ms.length === sdk.ms.length)
      rows.push(ratioRow(PART, `ours, ${what}`, metric, ours.ms, sdk.ms, 'SDK v2'));
    else if (!failed(ours))
      rows.push(valueRow(PART, `ours, ${what}`, metric, ours.ms, { note: `no ratio: SDK v2 did not run (${sdk.reason ?? 'no rounds'})` }));
    else rows.push({ part: PART, subject: `ours, ${what}`, metric, value: null, note: ours.reason ?? 'no rounds' });
    rows.push(
      failed(sdk)
        ? { part: PART, subject: `SDK v2 2.4.0, ${what}`, metric, value: null, note: sdk.reason ?? 'no rounds' }
        : valueRow(PART, `SDK v2 2.4.0, ${what}`, metric, sdk.ms),
    );
    // Above the floor: each round's start less that round's hello start, what the server's own code costs.
    const above = (x: Subject) => x.ms.map((v, i) => v - hello!.ms[i]!);
    if (hello && !failed(hello))
      for (const [who, x] of [
        ['ours', ours],
        ['SDK v2 2.4.0', sdk],
      ] as const)
        if (!failed(x) && x.ms.length === hello.ms.length)
          rows.push(
            valueRow(PART, `${who}, ${r}, above the hello floor`, 'cold start ms', above(x), {
              note: "each round's start less that round's hello start",
            }),
          );
    if (modern)
      rows.push(
        !failed(modern) && !failed(sdk) && modern.ms.length === sdk.ms.length
          ? ratioRow(
              PART,
              `ours, 2026-07-28 only bundled, ${what}`,
              metric,
              modern.ms,
              sdk.ms,
              'SDK v2',
              undefined,
              'the other revisions aliased away',
            )
          : {
              part: PART,
              subject: `ours, 2026-07-28 only bundled, ${what}`,
              metric,
              value: failed(modern) ? null : median(modern.ms),
              note: modern.reason ?? sdk.reason ?? 'no rounds',
            },
      );
    if (hello)
      rows.push(
        failed(hello)
          ? { part: PART, subject: `hello handler (the floor), ${r}`, metric, value: null, note: hello.reason ?? 'no rounds' }
          : valueRow(PART, `hello handler (the floor), ${r}`, metric, hello.ms, {
              note:
                r === 'workerd'
                  ? "miniflare's own start: spawn to a Worker's first answer, no Worker code to load"
                  : "the runtime's own start, no server code to load",
            }),
      );
  }
  return rows;
}

export async function run(options: PartOptions): Promise<Row[]> {
  return measure({ rounds: Math.max(5, options.rounds), log: options.log });
}
