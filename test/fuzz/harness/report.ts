/**
 * @module test/fuzz/harness/report — what a fuzz run found, per target: messages sent, answers checked,
 * the slowest answer, the highest RSS, and the violations (counted by rule, the first few kept with the
 * message that caused them, cut short).
 */

export interface TargetReport {
  readonly name: string;
  sent: number;
  answers: number;
  slowestMs: number;
  maxRssMb: number;
  readonly violations: Map<string, number>;
  readonly samples: string[];
}

export function targetReport(name: string): TargetReport {
  return { name, sent: 0, answers: 0, slowestMs: 0, maxRssMb: 0, violations: new Map(), samples: [] };
}

/** Records a violation of `rule`; `detail` (the message, the answer) is kept for the first ten. */
export function violation(report: TargetReport, rule: string, detail: string): void {
  report.violations.set(rule, (report.violations.get(rule) ?? 0) + 1);
  if (report.samples.length < 10) report.samples.push(`${rule}: ${detail.length > 300 ? `${detail.slice(0, 300)}…` : detail}`);
}

export function totalViolations(reports: readonly TargetReport[]): number {
  let n = 0;
  for (const r of reports) for (const count of r.violations.values()) n += count;
  return n;
}

/** A few lines per target. */
export function formatReport(reports: readonly TargetReport[], seed: number, seconds: number): string {
  const lines = [`fuzz: seed ${seed}, ${seconds.toFixed(1)} s, ${totalViolations(reports)} violation(s)`];
  for (const r of reports) {
    const v = [...r.violations].map(([rule, n]) => `${rule} ×${n}`).join(', ') || 'none';
    lines.push(
      `  ${r.name}: ${r.sent} sent, ${r.answers} answers checked, slowest ${Math.round(r.slowestMs)} ms, max RSS ${Math.round(r.maxRssMb)} MB; violations: ${v}`,
    );
    for (const s of r.samples) lines.push(`    ${s}`);
  }
  return lines.join('\n');
}
