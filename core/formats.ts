/**
 * @module core/formats — the JSON Schema `format` checks the generated validators call, as ES module code:
 * importing ajv-formats at run time would load Node's CommonJS loader and ajv's code generator into every
 * server (about 5 MiB of memory and 6 ms of start-up for three small functions). Each check here behaves as
 * ajv-formats 3's "full" format of the same name; test/runtime/formats.test.ts holds them equal on thousands
 * of inputs. The generator refuses a schema whose format is not here (generator/emit/validators.ts).
 *
 * The checks, and the regular expressions below, are ajv-formats' (MIT License, Copyright (c) 2020 Evgeny
 * Poberezkin, https://github.com/ajv-validator/ajv-formats), written as TypeScript.
 */

/** RFC 3339 full-date, with the days of each month (https://www.rfc-editor.org/rfc/rfc3339#section-5.6). */
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** RFC 3339 full-time, a leap second allowed at 23:59:60 UTC. */
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
const DATE_TIME_SEPARATOR = /t|\s/i;
const NOT_URI_FRAGMENT = /\/|:/;
/** RFC 3986 URI (https://www.rfc-editor.org/rfc/rfc3986#appendix-A), scheme required. */
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
/**
 * A subset of {@link URI} that a regular expression engine checks in one pass, for the URIs messages carry
 * (`https://host/path?query#fragment`, `file:///path`, `scheme:path`): a scheme, then either `//` and a
 * host of reg-name characters (no user info, port, IP literal or percent-encoding) or a rootless first
 * segment, then `/`-separated segments, a query and a fragment, none percent-encoded. Every string it
 * matches, URI matches too (the same character classes in URI's authority/path-abempty and path-rootless
 * branches), and contains `:`; a string it does not match is decided by NOT_URI_FRAGMENT and URI.
 */
const URI_COMMON =
  /^[a-z][a-z0-9+\-.]*:(?:\/\/[a-z0-9\-._~!$&'()*+,;=]*|[a-z0-9\-._~!$&'()*+,;=:@]+)(?:\/[a-z0-9\-._~!$&'()*+,;=:@]*)*(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*)?$/i;
/** RFC 4648 base64 (https://www.rfc-editor.org/rfc/rfc4648#section-4). */
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
/** What ends a line for `^` and `$` under the `m` flag (ECMAScript LineTerminator). */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function date(str: string): boolean {
  const m = DATE.exec(str);
  if (!m) return false;
  const year = +m[1]!;
  const month = +m[2]!;
  const day = +m[3]!;
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]!);
}

/** RFC 3339 full-time with the offset required. */
function time(str: string): boolean {
  const m = TIME.exec(str);
  if (!m) return false;
  const hr = +m[1]!;
  const min = +m[2]!;
  const sec = +m[3]!;
  const tz = m[4];
  const tzSign = m[5] === '-' ? -1 : 1;
  const tzH = +(m[6] || 0);
  const tzM = +(m[7] || 0);
  if (tzH > 23 || tzM > 59 || !tz) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second: 23:59:60 in UTC, whatever the offset.
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

function dateTime(str: string): boolean {
  const parts = str.split(DATE_TIME_SEPARATOR);
  return parts.length === 2 && date(parts[0]!) && time(parts[1]!);
}

function compareDateTime(a: string, b: string): number | undefined {
  if (!(a && b)) return undefined;
  const x = new Date(a).valueOf();
  const y = new Date(b).valueOf();
  if (!(x && y)) return undefined;
  return x - y;
}

function uri(str: string): boolean {
  return URI_COMMON.test(str) || (NOT_URI_FRAGMENT.test(str) && URI.test(str));
}

/** 1 at the char code of each base64 character ([A-Za-z0-9+/], RFC 4648 §4 Table 1), 0 elsewhere below 128. */
const BASE64_ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_ALPHABET[c.charCodeAt(0)] = 1;
const PAD = 0x3d; // '='

/**
 * {@link BYTE} on a string without line terminators, where its `m` flag changes nothing, is this and a length
 * that is a multiple of 4: base64 characters then at most two `=` (exactly the strings of 4-character groups,
 * the last one possibly `xx==` or `xxx=`). One pass over the char codes with a table look-up each, instead
 * of BYTE's per-group backtracking, and about twice as fast as the regular expression `^[A-Za-z0-9+/]*={0,2}$`
 * on the ~87 KB `blob` of a 64 KB resource (bench/workloads, `resources/read`).
 */
function byteChars(str: string): boolean {
  let end = str.length;
  if (end > 0 && str.charCodeAt(end - 1) === PAD) end--;
  if (end > 0 && str.charCodeAt(end - 1) === PAD) end--;
  for (let i = 0; i < end; i++) {
    const c = str.charCodeAt(i);
    if (c >= 128 || BASE64_ALPHABET[c] === 0) return false;
  }
  return true;
}

function byte(str: string): boolean {
  // A string byteChars accepts has no line terminator; one it refuses and that has none is not base64.
  if (byteChars(str)) return str.length % 4 === 0;
  if (!LINE_TERMINATOR.test(str)) return false;
  BYTE.lastIndex = 0;
  return BYTE.test(str);
}

/**
 * The formats, shaped as ajv-formats' `fullFormats` (a function, or `{validate, compare}` where a format
 * also orders values), which is how ajv's standalone code calls them.
 */
export const formats = {
  byte,
  'date-time': { validate: dateTime, compare: compareDateTime },
  uri,
} as const;

/** The JSON Schema dialects a tool schema may be written in ({@link formatsUsed}). */
export type SchemaDialect = '2020-12' | 'draft-07';

/** Keywords whose value is one subschema, in either dialect (and the dialect's own: see {@link SUBSCHEMA}). */
const SINGLE = ['additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else'];
/** Keywords whose value is an array of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf'];
/** Keywords whose value maps names to subschemas (`$defs` and `definitions` in both: a `$ref` may point into either). */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependencies'];

/**
 * Where each dialect holds subschemas, as ajv applies them: 2020-12 (https://json-schema.org/draft/2020-12/json-schema-core#section-10)
 * adds prefixItems, dependentSchemas and the unevaluated keywords, and `items` is one schema; in draft-07
 * (https://json-schema.org/draft-07/json-schema-validation#section-6.4.1) `items` is a schema or an array of
 * them, beside additionalItems.
 */
const SUBSCHEMA: Readonly<Record<SchemaDialect, { single: ReadonlySet<string>; list: ReadonlySet<string>; map: ReadonlySet<string> }>> = {
  '2020-12': {
    single: new Set([...SINGLE, 'items', 'unevaluatedItems', 'unevaluatedProperties']),
    list: new Set([...LIST, 'prefixItems']),
    map: new Set([...MAP, 'dependentSchemas']),
  },
  'draft-07': { single: new Set([...SINGLE, 'items', 'additionalItems']), list: new Set([...LIST, 'items']), map: new Set(MAP) },
};

const isSchemaObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const token = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every `format` keyword with a string value in `schema` (a tool's input or output schema, in `dialect`): the
 * JSON pointer of the keyword from the schema's root, and the format's name. A format only an annotation
 * (one inside `enum`, `const`, `default`, `examples` or an unknown keyword) is not among them.
 */
export function formatsUsed(schema: unknown, dialect: SchemaDialect): { pointer: string; format: string }[] {
  const { single, list, map } = SUBSCHEMA[dialect];
  const found: { pointer: string; format: string }[] = [];
  const visit = (node: unknown, at: string): void => {
    if (!isSchemaObject(node)) return;
    if (typeof node['format'] === 'string') found.push({ pointer: `${at}/format`, format: node['format'] });
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${token(key)}`;
      if (single.has(key)) visit(value, here);
      if (list.has(key) && Array.isArray(value)) value.forEach((v, i) => visit(v, `${here}/${i}`));
      if (map.has(key) && isSchemaObject(value)) for (const [name, v] of Object.entries(value)) visit(v, `${here}/${token(name)}`);
    }
  };
  visit(schema, '');
  return found;
}
