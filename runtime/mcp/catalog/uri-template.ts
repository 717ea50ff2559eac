/**
 * @module mcp/catalog/uri-template — RFC 6570 URI templates (https://www.rfc-editor.org/rfc/rfc6570), all four levels:
 * what a resource template's `uriTemplate` is ("Resource templates allow servers to expose parameterized
 * resources using URI templates", https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates;
 * $def ResourceTemplate.uriTemplate, `format: uri-template`, which sets no level). It parses a template,
 * expands one (RFC 6570 §3), and matches a URI against one, giving back the variables (what resources/read
 * does with the URI a client expanded).
 *
 * What a match yields, which the generated modules and the code-first builder type per template
 * ({@link uriTemplateVariables}, {@link UriTemplateVariables}):
 * - a variable of a simple `{x}`, reserved `{+x}`, label `{.x}` or path-segment `{/x}` expression is required:
 *   the URI must hold a non-empty value for it to match;
 * - a variable of a fragment `{#x}`, path-parameter `{;x}` or query `{?x}`/`{&x}` expression is optional
 *   (absent from the match when the URI leaves it out; `""` when given empty);
 * - an exploded variable (`{x*}`, `{/x*}`, `{?x*}`…) is a list, `string[]`; any other a `string` (an
 *   unexploded list is its comma-joined text). Associative-array values are not matched (a key is not a name
 *   the template declares).
 * - values are percent-decoded; a prefix `{x:3}` yields what the URI holds (the value's first characters).
 * Named expressions (`;`, `?`, `&`) match their `name=value` pairs in any order, but only names they declare.
 */

/** An expression's operator (RFC 6570 §2.2); `''` is simple string expansion. */
export type UriTemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of an expression: its name and modifier (RFC 6570 §2.3, §2.4). */
export interface UriTemplateVarSpec {
  readonly name: string;
  readonly explode: boolean;
  /** The prefix modifier's length (`{x:3}`), in characters. */
  readonly prefix?: number;
}

export interface UriTemplateExpression {
  readonly operator: UriTemplateOperator;
  readonly variables: readonly UriTemplateVarSpec[];
}

/** A template as literals and expressions, in order. */
export type UriTemplatePart = string | UriTemplateExpression;

/** A template that is not an RFC 6570 URI template; `offset` is the index of the offending character. */
export class UriTemplateError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'UriTemplateError';
    this.offset = offset;
  }
}

/** A variable as a template declares it: what a match of the template yields for it. */
export interface UriTemplateVariable {
  readonly name: string;
  /** Present in every match (a simple, reserved, label or path-segment expression has it). */
  readonly required: boolean;
  /** An exploded variable: its value is a list. */
  readonly list: boolean;
}

/** Values to expand a template with; undefined (or an empty list) leaves a variable out (RFC 6570 §2.3). */
export type UriTemplateValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What a match yields: each variable's value (see the module's description). */
export type UriTemplateMatch = Record<string, string | string[]>;

/** The expansion table of RFC 6570 Appendix A: first, sep, named, ifemp, and whether reserved characters pass. */
const OPERATORS: Readonly<Record<UriTemplateOperator, { first: string; sep: string; named: boolean; ifemp: string; reserved: boolean }>> = {
  '': { first: '', sep: ',', named: false, ifemp: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifemp: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifemp: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifemp: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifemp: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifemp: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifemp: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifemp: '=', reserved: false },
};

/** Operators whose variables a URI must hold to match. */
const REQUIRED: ReadonlySet<UriTemplateOperator> = new Set<UriTemplateOperator>(['', '+', '.', '/']);

/** varspec (RFC 6570 §2.3, §2.4): varname = varchar *( ["."] varchar ), then `:max-length` or `*`. */
const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::([1-9][0-9]{0,3})|(\*))?$/;

/** Parses `template` into literals and expressions; throws {@link UriTemplateError} when it is not one. */
export function parseUriTemplate(template: string): readonly UriTemplatePart[] {
  const parts: UriTemplatePart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const literalEnd = open < 0 ? template.length : open;
    const stray = template.indexOf('}', at);
    if (stray >= 0 && stray < literalEnd) throw new UriTemplateError(`"}" at character ${stray + 1} closes no expression`, stray);
    if (literalEnd > at) parts.push(template.slice(at, literalEnd));
    if (open < 0) break;
    const close = template.indexOf('}', open);
    const nested = template.indexOf('{', open + 1);
    if (close < 0 || (nested >= 0 && nested < close)) throw new UriTemplateError(`the expression at character ${open + 1} is not closed`, open);
    parts.push(parseExpression(template.slice(open + 1, close), open));
    at = close + 1;
  }
  return parts;
}

function parseExpression(body: string, offset: number): UriTemplateExpression {
  const head = body.charAt(0);
  if ('=,!@|'.includes(head) && head !== '')
    throw new UriTemplateError(`operator "${head}" at character ${offset + 2} is reserved for future extensions (RFC 6570 §2.2)`, offset + 1);
  const operator = ('+#./;?&'.includes(head) && head !== '' ? head : '') as UriTemplateOperator;
  const list = body.slice(operator.length);
  const variables = list.split(',').map((spec) => {
    const m = VARSPEC.exec(spec);
    if (!m)
      throw new UriTemplateError(
        `${JSON.stringify(`{${body}}`)} at character ${offset + 1}: ${JSON.stringify(spec)} is not a variable (RFC 6570 §2.3)`,
        offset,
      );
    return { name: m[1]!, explode: m[3] !== undefined, ...(m[2] !== undefined ? { prefix: Number(m[2]) } : {}) };
  });
  return { operator, variables };
}

/**
 * The variables of `template` (a name once, in order of first appearance): required when any expression that
 * names it is required, a list when exploded. Throws {@link UriTemplateError} for a name exploded in one
 * expression and not in another (a match could not give it one type).
 */
export function uriTemplateVariables(template: string): readonly UriTemplateVariable[] {
  const byName = new Map<string, { required: boolean; list: boolean }>();
  for (const part of parseUriTemplate(template)) {
    if (typeof part === 'string') continue;
    for (const v of part.variables) {
      const seen = byName.get(v.name);
      const required = REQUIRED.has(part.operator);
      if (!seen) byName.set(v.name, { required, list: v.explode });
      else if (seen.list !== v.explode)
        throw new UriTemplateError(`variable ${JSON.stringify(v.name)} is exploded in one expression and not in another`, template.indexOf(v.name));
      else seen.required ||= required;
    }
  }
  return [...byName].map(([name, { required, list }]) => ({ name, required, list }));
}

const hex = (c: string) => [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Percent-encodes all but the unreserved characters (RFC 6570 §1.5 `U`), or also the reserved ones and pct-triplets (`U+R`). */
function encode(value: string, reserved: boolean): string {
  const keep = reserved ? /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}/y : /[A-Za-z0-9\-._~]/y;
  let out = '';
  for (let i = 0; i < value.length;) {
    keep.lastIndex = i;
    const m = keep.exec(value);
    if (m) {
      out += m[0];
      i += m[0].length;
      continue;
    }
    const c = String.fromCodePoint(value.codePointAt(i)!);
    out += hex(c);
    i += c.length;
  }
  return out;
}

const truncate = (value: string, prefix: number | undefined) => (prefix === undefined ? value : Array.from(value).slice(0, prefix).join(''));

/** Expands `template` with `values` (RFC 6570 §3.2.1); literals outside the URI character set are percent-encoded (§3.1). */
export function expandUriTemplate(template: string, values: UriTemplateValues): string {
  return parseUriTemplate(template)
    .map((part) => (typeof part === 'string' ? encode(part, true) : expandExpression(part, values)))
    .join('');
}

function expandExpression({ operator, variables }: UriTemplateExpression, values: UriTemplateValues): string {
  const { first, sep, named, ifemp, reserved } = OPERATORS[operator];
  const pair = (name: string, text: string, empty: boolean) => (!named ? text : empty ? name + ifemp : `${name}=${text}`);
  const out: string[] = [];
  for (const { name, explode, prefix } of variables) {
    const value = values[name];
    if (value === undefined || (typeof value !== 'string' && value.length === 0)) continue;
    if (typeof value === 'string') out.push(pair(name, encode(truncate(value, prefix), reserved), value === ''));
    else if (!explode) out.push(pair(name, value.map((v) => encode(v, reserved)).join(','), false));
    else out.push(value.map((v) => pair(name, encode(v, reserved), v === '')).join(sep));
  }
  return out.length === 0 ? '' : first + out.join(sep);
}

/** A template compiled for matching: one capture group per expression. */
interface Matcher {
  readonly regex: RegExp;
  readonly expressions: readonly UriTemplateExpression[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The characters a value may hold in a URI, by operator: anything but the delimiters that end it (the
 * operator's separator, and for the unreserved operators the `/`, `?` and `#` that end a path segment).
 * Wider than an expansion produces (a hand-written URI may leave `@` or `:` unencoded), so long as it is unambiguous.
 */
const EXCLUDED: Readonly<Record<UriTemplateOperator, string>> = {
  '': '/?#',
  '+': '',
  '#': '',
  '.': '/?#.',
  '/': '/?#',
  ';': ';/?#',
  '?': '&#',
  '&': '&#',
};

function valueClass(operator: UriTemplateOperator, sepToo: boolean): string {
  const excluded = EXCLUDED[operator] + (sepToo && !EXCLUDED[operator].includes(OPERATORS[operator].sep) ? OPERATORS[operator].sep : '');
  return excluded === '' ? '[\\s\\S]' : `[^${excluded.replace(/[\]\\^-]/g, '\\$&')}]`;
}

function expressionPattern(e: UriTemplateExpression): string {
  const { first, sep, named } = OPERATORS[e.operator];
  const single = e.variables.length === 1 && !e.variables[0]!.explode;
  const value = valueClass(e.operator, !single);
  if (named) {
    const names = e.variables
      .map((v) => v.name)
      .sort((a, b) => b.length - a.length)
      .map(escapeRegex)
      .join('|');
    const item = `(?:${names})(?:=${value}*)?`;
    return `(?:${escapeRegex(first)}(${item}(?:${escapeRegex(sep)}${item})*))?`;
  }
  if (!REQUIRED.has(e.operator)) return `(?:${escapeRegex(first)}(${value}*(?:${escapeRegex(sep)}${value}*)*))?`;
  const more = e.variables.length - 1;
  const repeat = e.variables.some((v) => v.explode) ? `{${more},}` : `{${more}}`;
  return `${escapeRegex(first)}(${value}+(?:${escapeRegex(sep)}${value}+)${repeat})`;
}

/** A literal as a URI may hold it: as written, or percent-encoded as an expansion writes it (RFC 6570 §3.1). */
function literalPattern(literal: string): string {
  const encoded = encode(literal, true);
  return encoded === literal ? escapeRegex(literal) : `(?:${escapeRegex(literal)}|${escapeRegex(encoded)})`;
}

const matchers = new Map<string, Matcher>();
const MAX_MATCHERS = 512;

function matcher(template: string): Matcher {
  let m = matchers.get(template);
  if (!m) {
    const parts = parseUriTemplate(template);
    const expressions = parts.filter((p): p is UriTemplateExpression => typeof p !== 'string');
    const source = parts.map((p) => (typeof p === 'string' ? literalPattern(p) : expressionPattern(p))).join('');
    m = { regex: new RegExp(`^${source}$`), expressions };
    if (matchers.size >= MAX_MATCHERS) matchers.clear();
    matchers.set(template, m);
  }
  return m;
}

/** One variable's value as an expression yields it (a prefix one marked, to be reconciled with the full value). */
interface Found {
  readonly name: string;
  readonly value: string | string[];
  readonly prefix?: number;
}

/** The values one expression's text holds (undefined: the text does not fit the expression). */
function expressionValues(e: UriTemplateExpression, text: string | undefined): Found[] | undefined {
  if (text === undefined) return [];
  const { sep, named } = OPERATORS[e.operator];
  const decode = (s: string) => decodeURIComponent(s);
  const found: Found[] = [];
  if (named) {
    const seen = new Map<string, Found>();
    for (const item of text.split(sep)) {
      const eq = item.indexOf('=');
      const name = eq < 0 ? item : item.slice(0, eq);
      const value = decode(eq < 0 ? '' : item.slice(eq + 1));
      const spec = e.variables.find((v) => v.name === name)!;
      const earlier = seen.get(name);
      if (spec.explode && earlier) (earlier.value as string[]).push(value);
      else if (earlier) return undefined;
      else seen.set(name, spec.explode ? { name, value: [value] } : { name, value, ...(spec.prefix ? { prefix: spec.prefix } : {}) });
    }
    return [...seen.values()];
  }
  const pieces = e.variables.length === 1 && !e.variables[0]!.explode ? [text] : text.split(sep);
  let i = 0;
  e.variables.forEach((v, k) => {
    if (v.explode) {
      const take = Math.max(pieces.length - i - (e.variables.length - k - 1), 0);
      if (take > 0) found.push({ name: v.name, value: pieces.slice(i, i + take).map(decode) });
      i += take;
    } else if (i < pieces.length) found.push({ name: v.name, value: decode(pieces[i++]!), ...(v.prefix ? { prefix: v.prefix } : {}) });
  });
  return i === pieces.length ? found : undefined;
}

const sameValue = (a: string | string[], b: string | string[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Matches `uri` against `template` (any RFC 6570 level; see the module's description for what a match
 * yields); undefined when it does not match. Throws {@link UriTemplateError} when `template` is not a template.
 */
export function matchTemplate(template: string, uri: string): UriTemplateMatch | undefined {
  const { regex, expressions } = matcher(template);
  const m = regex.exec(uri);
  if (!m) return undefined;
  const result: UriTemplateMatch = {};
  const prefixed: Found[] = [];
  try {
    for (const [i, e] of expressions.entries()) {
      const found = expressionValues(e, m[i + 1]);
      if (!found) return undefined;
      for (const f of found) {
        if (f.prefix !== undefined) prefixed.push(f);
        else if (f.name in result && !sameValue(result[f.name]!, f.value)) return undefined;
        else result[f.name] = f.value;
      }
    }
  } catch {
    return undefined; // a malformed percent-encoding: not a URI any expansion of the template writes
  }
  // A prefix `{x:3}` holds the first characters of x: consistent with x's full value where the URI has one
  // (and with a longer prefix of it, taken first).
  for (const { name, value, prefix } of prefixed.sort((a, b) => b.prefix! - a.prefix!)) {
    const full = result[name];
    if (full === undefined) result[name] = value;
    else if (typeof full !== 'string' || truncate(full, prefix) !== value) return undefined;
  }
  return result;
}

/** The operators of RFC 6570 §2.2 a type can tell apart (the reserved `=,!@|` are a parse error). */
type Operator = '+' | '#' | '.' | '/' | ';' | '?' | '&';
/** The bodies of a template's expressions (`{…}`). */
type Expressions<U extends string> = U extends `${string}{${infer E}}${infer Rest}` ? E | Expressions<Rest> : never;
/** Whether an expression's variables are required (see the module's description). */
type IsRequired<E extends string> = E extends `${'#' | ';' | '?' | '&'}${string}` ? false : true;
type VarList<E extends string> = E extends `${Operator}${infer L}` ? L : E;
type VarSpecs<L extends string> = L extends `${infer H},${infer T}` ? H | VarSpecs<T> : L;
type VarName<S extends string> = S extends `${infer N}*` ? N : S extends `${infer N}:${string}` ? N : S;
type VarValue<S extends string> = S extends `${string}*` ? string[] : string;
type SpecsOf<U extends string, R extends boolean> =
  Expressions<U> extends infer E ? (E extends string ? (IsRequired<E> extends R ? VarSpecs<VarList<E>> : never) : never) : never;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The variables a match of the template `U` yields, as a type: `UriTemplateVariables<'notes://{id}{?q,tag*}'>` is
 * `{ id: string; q?: string; tag?: string[] }` (what {@link matchTemplate} gives; {@link uriTemplateVariables} at run time).
 */
export type UriTemplateVariables<U extends string> = Flat<
  { [S in SpecsOf<U, true> as VarName<S>]: VarValue<S> } & {
    [S in SpecsOf<U, false> as Exclude<VarName<S>, VarName<SpecsOf<U, true>>>]?: VarValue<S>;
  }
>;
