/**
 * @module bench/cold-runtimes/table — the part's rows as one table per runtime, for BENCHMARKS.md "Cold start
 * by runtime" (bench/report.ts writes it between `<!-- cold-runtimes:begin -->` and `<!-- cold-runtimes:end -->`):
 * ours, SDK v2, the paired ratio with its spread, the hello floor; a runtime or server that did not run shows why.
 */
import type { Row } from '../lib/table.ts';

export const COLD_BEGIN = '<!-- cold-runtimes:begin -->';
export const COLD_END = '<!-- cold-runtimes:end -->';

const ms = (r: Row | undefined) => (r === undefined ? '—' : r.value === null ? `not run: ${r.note ?? ''}` : `${r.value.toFixed(0)}`);
const f = (x: number) => x.toFixed(2);

/** The Markdown table of the `cold-runtimes` rows (none: an empty string). */
export function renderColdRuntimes(rows: readonly Row[]): string {
  const mine = rows.filter((r) => r.part === 'cold-runtimes');
  if (!mine.length) return '';
  const lines = [
    '| runtime | ours ms | SDK v2 ms | ours ÷ SDK v2 (min–max over rounds) | hello floor ms | ours / SDK v2 above the floor, ms | how each is served |',
    '|---|---:|---:|---|---:|---:|---|',
  ];
  for (const runtime of ['node', 'bun', 'deno', 'workerd']) {
    const of = (prefix: string) => mine.find((r) => r.subject.startsWith(`${prefix}, ${runtime}, first answer`));
    const ours = of('ours');
    const sdk = of('SDK v2 2.4.0');
    if (!ours && !sdk) continue;
    const hello = mine.find((r) => r.subject === `hello handler (the floor), ${runtime}`);
    const s = ours?.spread;
    const ratio = s ? `**${f(s.median)}** (${f(s.min)}–${f(s.max)}, ${s.rounds.length} rounds)` : (ours?.note ?? '—');
    const how = /\((.*)\)$/.exec((ours ?? sdk)!.subject)?.[1] ?? '';
    const above = (who: string) => mine.find((r) => r.subject === `${who}, ${runtime}, above the hello floor`);
    const aboveText = hello ? `${ms(above('ours'))} / ${ms(above('SDK v2 2.4.0'))}` : '—';
    lines.push(`| ${runtime} | ${ms(ours)} | ${ms(sdk)} | ${ratio} | ${hello ? ms(hello) : '—'} | ${aboveText} | ${how} |`);
    const modern = mine.find((r) => r.subject.startsWith(`ours, 2026-07-28 only bundled, ${runtime}`));
    const m = modern?.spread;
    if (modern)
      lines.push(
        `| ${runtime}, ours with 2026-07-28 only | ${ms(modern)} | ${ms(sdk)} | ${m ? `**${f(m.median)}** (${f(m.min)}–${f(m.max)}, ${m.rounds.length} rounds)` : (modern.note ?? '—')} | — | — | the other MCP revisions aliased away, as docs/deployment.md tells a Worker |`,
      );
  }
  return lines.join('\n');
}
