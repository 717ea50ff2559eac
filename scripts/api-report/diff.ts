/**
 * @module scripts/api-report/diff — the first differing lines of two texts, as a unified diff (`-` the
 * committed report, `+` the surface now), cut short after `limit` lines.
 */

type Op = { op: ' ' | '-' | '+'; line: string; a: number; b: number };

/** The edit script between `a` and `b` (longest common subsequence, after their common ends are set aside). */
function ops(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) (endA--, endB--);
  const n = endA - start;
  const m = endB - start;
  // lcs[i][j]: the length of the longest common subsequence of a[start+i..endA) and b[start+j..endB).
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[start + i] === b[start + j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Op[] = [];
  for (let k = 0; k < start; k++) out.push({ op: ' ', line: a[k]!, a: k, b: k });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) out.push({ op: ' ', line: a[start + i]!, a: start + i++, b: start + j++ });
    // A removed line before the line added in its place.
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push({ op: '-', line: a[start + i]!, a: start + i++, b: start + j });
    else out.push({ op: '+', line: b[start + j]!, a: start + i, b: start + j++ });
  }
  for (let k = 0; k < a.length - endA; k++) out.push({ op: ' ', line: a[endA + k]!, a: endA + k, b: endB + k });
  return out;
}

/** A unified diff of `before` → `after` with `context` lines around each change, at most `limit` lines long. */
export function lineDiff(before: string, after: string, options: { context?: number; limit?: number } = {}): string {
  const { context = 3, limit = 60 } = options;
  const all = ops(before.split('\n'), after.split('\n'));
  const changed = all.map((o) => o.op !== ' ');
  const shown = all.map((_, k) => changed.slice(Math.max(0, k - context), k + context + 1).some(Boolean));
  const lines: string[] = [];
  for (let k = 0; k < all.length; k++) {
    if (!shown[k]) continue;
    if (k === 0 || !shown[k - 1]) lines.push(`@@ line ${all[k]!.a + 1} (now ${all[k]!.b + 1}) @@`);
    lines.push(`${all[k]!.op}${all[k]!.line}`);
  }
  if (lines.length <= limit) return lines.join('\n');
  const head = lines.slice(0, limit);
  const total = changed.filter(Boolean).length;
  const seen = head.filter((l) => l[0] === '+' || l[0] === '-').length;
  return [...head, `… ${total} changed lines in all, ${total - seen} more not shown`].join('\n');
}
