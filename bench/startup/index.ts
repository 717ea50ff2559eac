/**
 * @module bench/startup — part 5: cold start and memory, ours as users run it (built packages, plain
 * JavaScript: bench/servers/wiregen-stdio.ts and wiregen-http.ts via bench/lib/built.ts) against the official
 * SDK v2 (`@modelcontextprotocol/server` 2.4.0, plain JavaScript: bench/servers/v2-stdio.mjs, v2-http.mjs), and
 * on the stdio and HTTP kinds also tmcp 1.20 (bench/servers/tmcp-stdio.mjs, tmcp-http.mjs).
 *
 * Cold start: from spawn to the answer of the first request, a fresh process each time: over stdio an
 * `initialize` of 2025-11-25 and a 2026-07-28 `tools/call`; over HTTP a 2026-07-28 `tools/call` sent as soon as
 * the server prints its URL. Idle RSS: the same process one second after that answer. Ours and the peer
 * alternate within every round (which goes first alternates too) and each round gives one paired ratio.
 * RSS after 100k requests: a fresh server of each, sent 100,000 `tools/call`s (HTTP: the part 2 load; stdio:
 * 16 in flight), its VmRSS and where it is (anonymous, file-backed) a second after the last answer.
 */
import { join } from 'node:path';
import { oursHttp, tmcpHttp, v2Http } from '../mcp-http/index.ts';
import { builtServer } from '../lib/built.ts';
import type { PartOptions } from '../lib/part.ts';
import { BENCH, CHILD_ENV } from '../lib/proc.ts';
import type { MemoryBreakdown } from '../lib/procfs.ts';
import { cpuProfArgs, summarizeDir } from '../lib/profiling.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';
import { afterHttp, afterStdio, coldHttp, coldStdio, HUNDRED_K, type Cold, type Era } from './cold.ts';

/** Ours, the SDK v2 (the peer of the targets), and tmcp where it serves the kind. */
type Who = 'ours' | 'peer' | 'tmcp';

export interface Kind {
  readonly key: string;
  readonly what: string;
  readonly cold: (who: Who) => Promise<Cold>;
  /** The cold-start target against tmcp, on the kinds tmcp is measured on. */
  readonly tmcpTarget?: string;
  /**
   * Target ids: cold start, and idle RSS (none on the handshake opening: the idle process is the same). A kind
   * without a cold-start target is there for comparison, and reports no idle RSS.
   */
  readonly coldTarget?: string;
  readonly rssTarget?: string;
}

/** The cold-start targets: ours at most this share of the SDK v2's time, and of tmcp's. */
const COLD_OF_V2 = 0.4;
const COLD_OF_TMCP = 0.6;
const TMCP = 'tmcp 1.20 (Zod adapter; stdio: StdioTransport, HTTP: HttpTransport on node-fetch-server)';

/** Memory of the last run, idle and after 100k requests, for the profile of a missed memory target. */
let memoryAfter: Record<string, MemoryBreakdown | undefined> = {};
const memoryIdle: Record<string, MemoryBreakdown | undefined> = {};

/** The servers measured from cold, by kind: ours, the SDK v2, and tmcp (on the kinds with a tmcp target). */
export async function coldKinds(): Promise<Kind[]> {
  const oursStdio = [await builtServer('servers/wiregen-stdio.ts')];
  const v2Stdio = [join(BENCH, 'servers/v2-stdio.mjs')];
  const tmcpStdio = [join(BENCH, 'servers/tmcp-stdio.mjs')];
  const http = { ours: await oursHttp(), peer: v2Http(), tmcp: tmcpHttp() };
  // `graceful`: the server is let exit after its answer, no idle RSS read (coldStdio).
  const stdio =
    (era: Era, graceful = false, env = CHILD_ENV) =>
    (who: Who) =>
      coldStdio(who === 'ours' ? oursStdio : who === 'tmcp' ? tmcpStdio : v2Stdio, era, graceful, env);
  const kinds: Kind[] = [
    {
      key: 'stdio-stateless',
      what: 'stdio, first answer: tools/call 2026-07-28',
      cold: stdio('stateless'),
      coldTarget: 'cold-start-stdio',
      rssTarget: 'idle-rss-stdio',
      tmcpTarget: 'cold-start-stdio-tmcp',
    },
    {
      key: 'stdio-handshake',
      what: 'stdio, first answer: initialize 2025-11-25',
      cold: stdio('handshake'),
      coldTarget: 'cold-start-stdio-handshake',
      tmcpTarget: 'cold-start-stdio-handshake-tmcp',
    },
    {
      // This machine's environment as it is: NODE_EXTRA_CA_CERTS set, about 40 ms more of every Node start
      // (CHILD_ENV in bench/lib/proc.ts), for ours and the peer alike.
      key: 'stdio-machine-env',
      what: "stdio, first answer: tools/call 2026-07-28, this machine's NODE_EXTRA_CA_CERTS kept",
      cold: stdio('stateless', true, process.env),
    },
    {
      key: 'http',
      what: 'HTTP, first answer: tools/call 2026-07-28',
      cold: (who) => coldHttp(http[who]),
      coldTarget: 'cold-start-http',
      rssTarget: 'idle-rss-http',
      tmcpTarget: 'cold-start-http-tmcp',
    },
  ];
  return kinds;
}

/**
 * One kind's cold starts: a fresh process of each server per round, the order alternating, after one start of
 * each to warm the file system cache; its rows (cold start and idle RSS, ours against the SDK v2 and tmcp).
 */
export async function kindRows(k: Kind, rounds: number, log: (line: string) => void): Promise<Row[]> {
  const part = 'startup';
  const rows: Row[] = [];
  const acc = { ours: [] as Cold[], peer: [] as Cold[], tmcp: [] as Cold[] };
  const order: Who[] = k.tmcpTarget ? ['ours', 'peer', 'tmcp'] : ['ours', 'peer'];
  for (const who of order) await k.cold(who); // warm the file system cache for each before measuring
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so none always runs on a machine another has just warmed.
    for (const who of r % 2 === 0 ? order : [...order].reverse()) acc[who].push(await k.cold(who));
  }
  if (k.coldTarget) {
    memoryIdle[`ours ${k.key} idle`] = acc.ours.at(-1)?.memory;
    memoryIdle[`SDK v2 ${k.key} idle`] = acc.peer.at(-1)?.memory;
  }
  const ms = (who: Who) => acc[who].map((x) => x.ms);
  const rss = (who: Who) => acc[who].map((x) => x.rss);
  log(
    `startup ${k.key}: ours ${ms('ours')
      .map((x) => x.toFixed(0))
      .join(' ')} ms, v2 ${ms('peer')
      .map((x) => x.toFixed(0))
      .join(' ')} ms${
      k.tmcpTarget
        ? `, tmcp ${ms('tmcp')
            .map((x) => x.toFixed(0))
            .join(' ')} ms`
        : ''
    }`,
  );
  rows.push(
    ratioRow(
      part,
      `ours (built packages), ${k.what}`,
      'cold start ms',
      ms('ours'),
      ms('peer'),
      'SDK v2',
      k.coldTarget ? { id: k.coldTarget, text: `≤ ${COLD_OF_V2}× SDK v2`, ok: (x) => x <= COLD_OF_V2 } : undefined,
    ),
    valueRow(part, `SDK v2 2.4.0, ${k.what}`, 'cold start ms', ms('peer')),
  );
  if (k.tmcpTarget)
    rows.push(
      ratioRow(part, `ours (built packages), ${k.what}`, 'cold start ms', ms('ours'), ms('tmcp'), 'tmcp', {
        id: k.tmcpTarget,
        text: `≤ ${COLD_OF_TMCP}× tmcp`,
        ok: (x) => x <= COLD_OF_TMCP,
      }),
      valueRow(part, `${TMCP}, ${k.what}`, 'cold start ms', ms('tmcp')),
    );
  if (!k.coldTarget) return rows;
  rows.push(
    ratioRow(
      part,
      `ours (built packages), ${k.what}`,
      'idle RSS MiB',
      rss('ours'),
      rss('peer'),
      'SDK v2',
      k.rssTarget ? { id: k.rssTarget, text: '≤ 0.8× SDK v2', ok: (x) => x <= 0.8 } : undefined,
      '1 s after the first answer',
    ),
    valueRow(part, `SDK v2 2.4.0, ${k.what}`, 'idle RSS MiB', rss('peer')),
  );
  if (k.tmcpTarget && k.rssTarget)
    rows.push(
      ratioRow(part, `ours (built packages), ${k.what}`, 'idle RSS MiB', rss('ours'), rss('tmcp'), 'tmcp', undefined, '1 s after the first answer'),
      valueRow(part, `${TMCP}, ${k.what}`, 'idle RSS MiB', rss('tmcp')),
    );
  return rows;
}

export async function run(options: PartOptions): Promise<Row[]> {
  const oursStdio = [await builtServer('servers/wiregen-stdio.ts')];
  const v2Stdio = [join(BENCH, 'servers/v2-stdio.mjs')];
  const http = { ours: await oursHttp(), peer: v2Http() };
  const kinds = await coldKinds();
  const rounds = Math.max(5, options.rounds * 2);
  const part = 'startup';
  const rows: Row[] = [];
  for (const k of kinds) rows.push(...(await kindRows(k, rounds, options.log)));
  options.log(`startup: ${HUNDRED_K} requests to a fresh server of each`);
  memoryAfter = {
    'ours stdio': await afterStdio(oursStdio),
    'SDK v2 stdio': await afterStdio(v2Stdio),
    'ours HTTP': await afterHttp(http.ours),
    'SDK v2 HTTP': await afterHttp(http.peer),
  };
  const after = (k: string) => [memoryAfter[k]?.rss ?? NaN];
  for (const [t, ours, peer] of [
    ['stdio', 'ours stdio', 'SDK v2 stdio'],
    ['http', 'ours HTTP', 'SDK v2 HTTP'],
  ] as const) {
    const what = t === 'http' ? 'HTTP (2026-07-28, the part 2 load)' : 'stdio (2026-07-28, 16 in flight)';
    const detail = { ours: memoryAfter[ours], peer: memoryAfter[peer] };
    rows.push(
      {
        ...ratioRow(part, `ours (built packages), ${what}`, `RSS MiB after ${HUNDRED_K / 1000}k requests`, after(ours), after(peer), 'SDK v2', {
          id: `rss-100k-${t}`,
          text: '≤ SDK v2',
          ok: (x) => x <= 1,
        }),
        note: `anonymous ${detail.ours?.anonymous.toFixed(1)} MiB, file-backed ${detail.ours?.file.toFixed(1)} MiB; one fresh process`,
        detail,
      },
      {
        part,
        subject: `SDK v2 2.4.0, ${what}`,
        metric: `RSS MiB after ${HUNDRED_K / 1000}k requests`,
        value: memoryAfter[peer]?.rss ?? null,
        note: `anonymous ${detail.peer?.anonymous.toFixed(1)} MiB, file-backed ${detail.peer?.file.toFixed(1)} MiB`,
      },
    );
  }
  return rows;
}

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const reports: ProfileReport[] = [];
  const cold = ids.filter((id) => id.startsWith('cold-start'));
  if (cold.length) {
    const dir = join(options.missProfDir, 'startup');
    // Sampled every 100 µs (the default 1 ms gives about a hundred samples of a start-up).
    await coldStdio([...cpuProfArgs(dir), '--cpu-prof-interval', '100', await builtServer('servers/wiregen-stdio.ts')], 'stateless', true);
    reports.push({
      targets: cold,
      subject: 'ours (built packages) over stdio under --cpu-prof: spawn to the first tools/call answer',
      summary: summarizeDir(dir),
    });
  }
  const memory = ids.filter((id) => id.includes('rss'));
  if (memory.length)
    reports.push({
      targets: memory,
      subject: 'resident memory of ours and SDK v2, idle and after 100k requests, by kind (/proc/<pid>/smaps_rollup)',
      memory: { ...memoryIdle, ...memoryAfter },
    });
  return reports;
}
