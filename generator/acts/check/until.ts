/**
 * @module acts/check/until — `repeat.until` conditions (§9.1): `path == value`, `path != value`,
 * `path in [v1, v2, …]`. A value is a YAML-like scalar: a number, true, false, null, a quoted string, or else a
 * bare word (`TASK_STATE_COMPLETED`).
 */
import { parsePath, type Segment, valueAt } from './paths.ts';

export interface Until {
  readonly path: readonly Segment[];
  readonly op: '==' | '!=' | 'in';
  readonly values: readonly unknown[];
}

function scalar(text: string): unknown {
  const t = text.trim();
  if (/^(["']).*\1$/.test(t)) return t.slice(1, -1);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t;
}

/** The condition `text`, or a message saying why it is not one. */
export function parseUntil(text: string): Until | string {
  const m = /^\s*(\S+)\s*(==|!=|\bin\b)\s*(.+?)\s*$/.exec(text);
  if (!m) return `until ${JSON.stringify(text)} is not "path == value", "path != value" or "path in [values]" (§9.1)`;
  const path = parsePath(m[1]!);
  if (typeof path === 'string') return path;
  const op = m[2] as Until['op'];
  if (op !== 'in') return { path, op, values: [scalar(m[3]!)] };
  const list = /^\[(.*)\]$/.exec(m[3]!);
  if (!list) return `until ${JSON.stringify(text)}: "in" takes a list, [v1, v2] (§9.1)`;
  return { path, op, values: list[1]!.trim() === '' ? [] : list[1]!.split(',').map(scalar) };
}

/** Whether `until` holds of `root`, and the value it read. */
export function holds(until: Until, root: unknown): { ok: boolean; actual: unknown } {
  const actual = valueAt(root, until.path);
  const equal = until.values.some((v) => v === actual);
  return { ok: until.op === '!=' ? !equal : equal, actual };
}
