/**
 * @module test/helpers/malformed-lines — a deterministic stream of malformed stdin lines for the bad-input
 * test: truncated JSON, wrong types for jsonrpc/method/id/params, ids no server can echo (huge, float,
 * boolean, array, object), 300-byte string ids, batches, nesting 10,000 deep, blank lines, long strings,
 * NUL and control characters, and JSON that is not an object.
 *
 * Every line is unacceptable (a seeded PRNG picks the variants; no Math.random): not JSON, not an object, or
 * not a JSON-RPC request envelope, except the `initialize` lines whose params break InitializeRequestParams.
 * So an honest server answers each with an error (-32700, -32600 or -32602) or nothing, and none of them
 * opens a session of either era. No line names an unknown method (that would be -32601).
 * Lines never contain "\n" or "\r" (either would split them differently depending on the reader). Each line
 * says whether its id is one a server can echo (`id`); a reply with a non-null id must carry one of those.
 */

export interface MalformedLine {
  /** The category, for failure messages. */
  readonly kind: string;
  /** The exact text, without the newline. */
  readonly text: string;
  /** The id a reply may echo, when the line has a usable one (a string or a safe integer). */
  readonly id?: string | number;
}

/** mulberry32: a tiny seeded PRNG, so the stream is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DEPTH = 10_000;
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** Control characters that are not line breaks: NUL, BEL, BS, TAB, VT, FF, ESC, DEL, C1 NEL, LS/PS. */
const CONTROLS = ['\u0000', '\u0007', '\b', '\t', '\u000b', '\f', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029'];
const INIT_PARAMS = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };

type Make = (n: number, pick: <T>(xs: readonly T[]) => T) => Omit<MalformedLine, 'kind'>;

/** One generator per category; `n` is the line number, used to make every usable id unique. */
const CATEGORIES: Record<string, Make> = {
  truncated(n) {
    const whole = JSON.stringify({ jsonrpc: '2.0', id: `trunc-${n}`, method: 'initialize', params: INIT_PARAMS });
    return { text: whole.slice(0, 1 + ((n * 7919) % (whole.length - 2))) };
  },
  'not json'(_, pick) {
    return {
      text: pick([
        '{not json',
        '{"jsonrpc":"2.0",}',
        "{'jsonrpc':'2.0'}",
        '{"id":1 "method":"ping"}',
        'ping',
        '}{',
        '{"a":01}',
        '{"a":NaN}',
        '{"a":undefined}',
        '"unterminated',
        '{"jsonrpc":"2.0","id":1,"method":"ping"} trailing',
        '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}x',
      ]),
    };
  },
  'wrong jsonrpc'(n, pick) {
    const jsonrpc = pick([2, 2.0, '1.0', '2', '2.0 ', null, true, [], {}, '']);
    const id = `jsonrpc-${n}`;
    return { text: JSON.stringify({ jsonrpc, id, method: 'initialize', params: INIT_PARAMS }), id };
  },
  'missing jsonrpc'(n) {
    const id = `nojsonrpc-${n}`;
    return { text: JSON.stringify({ id, method: 'ping' }), id };
  },
  'wrong method'(n, pick) {
    const method = pick([1, null, true, [], {}, ['ping'], { name: 'ping' }]);
    const id = `method-${n}`;
    return { text: JSON.stringify({ jsonrpc: '2.0', id, method }), id };
  },
  'no method, no result'(n) {
    const id = `nomethod-${n}`;
    return { text: JSON.stringify({ jsonrpc: '2.0', id, params: {} }), id };
  },
  'unusable id'(_, pick) {
    const id = pick(['1e400', '-1e400', '99999999999999999999999', '1.5', '-0.25', '1e-7', 'true', 'false', '[]', '[1]', '{}', '{"id":1}', 'null']);
    return { text: `{"jsonrpc":"2.0","id":${id},"method":"ping"}` };
  },
  'wrong params'(n, pick) {
    const params = pick([1, 'params', true, [], [INIT_PARAMS], null]);
    const id = `params-${n}`;
    return { text: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params }), id };
  },
  'wrong initialize params'(n, pick) {
    const params = pick([
      { ...INIT_PARAMS, protocolVersion: 20251125 },
      { ...INIT_PARAMS, capabilities: 'all' },
      { ...INIT_PARAMS, clientInfo: 'me' },
      { ...INIT_PARAMS, clientInfo: { name: 5, version: '1' } },
      { capabilities: {}, clientInfo: { name: 't', version: '1' } },
      {},
    ]);
    const id = `initparams-${n}`;
    return { text: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params }), id };
  },
  '300-byte string id'(n, pick) {
    const tag = `-${n}`;
    const id = pick(['ascii', 'euro']) === 'ascii' ? 'x'.repeat(300 - tag.length) + tag : '€'.repeat(98) + 'xxxxxx'.slice(tag.length) + tag;
    return { text: JSON.stringify({ jsonrpc: '1.0', id, method: 'ping' }), id };
  },
  batch(n, pick) {
    const bad = [
      1,
      'x',
      null,
      {},
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', id: true, method: 'ping' },
      { jsonrpc: '1.0', id: `b-${n}`, method: 'ping' },
    ];
    return { text: JSON.stringify(bad.slice(0, pick([0, 1, 2, 4, 7]))) };
  },
  'deep nesting'(n, pick) {
    const id = `deep-${n}`;
    return pick([
      { text: nestedArrays(DEPTH) },
      { text: nestedObjects(DEPTH) },
      { text: nestedArrays(DEPTH).slice(0, DEPTH + DEPTH / 2) }, // unterminated
      { text: `{"jsonrpc":"2.0","id":${nestedArrays(DEPTH)},"method":"ping"}` },
      { text: `{"jsonrpc":"2.0","id":"${id}","method":"initialize","params":${nestedArrays(DEPTH)}}`, id },
      { text: `{"jsonrpc":${nestedObjects(DEPTH)},"id":"${id}","method":"ping"}`, id },
    ]);
  },
  blank(_, pick) {
    return { text: pick(['', ' ', '\t', '  \t  ', ' '.repeat(1000)]) };
  },
  'long string'(n, pick) {
    const size = pick([16 * 1024, 64 * 1024, 512 * 1024]);
    return pick([
      { text: JSON.stringify({ jsonrpc: 'x'.repeat(size), id: `long-${n}`, method: 'ping' }), id: `long-${n}` },
      { text: `{"jsonrpc":"2.0","id":"long-${n}","method":"${'m'.repeat(size)}` }, // never terminated
      {
        text: JSON.stringify({
          jsonrpc: '2.0',
          id: `long-${n}`,
          method: 'initialize',
          params: { ...INIT_PARAMS, protocolVersion: 7, pad: 'p'.repeat(size) },
        }),
        id: `long-${n}`,
      },
    ]);
  },
  'control characters'(n, pick) {
    const c = pick(CONTROLS);
    const id = `ctl-${n}`;
    return pick([
      { text: `{"jsonrpc":"2.0","id":"${id}","method":"pi${c}ng` }, // unterminated, raw control character
      { text: `{"jsonrpc":"2.0${c}","id":"${id}","method":"ping"}`, id },
      { text: `${c}${c}` },
      { text: `{"jsonrpc":"2.0","id":${JSON.stringify(id + c)},"method":"ping","params":[]}`, id: id + c },
    ]);
  },
  'not an object'(_, pick) {
    return { text: pick(['0', '-1', '3.14', '1e400', '"initialize"', '"{\\"jsonrpc\\":\\"2.0\\"}"', 'null', 'true', 'false', '""']) };
  },
};

export const MALFORMED_KINDS = Object.keys(CATEGORIES);

/** `count` malformed lines, cycling through the categories, variants picked by a PRNG seeded with `seed`. */
export function malformedLines(count = 1000, seed = 0x000fa0fe): MalformedLine[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  return Array.from({ length: count }, (_, n) => {
    const kind = MALFORMED_KINDS[n % MALFORMED_KINDS.length]!;
    return { kind, ...CATEGORIES[kind]!(n, pick) };
  });
}

/** True for a string or an integer JavaScript can echo exactly (what an MCP RequestId may be, in practice). */
export function isUsableId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/**
 * True when `text` is an acceptable JSON-RPC request or notification envelope: an object with jsonrpc "2.0",
 * a string method, a usable id or none, and object params or none. The generator must never produce one.
 */
export function isWellFormedMessage(text: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  const params = m['params'];
  return (
    m['jsonrpc'] === '2.0' &&
    typeof m['method'] === 'string' &&
    (!('id' in m) || isUsableId(m['id'])) &&
    (!('params' in m) || (typeof params === 'object' && params !== null && !Array.isArray(params)))
  );
}
