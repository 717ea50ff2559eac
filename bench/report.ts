/**
 * @module bench/report — the generated part of BENCHMARKS.md, from one run's JSON (`npm run bench -- --save
 * <file>`): the machine, the command, the load average of each part, every target met or not, every row, and
 * the top of each profile of a missed target. With `--write`, replaces what lies between the
 * `<!-- bench:begin -->` and `<!-- bench:end -->` lines of BENCHMARKS.md, and writes its charts (bench/lib/chart.ts:
 * one per part and workload) to bench/charts/<part>[-<workload>].svg, removing charts the run no longer has;
 * otherwise prints it.
 *
 *   node --import tsx bench/report.ts bench/results/latest.json [--write]
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chartFiles } from './lib/chart-svg.ts';
import { COLD_BEGIN, COLD_END, renderColdRuntimes } from './cold-runtimes/table.ts';
import { ROOT } from './lib/proc.ts';
import type { Share } from './lib/profile.ts';
import { renderTable, type Row } from './lib/table.ts';
import { renderTargets, type ProfileReport, type TargetResult } from './lib/targets.ts';

interface Results {
  readonly command: string;
  readonly commit?: string;
  readonly machine: { nproc: number; cpu: string; memGiB: number; node: string; nodeExtraCaCerts?: boolean };
  readonly seconds: number;
  readonly parts: {
    part: string;
    seconds: number;
    loadavgBefore: number[];
    loadavgAfter: number[];
    stealPct?: number;
    attempts?: { seconds: number; stealPct?: number }[];
  }[];
  readonly targets: TargetResult[];
  readonly rows: Row[];
  readonly failures: { part: string; error: string }[];
}

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: report <results.json> [--write]\n');
  process.exit(2);
}
const r = JSON.parse(readFileSync(file, 'utf8')) as Results;
const BEGIN = '<!-- bench:begin -->';
const END = '<!-- bench:end -->';

function profiles(): string[] {
  const seen = new Set<ProfileReport>();
  const out: string[] = [];
  const shares = (title: string, list: readonly Share[], n: number) => [
    `  ${title}:`,
    ...list.slice(0, n).map((s) => `    ${s.pct.toFixed(1).padStart(5)}%  ${s.what}`),
  ];
  for (const t of r.targets)
    for (const p of t.profiles ?? []) {
      const key = [...seen].find((q) => q.subject === p.subject && q.targets.join() === p.targets.join());
      if (key) continue;
      seen.add(p);
      out.push(`**${p.targets.join(', ')}**: ${p.subject}.`, '', '```');
      if (p.summary) {
        out.push(`${p.summary.file}: ${p.summary.busyS.toFixed(2)} s busy of ${p.summary.sampledS.toFixed(2)} s sampled; % of busy time`);
        out.push(
          ...shares('self time by function', p.summary.self, 12),
          ...shares('inclusive, this project', p.summary.project, 8),
          ...shares('self time by file or package', p.summary.byFile, 8),
        );
      }
      if (p.memory)
        for (const [who, m] of Object.entries(p.memory))
          out.push(
            `${who.padEnd(28)} ${m ? `RSS ${m.rss.toFixed(1)} MiB: anonymous ${m.anonymous.toFixed(1)}, file-backed ${m.file.toFixed(1)}` : '—'}`,
          );
      if (p.note) out.push(p.note);
      out.push('```', '');
    }
  return out;
}

const charts = chartFiles(r.rows);

const { machine: m } = r;
const load = r.parts.map((p) => `${p.part} ${p.loadavgBefore[0]!.toFixed(1)}→${p.loadavgAfter[0]!.toFixed(1)}`).join(', ');
const steals = r.parts.filter((p) => p.stealPct !== undefined);
const steal = steals.length
  ? ` Time stolen by the hypervisor (/proc/stat steal, share of all CPU time) during each part: ${steals
      .map((p) =>
        p.attempts
          ? `${p.part} ${p.stealPct!.toFixed(1)} % (run ${p.attempts.length} times: ${p.attempts.map((a) => `${a.stealPct?.toFixed(1) ?? '?'} %`).join(', ')}; the last kept)`
          : `${p.part} ${p.stealPct!.toFixed(1)} %`,
      )
      .join(', ')}.`
  : '';
const text = [
  BEGIN,
  '',
  `**Machine**: \`nproc\` ${m.nproc}; CPU \`${m.cpu}\`; ${m.memGiB} GiB; Node \`${m.node}\`${m.nodeExtraCaCerts ? "; NODE_EXTRA_CA_CERTS set, and left out of the servers' environment (one cold-start row keeps it)" : ''}. Load average (1 min) at the start and end of each part: ${load}.${steal}`,
  '',
  `**Command**: \`${r.command}\` at commit ${r.commit ?? 'unknown'}; ${r.seconds.toFixed(0)} s. The raw results (every round of every subject, the per-definition rates, the profiles): [${relative(ROOT, file)}](${relative(ROOT, file)}).${r.failures.length ? ` **Failed parts**: ${r.failures.map((f) => f.part).join(', ')}.` : ''}`,
  '',
  '### Targets',
  '',
  renderTargets(r.targets),
  '',
  '### Every measurement',
  '',
  '"ratio vs peer" is ours ÷ the peer, paired within each round: the median over rounds, then (min–max). Above 1 is better for rates, below 1 for CPU, latency, memory and time.',
  '',
  renderTable(r.rows),
  '',
  '### Charts',
  '',
  'One chart per part and workload, from the rows above: each rate and CPU per request by subject, ours in orange.',
  '',
  ...charts.flatMap((c) => [`![${c.title}](${c.file})`, '']),
  '### Profiles of the targets not met',
  '',
  ...profiles(),
  END,
].join('\n');

// The cold start by runtime, one table (its own section of BENCHMARKS.md), when the run has the part.
const cold = renderColdRuntimes(r.rows);
const coldText = cold
  ? [
      COLD_BEGIN,
      '',
      `\`${r.command}\` at commit ${r.commit ?? 'unknown'}; \`nproc\` ${m.nproc}; CPU \`${m.cpu}\`; Node \`${m.node}\`; load average ${r.parts.find((p) => p.part === 'cold-runtimes')?.loadavgBefore[0]?.toFixed(1) ?? '?'} at the start of the part. Medians over the rounds, ms from spawn to the first answer.`,
      '',
      cold,
      '',
      COLD_END,
    ].join('\n')
  : '';

/** `md` with what lies between `begin` and `end` (the markers included) replaced by `block`. */
function replaced(md: string, begin: string, end: string, block: string): string {
  const [a, b] = [md.indexOf(begin), md.indexOf(end)];
  if (a < 0 || b < 0) throw new Error(`BENCHMARKS.md: no ${begin} … ${end} section`);
  return md.slice(0, a) + block + md.slice(b + end.length);
}

if (flags.includes('--write')) {
  const path = join(ROOT, 'BENCHMARKS.md');
  let md = readFileSync(path, 'utf8');
  // A run of the cold start by runtime alone leaves the rest of the generated part as it is, and the other way round.
  if (r.rows.some((row) => row.part !== 'cold-runtimes')) {
    md = replaced(md, BEGIN, END, text);
    const dir = join(ROOT, 'bench/charts');
    mkdirSync(dir, { recursive: true });
    const keep = new Set(charts.map((c) => c.file.slice('bench/charts/'.length)));
    for (const f of readdirSync(dir)) if (f.endsWith('.svg') && !keep.has(f)) rmSync(join(dir, f));
    for (const c of charts) writeFileSync(join(ROOT, c.file), c.svg);
  }
  if (coldText) md = replaced(md, COLD_BEGIN, COLD_END, coldText);
  writeFileSync(path, md);
} else process.stdout.write(`${text}\n${coldText ? `\n${coldText}\n` : ''}`);
