/**
 * @module test/fuzz/harness/mutate — how a corpus message becomes a fuzzed one: structural mutations of the
 * JSON (members dropped, added, replaced by values of another type, ids and methods changed, `_meta` and
 * `requestState` tampered with, requests turned into notifications or responses, nesting up to 100,000 deep),
 * then, sometimes, mutations of the text (truncated, characters inserted or deleted, batches, BOM, CR,
 * a string past the size limit). Deep nesting is written as text: JSON.stringify cannot write it.
 */
import type { Random } from './random.ts';

type Json = Record<string, unknown>;

const DEEP_MARK = /"__fuzz_deep_(\d+)_([ao])__"/g;

/** A placeholder JSON.stringify writes as a string and `render` replaces with nesting `depth` deep. */
const deepMark = (depth: number, kind: 'a' | 'o') => `__fuzz_deep_${depth}_${kind}__`;

function deepDepth(rng: Random): number {
  return rng.weighted([
    [4, 2 + rng.int(20)],
    [2, 126 + rng.int(5)],
    [1, 200],
    [1, 1_000],
    [1, 10_000],
    [0.3, 100_000],
  ]);
}

/** The wide (beyond 2^53) integers the fuzzer uses as ids: spaced 4096 apart, so that doubles keep them apart. */
const wideId = (n: number, valid: boolean) => (valid ? 2 ** 62 : 2 ** 63) + (n % 100_000) * 4096;

function randomScalar(rng: Random): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => true,
    () => false,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -0,
    () => 2 ** 53 + 2,
    () => rng.string(),
    () => '',
    () => 'x'.repeat(257),
    () => [],
    () => ({}),
    () => [rng.string(), 1, null],
    () => ({ [rng.string(6)]: rng.string(6) }),
    () => deepMark(deepDepth(rng), rng.chance(0.5) ? 'a' : 'o'),
  ])();
}

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/read',
  'prompts/get',
  'server/discover',
  'notifications/cancelled',
  'notifications/progress',
  'SendMessage',
  'GetTask',
  'CancelTask',
  'ListTasks',
  'no/such/method',
  '',
  'rpc.discover',
];

/** Every container of `value` with the path to it (breadth first, bounded). */
function containers(value: unknown): (Json | unknown[])[] {
  const out: (Json | unknown[])[] = [];
  const queue: unknown[] = [value];
  while (queue.length && out.length < 200) {
    const node = queue.shift();
    if (node === null || typeof node !== 'object') continue;
    out.push(node as Json | unknown[]);
    for (const child of Object.values(node)) queue.push(child);
  }
  return out;
}

/** One structural mutation, in place, of `message` (a deep copy); may replace it (the returned value). */
function mutateOnce(rng: Random, message: unknown, serial: number): unknown {
  const nodes = containers(message);
  const node = nodes.length ? rng.pick(nodes) : undefined;
  const keys = node ? Object.keys(node) : [];
  const top = message !== null && typeof message === 'object' && !Array.isArray(message) ? (message as Json) : undefined;
  const params = top && top['params'] !== null && typeof top['params'] === 'object' ? (top['params'] as Json) : undefined;
  const meta = params && params['_meta'] !== null && typeof params['_meta'] === 'object' ? (params['_meta'] as Json) : undefined;
  const op = rng.int(16);
  switch (op) {
    case 0:
      if (node && keys.length) delete (node as Json)[rng.pick(keys)];
      return message;
    case 1:
    case 2:
      if (node && keys.length) (node as Json)[rng.pick(keys)] = randomScalar(rng);
      return message;
    case 3:
      if (node && !Array.isArray(node)) (node as Json)[rng.pick(['_meta', 'extra', rng.string(5), '__proto__', 'constructor'])] = randomScalar(rng);
      else if (node) (node as unknown[]).push(randomScalar(rng));
      return message;
    case 4:
      if (top)
        top['id'] = rng.pick<unknown>([
          null,
          1.5,
          true,
          [],
          {},
          'x'.repeat(300),
          `fz-é-${serial}`,
          -serial - 1,
          wideId(serial, true),
          wideId(serial, false),
        ]);
      return message;
    case 5:
      if (top) top['jsonrpc'] = rng.pick<unknown>(['1.0', 2, null, undefined, '2.0 ']);
      return message;
    case 6:
      if (top) top['method'] = rng.chance(0.3) ? randomScalar(rng) : rng.pick(METHODS);
      return message;
    case 7:
      if (top) top['params'] = rng.pick<unknown>([null, [], 'params', 1, [top['params']]]);
      return message;
    case 8:
      if (node && keys.length) (node as Json)[rng.pick(keys)] = deepMark(deepDepth(rng), rng.chance(0.5) ? 'a' : 'o');
      return message;
    case 9:
      if (meta) {
        const key = rng.pick(Object.keys(meta).concat(['progressToken', 'io.modelcontextprotocol/logLevel', 'bad key!', '']));
        meta[key] = randomScalar(rng);
      }
      return message;
    case 10:
      if (params) params['requestState'] = rng.pick(['', 'mrtr1..', 'mrtr1.W10.AAAA', `mrtr1.${'A'.repeat(40)}.${'B'.repeat(43)}=`, rng.string()]);
      return message;
    case 11:
      if (top) delete top['id'];
      return message;
    case 12:
      if (top) {
        delete top['method'];
        delete top['params'];
        top[rng.chance(0.5) ? 'result' : 'error'] = rng.chance(0.5) ? randomScalar(rng) : { code: -1, message: rng.string() };
      }
      return message;
    case 13:
      return randomScalar(rng);
    case 14:
      if (params && rng.chance(0.5)) params['arguments'] = { n: rng.pick([-1, 0, 3, 10_001, 2_000_000, 1e9, 1.5]), a: 1, b: 2 };
      return message;
    default:
      if (meta)
        meta['io.modelcontextprotocol/clientCapabilities'] = rng.chance(0.5) ? randomScalar(rng) : { sampling: deepMark(deepDepth(rng), 'o') };
      return message;
  }
}

/** Writes `value` as JSON, nesting where a deep placeholder stands. */
function render(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(DEEP_MARK, (_, depth: string, kind: string) => {
    const d = Number(depth);
    return kind === 'a' ? `${'['.repeat(d)}1${']'.repeat(d)}` : `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;
  });
}

/** One text mutation of `text`. `lines`: a newline would split the frame on stdio (so it is rarer). */
function mutateText(rng: Random, text: string, lines: boolean, serial: number): string {
  const at = rng.int(text.length + 1);
  switch (rng.int(lines ? 10 : 9)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + rng.pick(['"', '{', '}', '[', ']', ',', ':', '\\', '\u0000', '\ud800', 'é', ' ', '\t', '1e999']) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1);
    case 3:
      return `\ufeff${text}`;
    case 4:
      return `${text}\r`;
    case 5:
      return `[${text}]`;
    case 6:
      return `${text}${text}`;
    case 7:
      // Duplicate keys: the last one wins in JSON.parse.
      return text.startsWith('{') ? `{"id":"dup","id":${JSON.stringify(`dup-${serial}`)},${text.slice(1)}` : text;
    case 8:
      // Past the 4 MiB line and body limits.
      return text.startsWith('{') ? `{"pad":"${'x'.repeat(4 * 1024 * 1024 + 16)}",${text.slice(1)}` : text;
    default:
      return `${text.slice(0, at)}\n${text.slice(at)}`;
  }
}

/**
 * A fuzzed text from `seed` (not changed): one to four structural mutations most of the time, a text
 * mutation a fifth of the time (the size one rarely), sometimes none (a valid message keeps the server busy).
 */
export function fuzz(rng: Random, seed: unknown, serial: number, lines: boolean): string {
  let message: unknown = structuredClone(seed);
  if (rng.chance(0.85)) for (let i = 1 + rng.int(3); i > 0; i--) message = mutateOnce(rng, message, serial);
  let text = render(message);
  if (rng.chance(0.2)) {
    text = mutateText(rng, text, lines, serial);
    // The oversized text costs time on every side: keep it rare.
    if (text.length > 4 * 1024 * 1024 && !rng.chance(0.05)) text = text.slice(0, 1000);
  }
  return text;
}
