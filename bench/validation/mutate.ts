/**
 * @module bench/validation/mutate — invalid messages of each kind, built from valid ones: for every member of a
 * message (at any depth, named by its JSON pointer), the message with that member removed, and with that
 * member given a value of another JSON type. Only the mutants the caller's predicate keeps (both validators
 * reject them) count; of those, each message gives up to three: the shallowest, the deepest and one between,
 * so the reject corpus mixes errors found at once with errors found deep in a message.
 */

export interface Mutant {
  /** `drop /params/name` or `/params/arguments/a → "not a number"`. */
  readonly what: string;
  readonly data: unknown;
}

/** Deeper than this is not mutated (the corpus's messages are shallower). */
const MAX_DEPTH = 8;
/** Mutants kept per message. */
const PER_MESSAGE = 3;

/** A value of another JSON type than `v`'s. */
function otherType(v: unknown): unknown {
  if (typeof v === 'string') return 12345;
  if (typeof v === 'number') return 'not a number';
  if (typeof v === 'boolean') return 'true';
  if (Array.isArray(v)) return 'not an array';
  if (v === null) return 12345;
  return ['not', 'an', 'object'];
}

const pointer = (path: readonly (string | number)[]) => `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** A copy of `data` with the member at `path` replaced by `f(value)`, or removed when `f` returns `DROP`. */
const DROP = Symbol('drop');
function edit(data: unknown, path: readonly (string | number)[], f: (v: unknown) => unknown): unknown {
  if (path.length === 0) return f(data);
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(data)) {
    const copy = [...data];
    const next = edit(copy[head as number], rest, f);
    if (next === DROP) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  const copy = { ...(data as Record<string, unknown>) };
  const next = edit(copy[head as string], rest, f);
  if (next === DROP) delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

/** Every member's path, depth first, in the message's own order. */
function paths(data: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (prefix.length >= MAX_DEPTH || data === null || typeof data !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(data) ? data.map((v, i) => [i, v]) : Object.entries(data);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

/** The mutants of `data` that `keep` keeps, up to three (see the module comment). */
export function mutations(data: unknown, keep: (mutant: unknown) => boolean): Mutant[] {
  const kept: (Mutant & { depth: number })[] = [];
  for (const path of paths(data)) {
    const at = pointer(path);
    const candidates: Mutant[] = [
      { what: `drop ${at}`, data: edit(data, path, () => DROP) },
      {
        what: `${at} → ${JSON.stringify(otherType(path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], data)))}`,
        data: edit(data, path, otherType),
      },
    ];
    for (const m of candidates) if (keep(m.data)) kept.push({ ...m, depth: path.length });
  }
  if (kept.length <= PER_MESSAGE) return kept.map(({ what, data }) => ({ what, data }));
  const byDepth = kept.map((m, i) => ({ m, i })).sort((a, b) => a.m.depth - b.m.depth || a.i - b.i);
  const picks = [...new Set([0, Math.floor(byDepth.length / 2), byDepth.length - 1])];
  return picks.map((i) => ({ what: byDepth[i]!.m.what, data: byDepth[i]!.m.data }));
}
