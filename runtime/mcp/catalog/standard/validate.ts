/**
 * @module mcp/catalog/standard/validate — runs a Standard Schema's own validate (`~standard.validate`,
 * https://standardschema.dev) on a value and says what is wrong the way the ajv-compiled checks do
 * (errors.ts describeSchemaErrors): `<JSON pointer> <reason>; …`, the pointer built from each issue's `path`
 * (RFC 6901), the reason the library's message. On success the value is the library's output: its
 * transforms, coercions, defaults and refinements apply, as they would in the author's own code.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Parsed, Parser } from '../types.ts';

/** How many issues one message lists (the same bound as describeSchemaErrors). */
const LISTED_ISSUES = 10;

/** One path segment as RFC 6901 writes it: `~` as `~0`, `/` as `~1`. */
const escapeSegment = (key: PropertyKey): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/** The JSON pointer of an issue's path (`''` for the whole value). */
export function issuePointer(path: StandardSchemaV1.Issue['path']): string {
  let pointer = '';
  for (const segment of path ?? []) pointer += `/${escapeSegment(typeof segment === 'object' && segment !== null ? segment.key : segment)}`;
  return pointer;
}

/** Every issue, each `<JSON pointer> <message>` (`(root)` for the whole value), joined by "; ". */
export function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  const lines = [...new Set(issues.map((i) => `${issuePointer(i.path) || '(root)'} ${i.message}`))];
  if (!lines.length) return '(root) is invalid';
  const more = lines.length > LISTED_ISSUES ? `; … (${lines.length - LISTED_ISSUES} more)` : '';
  return lines.slice(0, LISTED_ISSUES).join('; ') + more;
}

const settle = (result: StandardSchemaV1.Result<unknown>): Parsed =>
  result.issues ? { ok: false, problems: describeIssues(result.issues) } : { ok: true, value: result.value };

/** A {@link Parser} of a Standard Schema: synchronous when the library's validate is (Zod's, Valibot's, ArkType's are). */
export function standardParser(schema: StandardSchemaV1): Parser {
  const validate = schema['~standard'].validate;
  return (value) => {
    const result = validate(value);
    return result instanceof Promise ? result.then(settle) : settle(result);
  };
}
