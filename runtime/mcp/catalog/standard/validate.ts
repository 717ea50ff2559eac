/**
 * @module mcp/catalog/standard/validate — runs a Standard Schema's own validate (`~standard.validate`,
 * https://standardschema.dev) on a value and says what is wrong the way the ajv-compiled checks do
 * (errors.ts describeSchemaErrors): `<JSON pointer> <reason>; …`, the pointer built from each reported problem's `path`
 * (RFC 6901), the reason the library's message. On success the value is the library's output: its
 * transforms, coercions, defaults and refinements apply, as they would in the author's own code.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Parsed, Parser } from '../types.ts';

/** How many problems one message lists (the same bound as describeSchemaErrors). */
const LISTED_PROBLEMS = 10;

const SPECIAL = /[~/]/;
/**
 * One path segment as RFC 6901 writes it: `~` as `~0`, `/` as `~1`. Only a key that has one is rewritten
 * (`replaceAll` on every key took 0.6 µs a segment on Node 22, bench/standard-schema.ts).
 */
function escapeSegment(key: PropertyKey): string {
  if (typeof key === 'number') return String(key);
  const text = typeof key === 'string' ? key : String(key);
  return SPECIAL.test(text) ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

/** The JSON pointer of a reported problem's path (StandardSchemaV1.Issue `path`) (`''` for the whole value). */
export function pathPointer(path: StandardSchemaV1.Issue['path']): string {
  let pointer = '';
  for (const segment of path ?? []) pointer += `/${escapeSegment(typeof segment === 'object' && segment !== null ? segment.key : segment)}`;
  return pointer;
}

/** Every problem the library reported, each `<JSON pointer> <message>` (`(root)` for the whole value), joined by "; ". */
export function describeFailure(reported: readonly StandardSchemaV1.Issue[]): string {
  // A loop rather than map and a Set: the problems are few, and this runs on every rejected call.
  const lines: string[] = [];
  for (const problem of reported) {
    const line = `${pathPointer(problem.path) || '(root)'} ${problem.message}`;
    if (!lines.includes(line)) lines.push(line);
  }
  if (!lines.length) return '(root) is invalid';
  const more = lines.length > LISTED_PROBLEMS ? `; … (${lines.length - LISTED_PROBLEMS} more)` : '';
  return lines.slice(0, LISTED_PROBLEMS).join('; ') + more;
}

const settle = (result: StandardSchemaV1.Result<unknown>): Parsed =>
  result.issues ? { ok: false, problems: describeFailure(result.issues) } : { ok: true, value: result.value };

/** A {@link Parser} of a Standard Schema: synchronous when the library's validate is (Zod's, Valibot's, ArkType's are). */
export function standardParser(schema: StandardSchemaV1): Parser {
  const validate = schema['~standard'].validate;
  return (value) => {
    const result = validate(value);
    return result instanceof Promise ? result.then(settle) : settle(result);
  };
}
