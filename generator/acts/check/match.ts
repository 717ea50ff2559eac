/**
 * @module acts/check/match — the assertion language (§5): a bare value is exact equality (§5.3), a list
 * matches element by element (§5.2: YAML array syntax addresses array elements), a map is either operators
 * (§5.1, combined with AND, §5.4) or nested fields mirroring the response (§5.2), or both.
 *
 * Reading of the format (docs/a2a-conformance.md collects these):
 * - A map key is an operator only when its value has the operator's shape (`type: string`, `count_gte: 1`);
 *   otherwise it is a field name. So `type: {type: string}` asserts a field named `type` (REST-PD-001's
 *   problem details), while `type: string` checks the type.
 * - A list asserts its elements at the same positions; the response may have more elements after them.
 * - `one_of` takes values (§5.1, "value is one of these"); an option that is a map or a list is read as an
 *   assertion, as the shipped suites write (STREAM-SSE-004's `one_of: [{task: …}, {status_update: …}]`).
 * - `items` (used by the shipped suites, not in §5.1): a list is matched position by position like a bare
 *   list; a map must hold of every element.
 * - `absent: true` holds of a missing field only; `exists: true` of any present value, null included.
 * - `type: number` holds of any JSON number; `contains` is a substring of a string, or an element of a list.
 */

/** One assertion that did not hold: where (a dot-path), what was expected and what was there. */
export interface Mismatch {
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const TYPES = ['string', 'number', 'boolean', 'array', 'object', 'null'];

/** Shown in messages: JSON, shortened. */
export function show(v: unknown): string {
  if (v === undefined) return '(missing)';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Whether `value` has the shape operator `op` takes (else the key is a field name). */
const OPERATORS: Readonly<Record<string, (value: unknown) => boolean>> = {
  type: (v) => typeof v === 'string' && TYPES.includes(v),
  exists: (v) => typeof v === 'boolean',
  absent: (v) => typeof v === 'boolean',
  contains: (v) => typeof v === 'string' || typeof v === 'number',
  matches: (v) => typeof v === 'string',
  starts_with: (v) => typeof v === 'string',
  ends_with: (v) => typeof v === 'string',
  gte: isNum,
  lte: isNum,
  gt: isNum,
  lt: isNum,
  count: isCount,
  count_gte: isCount,
  count_lte: isCount,
  one_of: Array.isArray,
  all_of: Array.isArray,
  any_of: Array.isArray,
  not: () => true,
  items: (v) => Array.isArray(v) || isObj(v),
};

/** Whether `key: value` in an assertion map is an operator. */
export const isOperator = (key: string, value: unknown): boolean => Object.hasOwn(OPERATORS, key) && OPERATORS[key]!(value);

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Structural equality of JSON values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : /^[\w$-]+$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;

/** The mismatches of `actual` against `assertion` (none: it holds); `path` names `actual` in messages. */
export function match(actual: unknown, assertion: unknown, path = ''): Mismatch[] {
  const miss = (expected: string, message?: string): Mismatch[] => [
    { path, expected, actual: show(actual), message: message ?? `${path || '(root)'}: expected ${expected}, got ${show(actual)}` },
  ];
  if (Array.isArray(assertion)) {
    if (!Array.isArray(actual)) return miss(`an array (${show(assertion)})`);
    if (actual.length < assertion.length) return miss(`at least ${assertion.length} elements`);
    return assertion.flatMap((a, i) => match(actual[i], a, join(path, i)));
  }
  if (!isObj(assertion)) return deepEqual(actual, assertion) ? [] : miss(show(assertion));
  const out: Mismatch[] = [];
  const fields = Object.entries(assertion).filter(([k, v]) => !isOperator(k, v));
  for (const [op, value] of Object.entries(assertion)) if (isOperator(op, value)) out.push(...operator(op, value, actual, path, miss));
  if (fields.length > 0) {
    if (!isObj(actual)) {
      // A missing parent is reported once, unless every field asked for is `absent` (then nothing is there).
      const allAbsent = fields.every(([, v]) => isObj(v) && v['absent'] === true);
      if (!(allAbsent && actual === undefined)) out.push(...miss(`an object with ${fields.map(([k]) => k).join(', ')}`));
    } else for (const [k, v] of fields) out.push(...match(actual[k], v, join(path, k)));
  }
  return out;
}

function operator(op: string, value: unknown, actual: unknown, path: string, miss: (e: string, m?: string) => Mismatch[]): Mismatch[] {
  switch (op) {
    case 'type':
      return typeOf(actual) === value ? [] : miss(`type ${value as string}`);
    case 'exists':
      return (actual !== undefined) === value ? [] : miss(value ? 'present' : 'missing');
    case 'absent':
      return (actual === undefined) === value ? [] : miss(value ? 'absent' : 'present');
    case 'contains':
      if (typeof actual === 'string') return actual.includes(String(value)) ? [] : miss(`a string containing ${show(value)}`);
      if (Array.isArray(actual)) return actual.some((x) => deepEqual(x, value)) ? [] : miss(`a list containing ${show(value)}`);
      return miss(`a string containing ${show(value)}`);
    case 'matches': {
      let re: RegExp;
      try {
        re = new RegExp(value as string, 'u');
      } catch (e) {
        return miss(
          `a match of /${value as string}/`,
          `${path || '(root)'}: matches ${show(value)} is not a regular expression: ${(e as Error).message}`,
        );
      }
      return typeof actual === 'string' && re.test(actual) ? [] : miss(`a string matching /${value as string}/`);
    }
    case 'starts_with':
      return typeof actual === 'string' && actual.startsWith(value as string) ? [] : miss(`a string starting with ${show(value)}`);
    case 'ends_with':
      return typeof actual === 'string' && actual.endsWith(value as string) ? [] : miss(`a string ending with ${show(value)}`);
    case 'gte':
      return isNum(actual) && actual >= (value as number) ? [] : miss(`>= ${value as number}`);
    case 'lte':
      return isNum(actual) && actual <= (value as number) ? [] : miss(`<= ${value as number}`);
    case 'gt':
      return isNum(actual) && actual > (value as number) ? [] : miss(`> ${value as number}`);
    case 'lt':
      return isNum(actual) && actual < (value as number) ? [] : miss(`< ${value as number}`);
    case 'count':
      return Array.isArray(actual) && actual.length === value
        ? []
        : miss(`${value as number} elements`, countMessage(path, `${value as number}`, actual));
    case 'count_gte':
      return Array.isArray(actual) && actual.length >= (value as number)
        ? []
        : miss(`at least ${value as number} elements`, countMessage(path, `at least ${value as number}`, actual));
    case 'count_lte':
      return Array.isArray(actual) && actual.length <= (value as number)
        ? []
        : miss(`at most ${value as number} elements`, countMessage(path, `at most ${value as number}`, actual));
    case 'one_of': {
      const options = value as unknown[];
      const ok = options.some((o) => (isObj(o) || Array.isArray(o) ? match(actual, o, path).length === 0 : deepEqual(actual, o)));
      return ok ? [] : miss(`one of ${show(options)}`);
    }
    case 'all_of':
      return (value as unknown[]).flatMap((a) => match(actual, a, path));
    case 'any_of':
      return (value as unknown[]).some((a) => match(actual, a, path).length === 0) ? [] : miss(`any of ${show(value)}`);
    case 'not':
      return match(actual, value, path).length === 0 ? miss(`not ${show(value)}`) : [];
    case 'items':
      if (!Array.isArray(actual)) return miss('an array');
      return Array.isArray(value) ? match(actual, value, path) : actual.flatMap((x, i) => match(x, value, join(path, i)));
    default:
      return [];
  }
}

function countMessage(path: string, want: string, actual: unknown): string {
  const got = Array.isArray(actual) ? `${actual.length}` : actual === undefined ? 'none (missing)' : `not an array (${show(actual)})`;
  return `${path || '(root)'}: expected ${want} elements, got ${got}`;
}
