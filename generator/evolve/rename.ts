/**
 * @module evolve/rename — a member removed and one added in the same place, told apart from a rename: when
 * exactly one went and exactly one came, and they are alike (the same schema, the same required-ness), a user's
 * spec diff reports one rename (PROPERTY_RENAMED, PROMPT_ARGUMENT_RENAMED) instead of a removal and an addition.
 * Any other case (two removed, one added; another schema) stays two findings: the pairing would be a guess.
 */
import { isObject, type Json } from '../load/schema.ts';

/** Keywords that say nothing about the values a schema allows (JSON Schema 2020-12, "Meta-Data Annotations"). */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment']);

/** `v` as JSON with its object keys sorted and its annotation keywords left out, for comparing two schemas. */
export function canonical(v: Json | undefined): string {
  const walk = (x: Json | undefined): Json | undefined => {
    if (Array.isArray(x)) return x.map((y) => walk(y) ?? null);
    if (!isObject(x)) return x;
    const keys = Object.keys(x)
      .filter((k) => !ANNOTATIONS.has(k))
      .sort();
    return Object.fromEntries(keys.map((k) => [k, walk(x[k]) ?? null]));
  };
  return JSON.stringify(walk(v)) ?? 'undefined';
}

/** The one pair (removed, added) when exactly one of each is there and `alike` holds for them; else none. */
export function soleRename<T>(removed: readonly T[], added: readonly T[], alike: (x: T, y: T) => boolean): [T, T] | undefined {
  if (removed.length !== 1 || added.length !== 1) return undefined;
  const [x, y] = [removed[0]!, added[0]!];
  return alike(x, y) ? [x, y] : undefined;
}
