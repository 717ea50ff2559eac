/**
 * @module acts/check/paths — the dot-paths of `capture`, `repeat.until` and collection assertions (§5.2):
 * `task.id`, `task.artifacts[0].parts[0].text`, and `[*]` wildcards (collection assertions only). A key that
 * is not an identifier is written in quotes inside brackets: `error.data[0]["@type"]`.
 */

export type Segment = string | number | '*';

/** The segments of `path`; a string when it is not a dot-path. */
export function parsePath(path: string): Segment[] | string {
  const out: Segment[] = [];
  let i = 0;
  const s = path.trim();
  if (s === '') return [];
  while (i < s.length) {
    if (s[i] === '[') {
      const close = s.indexOf(']', i);
      if (close < 0) return `path ${JSON.stringify(path)}: "[" without "]"`;
      const inner = s.slice(i + 1, close).trim();
      if (inner === '*') out.push('*');
      else if (/^\d+$/.test(inner)) out.push(Number(inner));
      else if (/^(["']).*\1$/.test(inner)) out.push(inner.slice(1, -1));
      else return `path ${JSON.stringify(path)}: [${inner}] is neither an index, * nor a quoted key`;
      i = close + 1;
      if (s[i] === '.') i++;
    } else {
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) return `path ${JSON.stringify(path)}: empty segment at ${i + 1}`;
      out.push(m[0]);
      i += m[0].length;
      if (s[i] === '.') {
        i++;
        if (i === s.length) return `path ${JSON.stringify(path)} ends with "."`;
      }
    }
  }
  return out;
}

/** The value at `segments` of `root` (no wildcards); undefined when a step of the way is missing. */
export function valueAt(root: unknown, segments: readonly Segment[]): unknown {
  let v: unknown = root;
  for (const seg of segments) {
    if (seg === '*') return undefined;
    if (typeof seg === 'number') v = Array.isArray(v) ? v[seg] : undefined;
    else v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[seg] : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** Every value `segments` reaches, `*` standing for each element of an array (or each value of a map). */
export function valuesAt(root: unknown, segments: readonly Segment[]): unknown[] {
  let current: unknown[] = [root];
  for (const seg of segments) {
    const next: unknown[] = [];
    for (const v of current) {
      if (seg === '*') {
        if (Array.isArray(v)) next.push(...v);
        else if (v !== null && typeof v === 'object') next.push(...Object.values(v));
      } else {
        const got = valueAt(v, [seg]);
        if (got !== undefined) next.push(got);
      }
    }
    current = next;
  }
  return current;
}

/** A path for messages: segments joined the way they are written. */
export function showPath(segments: readonly Segment[]): string {
  return segments
    .map((s, i) => (typeof s === 'number' || s === '*' ? `[${s}]` : /^[\w$-]+$/.test(s) ? `${i ? '.' : ''}${s}` : `[${JSON.stringify(s)}]`))
    .join('');
}
