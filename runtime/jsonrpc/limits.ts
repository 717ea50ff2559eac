/**
 * @module jsonrpc/limits — how deep a message may nest. Every walk of a message that recurses (JSON.stringify
 * in logging and serialisation, canonical JSON, the generated validators' JSON-value checks) overflows the
 * stack somewhere past ten thousand levels, so a message nested deeper than `MAX_JSON_DEPTH` is refused where
 * it is read, before anything walks it: -32600 for the envelope, -32602 for `params` (JSON-RPC 2.0,
 * https://www.jsonrpc.org/specification#error_object). The checks themselves never recurse.
 */

/**
 * The deepest nesting of arrays and objects a message may have, the message object itself being level 1
 * (`{"params":{"a":[1]}}` is 3 deep). 128, as serde_json's default recursion limit: far above any schema in
 * the pinned revisions, far below what a recursive walk can take.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Does JSON `text` nest deeper than `max`? A scan of the text (strings skipped), so it costs one pass and
 * builds nothing; text with at most `max` opening brackets is not scanned. Malformed text is scanned as far
 * as it goes (JSON.parse decides whether it parses).
 */
export function textExceedsDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= max || openingsAtMost(text, max)) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip the string with a native search for its closing quote (one preceded by an even run of backslashes).
      let end = text.indexOf('"', i + 1);
      while (end > 0 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      i = end;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/**
 * Whether `text` holds at most `max` opening brackets (in strings or not): then it cannot nest deeper. Native
 * searches that stop past `max`, so the usual message costs a few of them instead of a scan.
 */
function openingsAtMost(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) if (++count > max) return false;
  return true;
}

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === 92; i--) slashes++;
  return slashes % 2 === 1;
}

/**
 * The JSON pointer of the first place where `value` (taken as `levels` deep already) nests deeper than
 * `max`, or undefined when it does not. Iterative, and it stops at `max`: it is safe on any depth.
 */
export function deepPointer(value: unknown, max = MAX_JSON_DEPTH, levels = 0): string | undefined {
  const stack: { node: unknown; depth: number; path: string }[] = [{ node: value, depth: levels, path: '' }];
  while (stack.length) {
    const { node, depth, path } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return path;
    const entries: [string, unknown][] = Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      stack.push({ node: child, depth: depth + 1, path: `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
    }
  }
  return undefined;
}

/** A pointer for a one-line message: its first `segments` segments, then `/…`. */
export function shortPointer(pointer: string, segments = 8): string {
  const parts = pointer.split('/');
  return parts.length <= segments + 1 ? pointer : `${parts.slice(0, segments + 1).join('/')}/…`;
}

/**
 * JSON.stringify without recursion, for a value that may nest deeper than JSON.stringify can take (a body a
 * framework's parser built before the server saw its text). Writes what JSON.stringify writes for JSON data:
 * undefined, functions and symbols are left out of objects and written as null in arrays; toJSON is honoured.
 */
export function stringifyIterative(value: unknown): string {
  const out: string[] = [];
  type Frame = { readonly entries: [string | undefined, unknown][]; i: number; readonly close: string; wrote: boolean };
  const open = (node: unknown): Frame | undefined => {
    const v = toJsonValue(node);
    if (v === null || typeof v !== 'object') {
      out.push(v === undefined ? 'null' : JSON.stringify(v));
      return undefined;
    }
    if (Array.isArray(v)) {
      out.push('[');
      return { entries: v.map((x) => [undefined, x]), i: 0, close: ']', wrote: false };
    }
    out.push('{');
    const entries: [string, unknown][] = [];
    for (const key of Object.keys(v)) {
      const child = toJsonValue((v as Record<string, unknown>)[key]);
      if (child !== undefined) entries.push([key, child]);
    }
    return { entries, i: 0, close: '}', wrote: false };
  };
  const stack: Frame[] = [];
  const first = open(value);
  if (first) stack.push(first);
  while (stack.length) {
    const frame = stack.at(-1)!;
    if (frame.i >= frame.entries.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    const [key, child] = frame.entries[frame.i++]!;
    if (frame.wrote) out.push(',');
    frame.wrote = true;
    if (key !== undefined) out.push(`${JSON.stringify(key)}:`);
    const next = open(child);
    if (next) stack.push(next);
  }
  return out.join('');
}

/** A value as JSON.stringify sees it: toJSON applied, what JSON cannot hold as undefined. */
function toJsonValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(): unknown }).toJSON();
  if (typeof v === 'function' || typeof v === 'symbol' || v === undefined) return undefined;
  if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return v;
}
