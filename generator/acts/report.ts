/**
 * @module acts/report — the JSON report of §13 (one per binding: §13.1 has one `transport`), its file name
 * (§13.5: `acts-report-{sdk}-{transport}-{timestamp}.json`), and the summary and table printed on stdout
 * (§12.7).
 */
import { ERRATA } from './format/errata.ts';
import type { Level, Suite } from './format/model.ts';
import type { TestResult } from './run/result.ts';

export interface LevelSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
}

/** §13.1 `acts-report`. */
export interface ActsReport {
  readonly acts_version: string;
  readonly spec_version: string;
  readonly generated_at: string;
  readonly sdk: { readonly name: string; readonly version: string; readonly language: string; readonly repository?: string };
  readonly transport: 'jsonrpc' | 'grpc' | 'rest';
  readonly environment?: Readonly<Record<string, string>>;
  readonly summary: LevelSummary & { readonly duration_ms: number; readonly by_level: Readonly<Record<Level, LevelSummary>> };
  readonly suites: readonly { readonly id: string; readonly name: string; readonly tests: readonly TestResult[] }[];
}

const empty = (): LevelSummary => ({ total: 0, passed: 0, failed: 0, skipped: 0, errors: 0 });
const FIELD = { pass: 'passed', fail: 'failed', skip: 'skipped', error: 'errors' } as const;

/** The report of one run: `results` per suite, in the suites' order. */
export function buildReport(
  suites: readonly Suite[],
  results: ReadonlyMap<Suite, readonly TestResult[]>,
  info: { transport: ActsReport['transport']; sdk: ActsReport['sdk']; durationMs: number; generatedAt: Date },
): ActsReport {
  const total = empty();
  const byLevel: Record<Level, LevelSummary> = { must: empty(), should: empty(), may: empty() };
  const out: ActsReport['suites'][number][] = [];
  for (const suite of suites) {
    const tests = results.get(suite) ?? [];
    if (tests.length === 0) continue;
    for (const t of tests) {
      total.total++;
      total[FIELD[t.result]]++;
      byLevel[t.level].total++;
      byLevel[t.level][FIELD[t.result]]++;
    }
    out.push({ id: suite.id, name: suite.name, tests });
  }
  const first = suites[0];
  return {
    acts_version: first?.actsVersion ?? '1.0',
    spec_version: first?.specVersion ?? '1.0',
    generated_at: info.generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    sdk: info.sdk,
    transport: info.transport,
    environment: { os: `${process.platform}-${process.arch}`, runtime: `node ${process.versions.node}`, runner: 'wiregen a2a-conformance' },
    summary: { ...total, duration_ms: info.durationMs, by_level: byLevel },
    suites: out,
  };
}

/** §13.5's file name for `report`. */
export function reportFileName(report: ActsReport): string {
  const sdk =
    report.sdk.name
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^-|-$/g, '') || 'sdk';
  const stamp = report.generated_at.replace(/[-:]/g, '').replace(/\.\d+/, '');
  return `acts-report-${sdk}-${report.transport}-${stamp}.json`;
}

/** §12.7's summary lines. */
export function summaryLines(report: ActsReport): string[] {
  return (['must', 'should', 'may'] as const).map((level) => {
    const s = report.summary.by_level[level];
    const run = s.total - s.skipped;
    const extra = [s.failed && `${s.failed} failed`, s.errors && `${s.errors} errors`, s.skipped && `${s.skipped} skipped`]
      .filter(Boolean)
      .join(', ');
    return `${`${level.toUpperCase()}:`.padEnd(8)}${`${s.passed}/${run}`.padStart(7)} passed${extra ? ` (${extra})` : ''}`;
  });
}

/** The table of a report: one row per test that did not pass, then the summary. */
export function reportTable(report: ActsReport, all = false): string[] {
  const rows: string[][] = [];
  for (const suite of report.suites)
    for (const t of suite.tests)
      if (all || t.result !== 'pass')
        rows.push([
          t.result.toUpperCase(),
          t.level,
          t.id,
          t.result === 'skip'
            ? (t.skip_reason ?? '')
            : t.failure
              ? `${t.failure.step_id ? `[${t.failure.step_id}] ` : ''}${t.failure.message}`
              : t.name,
        ]);
  const widths = [5, 6, Math.max(4, ...rows.map((r) => r[2]!.length))];
  const lines = rows.map(
    (r) => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]!.padEnd(widths[2]!)}  ${r[3]!.replace(/\s+/g, ' ')}`,
  );
  const corrected = report.suites.flatMap((s) => s.tests.filter((t) => t.errata).map((t) => ({ test: t, ids: t.errata! })));
  const errataLines = corrected.flatMap(({ test, ids }) =>
    ids.map((id) => `corrected ${test.id} (${test.result}) by erratum ${id}: ${ERRATA.find((e) => e.id === id)?.reason ?? ''}`),
  );
  return [
    `${report.transport}: ${report.summary.passed}/${report.summary.total} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped, ${report.summary.errors} errors (${report.summary.duration_ms} ms)`,
    ...lines,
    ...errataLines,
    ...summaryLines(report),
  ];
}
