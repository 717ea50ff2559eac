/**
 * @module bench/generator — part 6: the wall time of a full `wiregen generate` (every pin and sample, the
 * packages formatted and written, the swap into generated/), from spawn to exit, run as a user runs it: the
 * built command (generator/dist/bin.js, what the `wiregen` package's bin is; `npm run build` first), not the
 * repository's bin/wiregen.mjs, which compiles the TypeScript sources with tsx at every start. And the CPU time the
 * process used (user + system, all its threads; on a busy machine the wall time grows with the load, the
 * CPU time much less). Two runs; the faster counts (the work is the same, the slower one met more load).
 *
 * `generate` writes generated/, which this suite must not touch: it runs in a scratch copy of the inputs it
 * reads (bin/, generator/, schemas/, samples/, runtime/, generated/, package.json; node_modules linked) under
 * the system temp folder, which is removed afterwards.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartOptions } from '../lib/part.ts';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from '../lib/built.ts';
import { BENCH, ROOT, runNode } from '../lib/proc.ts';
import { cpuProfArgs, summarizeDir } from '../lib/profiling.ts';
import type { Row } from '../lib/table.ts';
import type { ProfileReport } from '../lib/targets.ts';

const COPY = ['bin', 'generator', 'schemas', 'samples', 'runtime', 'generated', 'package.json', 'tsconfig.json'];
/** Full generates measured (about 9 s each on an idle machine of this size; they dominate the part's time). */
const GENERATE_RUNS = 2;
/** Preloaded into each generate: its CPU time, printed at exit. */
const CPU_AT_EXIT = ['--import', pathToFileURL(join(BENCH, 'lib/cpu-at-exit.mjs')).href];
/** The target: a full generate under 10 s on this machine. */
const TARGET_S = 10;

/** `wiregen generate` in a scratch copy, `runs` times (with `nodeArgs` before the command). */
async function generateTimes(
  options: PartOptions,
  runs: number,
  nodeArgs: readonly string[] = [],
): Promise<{ ms: number[]; cpuS: number[]; lastLine: string }> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-bench-generate-'));
  try {
    for (const entry of COPY) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const ms: number[] = [];
    const cpuS: number[] = [];
    let lastLine = '';
    for (let i = 0; i < runs; i++) {
      const r = await runNode([...CPU_AT_EXIT, ...nodeArgs, join(dir, 'generator/dist/bin.js'), 'generate'], { cwd: dir, timeoutMs: 300_000 });
      const cpu = JSON.parse(/^@@cpu (.*)$/m.exec(r.stderr)?.[1] ?? '{"userS":null,"systemS":null}') as { userS: number; systemS: number };
      ms.push(r.ms);
      cpuS.push(cpu.userS + cpu.systemS);
      lastLine =
        (r.stdout + r.stderr)
          .replace(/^@@cpu .*$/m, '')
          .trim()
          .split('\n')
          .at(-1) ?? '';
      options.log(`generator: full generate ${(r.ms / 1000).toFixed(2)} s, ${cpuS.at(-1)!.toFixed(2)} CPU s`);
    }
    return { ms, cpuS, lastLine };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(options: PartOptions): Promise<Row[]> {
  const gen = await generateTimes(options, GENERATE_RUNS);
  const best = gen.ms.indexOf(Math.min(...gen.ms));
  const s = gen.ms[best]! / 1000;
  const subject = 'wiregen generate (all pins + samples)';
  return [
    {
      part: 'generator',
      subject,
      metric: 'wall s',
      value: s,
      target: `< ${TARGET_S} s`,
      targetId: 'generate',
      met: s < TARGET_S,
      note: `the faster of ${gen.ms.length} runs (${gen.ms.map((x) => (x / 1000).toFixed(1)).join(', ')} s) in a scratch copy; ${gen.lastLine.slice(0, 100)}`,
      detail: { ms: gen.ms, cpuS: gen.cpuS },
    },
    {
      part: 'generator',
      subject,
      metric: 'CPU s',
      value: gen.cpuS[best]!,
      note: 'user + system of that run, all threads',
      detail: { cpuS: gen.cpuS },
    },
  ];
}

export async function profileMisses(options: PartOptions, ids: readonly string[]): Promise<ProfileReport[]> {
  const dir = join(options.missProfDir, 'generator');
  await generateTimes(options, 1, cpuProfArgs(dir));
  return [{ targets: ids, subject: 'wiregen generate (all pins + samples) under --cpu-prof, in a scratch copy', summary: summarizeDir(dir) }];
}
