/**
 * @module evolve/report — `wiregen diff` output: one line per finding (text) or one JSON document, and
 * the exit code (100 when anything breaks, as `buf breaking` exits; 0 otherwise).
 */
import { formatDiagnostic } from '../errors.ts';
import { countByClass, isBreaking, type Finding } from './findings.ts';

/** The findings between two versions of one pin, or two pins. */
export interface Comparison {
  readonly from: string;
  readonly to: string;
  readonly findings: readonly Finding[];
}

/** `buf breaking` exits 100 when it finds a breaking change. */
export const EXIT_BREAKING = 100;

export function exitCode(comparisons: readonly Comparison[]): number {
  return comparisons.some((c) => c.findings.some(isBreaking)) ? EXIT_BREAKING : 0;
}

/** `12 wire-breaking, 0 source-breaking, 30 compatible`. */
export function countsLine(findings: readonly Finding[]): string {
  const n = countByClass(findings);
  return `${n['wire-breaking']} wire-breaking, ${n['source-breaking']} source-breaking, ${n.compatible} compatible`;
}

/** `<file>[:<line>:<col>][ <pointer>]`, as diagnostics print it. */
export function where(f: Finding): string {
  return formatDiagnostic({
    file: f.file,
    ...(f.line !== undefined ? { line: f.line, column: f.column ?? 1 } : {}),
    ...(f.pointer !== undefined ? { pointer: f.pointer } : {}),
    message: '',
  }).slice(0, -2);
}

/** Text output: a heading per comparison, then `<class> <RULE> <where>: <message>` per finding. */
export function formatText(comparisons: readonly Comparison[]): string[] {
  const lines: string[] = [];
  for (const c of comparisons) {
    lines.push(`${c.from} → ${c.to}: ${countsLine(c.findings)}`);
    for (const f of c.findings) lines.push(`  ${f.class.padEnd(15)} ${f.rule.padEnd(28)} ${where(f)}: ${f.message}`);
  }
  return lines;
}

/** JSON output: `{ comparisons: [{ from, to, counts, findings }], breaking }`. */
export function formatJson(comparisons: readonly Comparison[]): string {
  return JSON.stringify(
    {
      comparisons: comparisons.map((c) => ({ from: c.from, to: c.to, counts: countByClass(c.findings), findings: c.findings })),
      breaking: comparisons.some((c) => c.findings.some(isBreaking)),
    },
    null,
    2,
  );
}
