/**
 * @module bench/startup — cold start and idle memory of an MCP stdio server, ours as users run it (built
 * packages, plain JavaScript: bench/servers/wiregen-stdio.ts via bench/lib/built.ts) against the official SDK
 * v2 (`@modelcontextprotocol/server` 2.4.0, plain JavaScript: bench/servers/v2-stdio.mjs).
 *
 * Cold start: from spawn to the answer of the first request (each subject in both eras: an `initialize` of
 * 2025-11-25, and a 2026-07-28 `tools/call`), a fresh process each time. Idle RSS: the same process one second
 * after that answer. Subjects alternate within every round and each round gives one ratio ours / peer; the rows
 * report the median over rounds with the min and max ratio.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { builtServer } from '../lib/built.ts';
import type { PartOptions } from '../lib/part.ts';
import { BENCH, NODE, ROOT, rssMiB, sleep } from '../lib/proc.ts';
import { median, type Row } from '../lib/table.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const FIRST = {
  handshake: {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  stateless: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: META } },
} as const;
type Era = keyof typeof FIRST;

/** Spawns `node file`, sends the first request, and measures until its answer; then the RSS a second later. */
async function once(file: string, era: Era): Promise<{ ms: number; rss: number }> {
  const t0 = performance.now();
  const child = spawn(NODE, [file], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const answered = new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const nl = buf.indexOf('\n');
        if (nl >= 0) resolve(buf.slice(0, nl));
      });
      child.once('exit', (code) => reject(new Error(`${file} exited ${code} before answering`)));
    });
    child.stdin.write(`${JSON.stringify(FIRST[era])}\n`);
    const line = await answered;
    const ms = performance.now() - t0;
    if (!line.includes('"result"')) throw new Error(`${file} (${era}): ${line}`);
    await sleep(1000);
    return { ms, rss: rssMiB(child.pid!) };
  } finally {
    child.stdin.end();
    child.kill('SIGKILL');
  }
}

function summary(ratios: number[]): { median: number; min: number; max: number } {
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

export async function run(options: PartOptions): Promise<Row[]> {
  const ours = await builtServer('servers/wiregen-stdio.ts');
  const peer = join(BENCH, 'servers/v2-stdio.mjs');
  const rounds = Math.max(5, options.rounds * 3);
  const rows: Row[] = [];
  for (const era of ['handshake', 'stateless'] as const) {
    const acc = { ours: [] as { ms: number; rss: number }[], peer: [] as { ms: number; rss: number }[] };
    await once(ours, era); // warm the file system cache for both before measuring
    await once(peer, era);
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so neither always runs on a machine the other has just warmed.
      const order = r % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
      for (const who of order) acc[who].push(await once(who === 'ours' ? ours : peer, era));
    }
    options.log(`startup ${era}: ours ${median(acc.ours.map((x) => x.ms)).toFixed(0)} ms, v2 ${median(acc.peer.map((x) => x.ms)).toFixed(0)} ms`);
    const label = era === 'handshake' ? 'initialize 2025-11-25' : 'tools/call 2026-07-28';
    const cold = summary(acc.ours.map((x, i) => x.ms / acc.peer[i]!.ms));
    const rss = summary(acc.ours.map((x, i) => x.rss / acc.peer[i]!.rss));
    const detail = { rounds, ours: acc.ours, peer: acc.peer, ratioMin: cold.min, ratioMax: cold.max };
    rows.push(
      {
        part: 'startup',
        subject: `ours (built packages), first answer: ${label}`,
        metric: 'cold start ms',
        value: median(acc.ours.map((x) => x.ms)),
        ratio: cold.median,
        ratioLabel: 'of SDK v2',
        target: '≤ 0.6× SDK v2',
        met: cold.median <= 0.6,
        note: `ratio min ${cold.min.toFixed(2)}, max ${cold.max.toFixed(2)} over ${rounds} paired rounds`,
        detail,
      },
      {
        part: 'startup',
        subject: `SDK v2 2.4.0 (plain JS), first answer: ${label}`,
        metric: 'cold start ms',
        value: median(acc.peer.map((x) => x.ms)),
      },
      {
        part: 'startup',
        subject: `ours (built packages), idle after ${label}`,
        metric: 'RSS MiB',
        value: median(acc.ours.map((x) => x.rss)),
        ratio: rss.median,
        ratioLabel: 'of SDK v2',
        target: '≤ 0.8× SDK v2',
        met: rss.median <= 0.8,
        note: `ratio min ${rss.min.toFixed(2)}, max ${rss.max.toFixed(2)}`,
      },
      { part: 'startup', subject: `SDK v2 2.4.0 (plain JS), idle after ${label}`, metric: 'RSS MiB', value: median(acc.peer.map((x) => x.rss)) },
    );
  }
  return rows;
}
