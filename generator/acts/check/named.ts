/**
 * @module acts/check/named — named and inline assertions (§5.5): a source (a reference such as
 * `{{send.response}}`, interpolated, or a bare dot-path whose first segment is a step id), an optional
 * sub-path, and a direct `match` or a collection match (`any`, `all`, `none` over a wildcard path).
 * Reading of the format: `all` over no elements holds (nothing disagrees); `any` over none does not.
 */
import type { NamedAssertion } from '../format/model.ts';
import { type Mismatch, match, show } from './match.ts';
import { parsePath, showPath, valueAt, valuesAt } from './paths.ts';
import { interpolate, type Scope } from './vars.ts';

/** The value a source names. */
function sourceValue(source: string, scope: Scope): unknown {
  if (source.includes('{{')) return interpolate(source, scope);
  const path = parsePath(source);
  if (typeof path === 'string') throw new Error(path);
  const [head, ...rest] = path;
  const step = typeof head === 'string' ? scope.steps.get(head) : undefined;
  if (!step) throw new Error(`source ${JSON.stringify(source)}: no step ${String(head)} ran before`);
  return valueAt(step, rest);
}

/** The mismatches of one named (or inline) assertion; `label` names it in messages. */
export function checkNamed(raw: NamedAssertion, scope: Scope, label: string): Mismatch[] {
  // The expectations may refer to captures (CORE-LIST-001 matches tasks[*] against {{send.taskId}}).
  const a = { ...(interpolate({ ...raw, source: '' }, scope) as NamedAssertion), source: raw.source };
  let value = sourceValue(a.source, scope);
  if (a.path !== undefined) {
    const p = parsePath(a.path);
    if (typeof p === 'string') throw new Error(p);
    value = valueAt(value, p);
  }
  const out: Mismatch[] = [];
  if (a.match !== undefined) out.push(...match(value, a.match, a.path ?? ''));
  for (const kind of ['any', 'all', 'none'] as const) {
    const c = a[kind];
    if (!c) continue;
    const p = parsePath(c.path);
    if (typeof p === 'string') throw new Error(p);
    const items = valuesAt(value, p);
    const results = items.map((item) => match(item, c.match, showPath(p)));
    const passing = results.filter((r) => r.length === 0).length;
    const where = showPath(p);
    if (kind === 'any' && passing === 0)
      out.push({
        path: where,
        expected: `some element matching ${show(c.match)}`,
        actual: items.length === 0 ? 'no elements' : show(items),
        message: `${label}: no element of ${where} (${items.length}) matches ${show(c.match)}`,
      });
    if (kind === 'all' && passing < items.length) {
      const first = results.find((r) => r.length > 0)![0]!;
      out.push({ ...first, message: `${label}: not every element of ${where} matches: ${first.message}` });
    }
    if (kind === 'none' && passing > 0)
      out.push({
        path: where,
        expected: `no element matching ${show(c.match)}`,
        actual: show(items),
        message: `${label}: ${passing} element(s) of ${where} match ${show(c.match)}`,
      });
  }
  return out;
}
