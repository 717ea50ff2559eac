/**
 * @module bench/generator — part 5: the wall time of a full `wiregen generate` (every pin and fixture, the
 * packages formatted and written, the swap into generated/), and the idle RSS of each started server.
 *
 * Idle RSS is the server process's own (VmRSS, 2 s after it is up); every server runs under tsx.
 * `generate` writes generated/, which this suite must not touch: it runs in a scratch copy of the inputs it
 * reads (bin/, generator/, schemas/, fixtures/, runtime/, generated/, package.json; node_modules linked) under
 * the system temp folder, which is removed afterwards.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartOptions } from '../lib/part.ts';
import { BENCH, ROOT, rssMiB, runNode, sleep, startServer, treeRssMiB, TSX } from '../lib/proc.ts';
import { StdioClient } from '../lib/stdio-client.ts';
import { median, type Row } from '../lib/table.ts';

const COPY = ['bin', 'generator', 'schemas', 'fixtures', 'runtime', 'generated', 'package.json', 'tsconfig.json'];
const SETTLE_MS = 2_000;
/** One full generate (about 9 s on an idle machine of this size; it dominates the part's time). */
const GENERATE_RUNS = 1;

async function generateTimes(options: PartOptions): Promise<{ ms: number[]; lastLines: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-bench-generate-'));
  try {
    for (const entry of COPY) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const ms: number[] = [];
    let lastLines = '';
    for (let i = 0; i < GENERATE_RUNS; i++) {
      const r = await runNode([join(dir, 'bin/wiregen.mjs'), 'generate'], { cwd: dir, timeoutMs: 300_000 });
      ms.push(r.ms);
      lastLines = (r.stdout + r.stderr).trim().split('\n').at(-1) ?? '';
      options.log(`generator: full generate ${(r.ms / 1000).toFixed(2)} s`);
    }
    return { ms, lastLines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface RssSubject {
  readonly label: string;
  readonly args: string[];
  readonly stdio?: boolean;
  /** For ours: the label of the peer its RSS is compared with. */
  readonly peer?: string;
}

const SDK_HTTP = 'SDK 1.32.2 McpServer, stateless, node:http';
const SDK_STDIO = 'SDK 1.32.2 McpServer, stdio';
const A2A_SDK = '@a2a-js/sdk 1.3.0 (express, JSON-RPC)';
const RSS_SUBJECTS: RssSubject[] = [
  {
    label: 'ours (wiregen serve fixture-server --http)',
    args: [join(ROOT, 'bin/wiregen.mjs'), 'serve', 'fixture-server', '--http', '0'],
    peer: SDK_HTTP,
  },
  { label: SDK_HTTP, args: [...TSX, join(BENCH, 'mcp-http/sdk-server.ts'), '--mode', 'node'] },
  { label: 'SDK 1.32.2 McpServer, stateless, express', args: [...TSX, join(BENCH, 'mcp-http/sdk-server.ts'), '--mode', 'express'] },
  { label: 'bare node:http (ceiling)', args: [...TSX, join(BENCH, 'mcp-http/bare-server.ts')] },
  {
    label: 'ours (wiregen serve fixture-server --stdio)',
    args: [join(ROOT, 'bin/wiregen.mjs'), 'serve', 'fixture-server', '--stdio'],
    stdio: true,
    peer: SDK_STDIO,
  },
  { label: SDK_STDIO, args: [...TSX, join(BENCH, 'mcp-stdio/sdk-server.ts')], stdio: true },
  {
    label: 'ours (wiregen serve research-agent --http)',
    args: [join(ROOT, 'bin/wiregen.mjs'), 'serve', 'research-agent', '--http', '0'],
    peer: A2A_SDK,
  },
  { label: A2A_SDK, args: [...TSX, join(BENCH, 'a2a/sdk-server.ts')] },
];

/** Starts the server, waits until it is up (HTTP: its ready line; stdio: its answer to the handshake), lets it settle, reads its RSS. */
async function idleRss(s: RssSubject): Promise<{ mib: number; treeMib: number }> {
  const child = s.stdio ? new StdioClient(s.args) : await startServer(s.label, s.args);
  try {
    if (child instanceof StdioClient) await withTimeout(child.handshake(), 30_000, `${s.label}: no answer to initialize`);
    await sleep(SETTLE_MS);
    return { mib: rssMiB(child.pid), treeMib: treeRssMiB(child.pid) };
  } finally {
    await child.stop();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms, undefined, { ref: false }).then((): never => {
      throw new Error(why);
    }),
  ]);
}

export async function run(options: PartOptions): Promise<Row[]> {
  const part = 'generator';
  const gen = await generateTimes(options);
  const rows: Row[] = [
    {
      part,
      subject: 'wiregen generate (all pins + fixtures)',
      metric: 'wall s',
      value: median(gen.ms) / 1000,
      note: `${gen.ms.length === 1 ? '1 run' : `median of ${gen.ms.length}`} in a scratch copy; ${gen.lastLines.slice(0, 100)}`,
      detail: { ms: gen.ms },
    },
  ];
  const rss: { label: string; mib: number; treeMib: number }[] = [];
  for (const s of RSS_SUBJECTS) {
    const { mib, treeMib } = await idleRss(s);
    options.log(`generator: idle RSS ${s.label}: ${mib.toFixed(1)} MiB (with child processes ${treeMib.toFixed(1)} MiB)`);
    rss.push({ label: s.label, mib, treeMib });
  }
  for (const r of rss) {
    const peer = RSS_SUBJECTS.find((x) => x.label === r.label)!.peer;
    const peerMib = peer ? rss.find((x) => x.label === peer)?.mib : undefined;
    rows.push({
      part,
      subject: r.label,
      metric: 'idle RSS MiB',
      value: r.mib,
      detail: { withChildProcesses: r.treeMib },
      ...(peerMib ? { ratio: r.mib / peerMib, ratioLabel: 'peer', note: 'under tsx (no compiled build yet), as the peers' } : {}),
    });
  }
  return rows;
}
