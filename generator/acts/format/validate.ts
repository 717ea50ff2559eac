/**
 * @module acts/format/validate — the structure check every ACTS document passes before a test runs (§12.1:
 * "A runner MUST validate input against the ACTS structure"), after Appendix A's CDDL. Problems are JSON
 * pointers with a message; format/load.ts turns the pointers into lines. Assertion values are not checked
 * here: any value is an assertion (§5.1, a bare value is an exact match).
 */
import { pointer } from '../../errors.ts';
import { OPERATIONS } from '../wire/operations.ts';
import { parseUntil } from '../check/until.ts';

export interface Problem {
  readonly pointer: string;
  readonly message: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

const DOC_KEYS = ['acts_version', 'spec_version', 'spec_ref', 'metadata', 'variables', 'include', 'suites'];
const SUITE_KEYS = ['id', 'name', 'description', 'tags', 'tests'];
const TEST_KEYS = [
  'id',
  'name',
  'description',
  'spec_ref',
  'level',
  'tags',
  'transport',
  'preconditions',
  'requires_behaviors',
  'origin',
  'runner_requirements',
  'steps',
  'assertions',
];
const COMMON_STEP_KEYS = ['id', 'description', 'expect', 'expect_error', 'expect_stream', 'capture', 'assertions', 'repeat', 'delay_ms'];
const ACTION_KEYS = ['operation', 'raw', 'client_response', 'assertion'] as const;
const STEP_KEYS = [...COMMON_STEP_KEYS, ...ACTION_KEYS, 'params', 'expect_parsed'];
const BINDINGS = ['jsonrpc', 'grpc', 'rest'];
const REQUIREMENTS = ['webhook_endpoint', 'concurrent_streams', 'stream_disconnect', 'auth_credentials', 'header_inspection'];
// §6.2's `error_type`; the shipped suites write `code` for it and `data` for `details` (both accepted).
const EXPECT_ERROR_KEYS = ['error_type', 'code', 'message', 'details', 'data'];
const EXPECT_STREAM_KEYS = ['min_count', 'max_count', 'timeout_ms', 'ordering', 'events', 'final_event', 'each_event'];

/** The kind of a step: the one action key it has (§4: server, raw, client or assertion step). */
export function kindOf(step: Obj): 'server' | 'raw' | 'client' | 'assertion' {
  if ('raw' in step) return 'raw';
  if ('client_response' in step) return 'client';
  if ('assertion' in step) return 'assertion';
  return 'server';
}

/** The problems of an ACTS document; none when it can run. */
export function checkDocument(doc: unknown): Problem[] {
  const out: Problem[] = [];
  const bad = (at: string, message: string) => out.push({ pointer: at, message });
  if (!isObj(doc)) return [{ pointer: '', message: 'an ACTS document is a map (§2)' }];
  unknownKeys(doc, DOC_KEYS, '', 'document', bad);
  if (typeof doc['acts_version'] !== 'string') bad('/acts_version', 'acts_version is required, a string such as "1.0" (§2)');
  // §17: a runner MUST reject a document whose acts_version major it does not support.
  else if (doc['acts_version'].split('.')[0] !== '1') bad('/acts_version', `acts_version ${doc['acts_version']}: this runner reads ACTS 1.x`);
  if (typeof doc['spec_version'] !== 'string') bad('/spec_version', 'spec_version is required, a string such as "1.0" (§2)');
  if (!('suites' in doc) && !('include' in doc)) bad('', 'an ACTS document needs suites or include (§2)');
  if ('variables' in doc) {
    if (!isObj(doc['variables'])) bad('/variables', 'variables is a map of names to strings (§2)');
    else
      for (const [k, v] of Object.entries(doc['variables']))
        if (typeof v !== 'string') bad(pointer('variables', k), `variable ${k} is not a string (§2)`);
  }
  if ('include' in doc && !nonEmptyStrings(doc['include'])) bad('/include', 'include is a list of file names (§2)');
  if ('suites' in doc) {
    if (!Array.isArray(doc['suites']) || doc['suites'].length === 0) bad('/suites', 'suites is a non-empty list (§2)');
    else doc['suites'].forEach((s, i) => checkSuite(s, pointer('suites', i), bad));
  }
  return out;
}

type Bad = (at: string, message: string) => void;

function unknownKeys(o: Obj, known: readonly string[], at: string, what: string, bad: Bad): void {
  for (const k of Object.keys(o)) if (!known.includes(k)) bad(pointer(...splitPointer(at), k), `unknown ${what} field ${JSON.stringify(k)}`);
}
const splitPointer = (at: string): string[] =>
  at === ''
    ? []
    : at
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
const sub = (at: string, ...more: (string | number)[]) => pointer(...splitPointer(at), ...more);
const nonEmptyStrings = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');

function checkSuite(s: unknown, at: string, bad: Bad): void {
  if (!isObj(s)) return bad(at, 'a suite is a map (§3.1)');
  unknownKeys(s, SUITE_KEYS, at, 'suite', bad);
  for (const k of ['id', 'name']) if (typeof s[k] !== 'string') bad(sub(at, k), `a suite needs ${k}, a string (§3.1)`);
  if (!Array.isArray(s['tests']) || s['tests'].length === 0) return bad(sub(at, 'tests'), 'a suite needs tests, a non-empty list (§3.1)');
  const ids = new Set<string>();
  s['tests'].forEach((t, i) => {
    checkTest(t, sub(at, 'tests', i), bad);
    if (isObj(t) && typeof t['id'] === 'string') {
      if (ids.has(t['id'])) bad(sub(at, 'tests', i, 'id'), `test id ${t['id']} is used twice (§14)`);
      ids.add(t['id']);
    }
  });
}

function checkTest(t: unknown, at: string, bad: Bad): void {
  if (!isObj(t)) return bad(at, 'a test is a map (§3.2)');
  unknownKeys(t, TEST_KEYS, at, 'test', bad);
  for (const k of ['id', 'name']) if (typeof t[k] !== 'string') bad(sub(at, k), `a test needs ${k}, a string (§3.2)`);
  if (!['must', 'should', 'may'].includes(t['level'] as string)) bad(sub(at, 'level'), 'level is must, should or may (§3.2)');
  if ('transport' in t && !(Array.isArray(t['transport']) && t['transport'].every((b) => BINDINGS.includes(b as string))))
    bad(sub(at, 'transport'), 'transport is a list of jsonrpc, grpc, rest (§3.2)');
  if (
    'runner_requirements' in t &&
    !(Array.isArray(t['runner_requirements']) && t['runner_requirements'].every((r) => REQUIREMENTS.includes(r as string)))
  )
    bad(sub(at, 'runner_requirements'), `runner_requirements are among ${REQUIREMENTS.join(', ')} (§3.2)`);
  if ('requires_behaviors' in t && !(Array.isArray(t['requires_behaviors']) && t['requires_behaviors'].every((r) => typeof r === 'string')))
    bad(sub(at, 'requires_behaviors'), 'requires_behaviors is a list of prefixes (§3.2)');
  if ('preconditions' in t) {
    const p = t['preconditions'];
    if (!isObj(p)) bad(sub(at, 'preconditions'), 'preconditions is a map (§3.3)');
    else {
      unknownKeys(p, ['capabilities', 'skills', 'transport', 'extensions', 'description'], sub(at, 'preconditions'), 'precondition', bad);
      if ('capabilities' in p && !isObj(p['capabilities'])) bad(sub(at, 'preconditions', 'capabilities'), 'capabilities is a map (§3.3)');
    }
  }
  if (!Array.isArray(t['steps']) || t['steps'].length === 0) return bad(sub(at, 'steps'), 'a test needs steps, a non-empty list (§3.2)');
  const ids = new Set<string>();
  t['steps'].forEach((s, i) => {
    checkStep(s, sub(at, 'steps', i), bad);
    if (isObj(s) && typeof s['id'] === 'string') {
      if (ids.has(s['id'])) bad(sub(at, 'steps', i, 'id'), `step id ${s['id']} is used twice in the test (§4: unique within the test)`);
      ids.add(s['id']);
    }
  });
  if ('assertions' in t) checkAssertions(t['assertions'], sub(at, 'assertions'), bad);
}

function checkStep(s: unknown, at: string, bad: Bad): void {
  if (!isObj(s)) return bad(at, 'a step is a map (§4)');
  unknownKeys(s, STEP_KEYS, at, 'step', bad);
  if (typeof s['id'] !== 'string') bad(sub(at, 'id'), 'a step needs id, a string (§4)');
  const actions = ACTION_KEYS.filter((k) => k in s);
  if (actions.length !== 1)
    return bad(
      at,
      actions.length === 0
        ? 'a step needs one of operation, raw, client_response, assertion (§4)'
        : `a step has one action, not ${actions.join(' and ')} (§4)`,
    );
  if ('expect' in s && 'expect_error' in s) bad(sub(at, 'expect_error'), 'expect and expect_error are mutually exclusive (§4)');
  if ('operation' in s) {
    if (!Object.hasOwn(OPERATIONS, s['operation'] as string))
      bad(
        sub(at, 'operation'),
        `unknown operation ${JSON.stringify(s['operation'])}; the abstract operations are ${Object.keys(OPERATIONS).join(', ')} (§4.1)`,
      );
    if (!isObj(s['params'])) bad(sub(at, 'params'), 'a server step needs params, a map (§4)');
  }
  if ('raw' in s) {
    const r = s['raw'];
    if (!isObj(r)) bad(sub(at, 'raw'), 'raw is a map (§4.4)');
    else {
      unknownKeys(r, ['method', 'path', 'headers', 'body', 'body_raw'], sub(at, 'raw'), 'raw', bad);
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(r['method'] as string))
        bad(sub(at, 'raw', 'method'), 'raw.method is GET, POST, PUT or DELETE (§4.4)');
      if (typeof r['path'] !== 'string') bad(sub(at, 'raw', 'path'), 'raw.path is a string (§4.4)');
      if ('body_raw' in r && typeof r['body_raw'] !== 'string') bad(sub(at, 'raw', 'body_raw'), 'raw.body_raw is a string (§4.4)');
      if ('headers' in r && !isObj(r['headers'])) bad(sub(at, 'raw', 'headers'), 'raw.headers is a map (§4.4)');
    }
  }
  if ('client_response' in s) {
    const c = s['client_response'];
    if (!isObj(c) || !Object.hasOwn(OPERATIONS, c['operation'] as string) || !('wire_payload' in c))
      bad(sub(at, 'client_response'), 'client_response needs an abstract operation and a wire_payload (§10)');
    if (!isObj(s['expect_parsed'])) bad(sub(at, 'expect_parsed'), 'a client step needs expect_parsed, a map (§10)');
  } else if ('expect_parsed' in s) bad(sub(at, 'expect_parsed'), 'expect_parsed belongs to a client step (§10)');
  if ('assertion' in s) checkNamed(s['assertion'], sub(at, 'assertion'), bad);
  if ('expect' in s && !isObj(s['expect'])) bad(sub(at, 'expect'), 'expect is a map (§6.1)');
  if ('expect_error' in s) {
    if (!isObj(s['expect_error'])) bad(sub(at, 'expect_error'), 'expect_error is a map (§6.2)');
    else unknownKeys(s['expect_error'], EXPECT_ERROR_KEYS, sub(at, 'expect_error'), 'expect_error', bad);
  }
  if ('expect_stream' in s) checkStream(s['expect_stream'], sub(at, 'expect_stream'), bad);
  if ('capture' in s && !(isObj(s['capture']) && Object.values(s['capture']).every((v) => typeof v === 'string')))
    bad(sub(at, 'capture'), 'capture maps names to dot-paths (§8.2)');
  if ('assertions' in s) checkAssertions(s['assertions'], sub(at, 'assertions'), bad);
  if ('delay_ms' in s && !(isInt(s['delay_ms']) && s['delay_ms'] >= 0)) bad(sub(at, 'delay_ms'), 'delay_ms is a whole number of milliseconds (§4)');
  if ('repeat' in s) checkRepeat(s['repeat'], sub(at, 'repeat'), bad);
}

function checkStream(e: unknown, at: string, bad: Bad): void {
  if (!isObj(e)) return bad(at, 'expect_stream is a map (§7)');
  unknownKeys(e, EXPECT_STREAM_KEYS, at, 'expect_stream', bad);
  for (const k of ['min_count', 'max_count', 'timeout_ms'])
    if (k in e && !(isInt(e[k]) && (e[k] as number) >= 0)) bad(sub(at, k), `${k} is a whole number (§7)`);
  if ('ordering' in e && e['ordering'] !== 'monotonic_state') bad(sub(at, 'ordering'), 'ordering is monotonic_state (§7.1)');
  if ('events' in e) {
    if (!Array.isArray(e['events'])) bad(sub(at, 'events'), 'events is a list (§7)');
    else
      e['events'].forEach((ev, i) => {
        if (!isObj(ev)) return bad(sub(at, 'events', i), 'an event assertion is a map (§7)');
        if ('match' in ev && !['exact_position', 'any_position'].includes(ev['match'] as string))
          bad(sub(at, 'events', i, 'match'), 'match is exact_position or any_position (§7)');
        if ('index' in ev && !(isInt(ev['index']) && ev['index'] >= 0)) bad(sub(at, 'events', i, 'index'), 'index is a whole number (§7)');
      });
  }
}

function checkRepeat(r: unknown, at: string, bad: Bad): void {
  if (!isObj(r)) return bad(at, 'repeat is a map (§9)');
  unknownKeys(r, ['until', 'max_attempts', 'delay_ms', 'backoff'], at, 'repeat', bad);
  if (typeof r['until'] !== 'string') bad(sub(at, 'until'), 'repeat needs until, a condition (§9.1)');
  else {
    const parsed = parseUntil(r['until']);
    if (typeof parsed === 'string') bad(sub(at, 'until'), parsed);
  }
  if ('max_attempts' in r && !(isInt(r['max_attempts']) && r['max_attempts'] >= 1))
    bad(sub(at, 'max_attempts'), 'max_attempts is a whole number, at least 1 (§9)');
  if ('delay_ms' in r && !(isInt(r['delay_ms']) && r['delay_ms'] >= 0)) bad(sub(at, 'delay_ms'), 'delay_ms is a whole number (§9)');
  if ('backoff' in r && !['none', 'linear', 'exponential'].includes(r['backoff'] as string))
    bad(sub(at, 'backoff'), 'backoff is none, linear or exponential (§9)');
}

function checkAssertions(list: unknown, at: string, bad: Bad): void {
  if (!Array.isArray(list)) return bad(at, 'assertions is a list (§5.5)');
  list.forEach((a, i) => checkNamed(a, sub(at, i), bad));
}

function checkNamed(a: unknown, at: string, bad: Bad): void {
  if (!isObj(a)) return bad(at, 'an assertion is a map (§5.5)');
  unknownKeys(a, ['id', 'description', 'source', 'path', 'match', 'any', 'all', 'none'], at, 'assertion', bad);
  if (typeof a['source'] !== 'string') bad(sub(at, 'source'), 'an assertion needs source, a reference such as "{{send.response}}" (§5.5)');
  for (const k of ['any', 'all', 'none']) {
    if (!(k in a)) continue;
    const c = a[k];
    if (!isObj(c) || typeof c['path'] !== 'string' || !isObj(c['match'])) bad(sub(at, k), `${k} needs path (a dot-path) and match (a map) (§5.5)`);
  }
}
