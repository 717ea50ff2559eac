/**
 * @module test/helpers/golden — the wire corpus of test/golden/ (its README.md): its manifest, one case played
 * against a fresh `wiregen serve golden --stdio` process, and the comparison of a response with the committed
 * one (parsed JSON, except JSON held inside a string, which must be canonical and equal byte for byte).
 *
 * Layout: test/golden/manifest.json lists the cases; case `legacy/tools-list` is the pair
 * test/golden/legacy/tools-list.request.json (one line, exactly as sent) and .response.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clip, describeDifference, firstDifference } from './json-diff.ts';
import { ROOT } from './project.ts';
import { startServer } from './stdio-server.ts';

export const GOLDEN_DIR = join(ROOT, 'test', 'golden');

export type Era = 'legacy' | 'modern';

/** The categories the issue asks for, each in both eras. */
export const REQUIRED_CATEGORIES = [
  'initialize-discover',
  'list',
  'call',
  'get',
  'read',
  'complete',
  'boom',
  'unknown-tool',
  'unknown-prompt',
  'missing-prompt-argument',
  'unknown-resource',
  'template-miss',
  'bad-params',
  'unknown-method',
  'removed-method',
  'meta',
  'unsupported-version',
  'wrong-era',
] as const;
/** Categories beyond the required ones. */
export const OTHER_CATEGORIES = ['lifecycle', 'subscriptions'] as const;
export type Category = (typeof REQUIRED_CATEGORIES)[number] | (typeof OTHER_CATEGORIES)[number];

export interface GoldenCase {
  /** `<era>/<case>`: the files are test/golden/<name>.request.json and .response.json. */
  readonly name: string;
  readonly era: Era;
  readonly category: Category;
  /** The reference server's handler set: `serve golden --handlers <handlers>`. */
  readonly handlers: 'base' | 'extended';
  /** Served as a transport that can deliver change notifications: `serve golden --notifications`. */
  readonly notifications: boolean;
  /**
   * Legacy cases: the revision the preamble's initialize asks for (then notifications/initialized), or null
   * when the case's request is the connection's first message. Modern cases: always null (no preamble).
   */
  readonly handshake: string | null;
  /** The MCP revision the response is served under; its generated package validates the response. */
  readonly revision: string;
  readonly note?: string;
}

export interface GoldenManifest {
  readonly description: string;
  readonly comparison: string;
  /** The preamble of a legacy case, as sent: `$REVISION` stands for the case's `handshake`. */
  readonly preamble: { readonly initialize: string; readonly initialized: string };
  /** What each handler set holds, what `notifications` means, and what each category covers (prose). */
  readonly handlers: Readonly<Record<GoldenCase['handlers'], string>>;
  readonly notifications: string;
  readonly categories: Readonly<Record<Category, string>>;
  readonly cases: readonly GoldenCase[];
}

export function loadManifest(): GoldenManifest {
  return JSON.parse(readFileSync(join(GOLDEN_DIR, 'manifest.json'), 'utf8')) as GoldenManifest;
}

export const requestPath = (c: GoldenCase) => join(GOLDEN_DIR, `${c.name}.request.json`);
export const responsePath = (c: GoldenCase) => join(GOLDEN_DIR, `${c.name}.response.json`);

/** The request line exactly as stored (the file is that line and a newline). */
export function requestLine(c: GoldenCase): string {
  const text = readFileSync(requestPath(c), 'utf8');
  if (!text.endsWith('\n') || text.indexOf('\n') !== text.length - 1) throw new Error(`${c.name}.request.json must be one line ending in a newline`);
  return text.slice(0, -1);
}

export function committedResponse(c: GoldenCase): unknown {
  return existsSync(responsePath(c)) ? JSON.parse(readFileSync(responsePath(c), 'utf8')) : undefined;
}

/** argv of the server a case runs against (relative to the project root). */
export function serverCommand(c: GoldenCase): string[] {
  return [
    process.execPath,
    'bin/wiregen.mjs',
    'serve',
    'golden',
    '--stdio',
    ...(c.handlers === 'base' ? [] : ['--handlers', c.handlers]),
    ...(c.notifications ? ['--notifications'] : []),
  ];
}

/** Compact JSON with object keys sorted: the only accepted form of JSON held inside a string. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** Every string in `value` that holds a JSON object or array not written canonically, as `<pointer>: <reason>`. */
export function nonCanonicalEmbeddedJson(value: unknown, path = ''): string[] {
  if (typeof value === 'string') {
    if (!/^\s*[[{]/.test(value)) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
    const canonical = canonicalJson(parsed);
    return canonical === value
      ? []
      : [
          `${path || '(root)'}: embedded JSON is not canonical (compact, keys sorted): ${clip(JSON.stringify(value), 200)}, canonical ${clip(JSON.stringify(canonical), 200)}`,
        ];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => nonCanonicalEmbeddedJson(v, `${path}/${i}`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => nonCanonicalEmbeddedJson(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return [];
}

/**
 * Why `actual` does not match the committed `expected`, or undefined when it does: equal as parsed JSON (key
 * order never matters; strings, and so JSON inside strings, compare byte for byte), and every JSON inside a
 * string canonical on both sides.
 */
export function responseMismatch(expected: unknown, actual: unknown): string | undefined {
  const problems = [
    ...nonCanonicalEmbeddedJson(expected).map((p) => `committed ${p}`),
    ...nonCanonicalEmbeddedJson(actual).map((p) => `actual ${p}`),
  ];
  const d = firstDifference(expected, actual);
  if (d) problems.unshift(describeDifference(d));
  return problems.length ? problems.join('\n') : undefined;
}

/** The JSON written for an accepted response: keys sorted, two-space indent (the request file stays one line). */
export function responseText(response: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sorted(response), null, 2)}\n`;
}

/**
 * How long to wait for each line, and for the exit: a fresh server pays its start-up (tsx loading the
 * runtime) before its first line, and the replay runs several at once, so this is well above the usual 10 s.
 */
export const GOLDEN_TIMEOUT_MS = 30_000;

export interface CaseRun {
  /** The response line, parsed; undefined when the run failed before it. */
  readonly response?: unknown;
  /** Why the run failed (no answer, not JSON, output left over, bad exit), with the server's stderr. */
  readonly failure?: string;
}

/**
 * Plays one case on a fresh server: the legacy preamble (initialize with the case's revision, which must be
 * answered with that revision, then notifications/initialized), the request line as stored, one line read
 * back; then stdin is closed and the server must exit 0 having written nothing else.
 */
export async function runCase(manifest: GoldenManifest, c: GoldenCase): Promise<CaseRun> {
  const server = startServer({ command: serverCommand(c) });
  const fail = (why: string): CaseRun => ({ failure: `${c.name}: ${why}\n[stderr]\n${clip(server.stderr(), 4000)}` });
  try {
    if (c.handshake !== null) {
      server.send(manifest.preamble.initialize.replace('$REVISION', c.handshake));
      const init = await server.nextLine(GOLDEN_TIMEOUT_MS);
      if (init.kind !== 'line') return fail(`initialize got ${init.kind}`);
      const answer = JSON.parse(init.line) as { result?: { protocolVersion?: unknown } };
      if (answer.result?.protocolVersion !== c.handshake)
        return fail(`initialize was not answered with revision ${c.handshake}: ${clip(init.line, 500)}`);
      server.send(manifest.preamble.initialized);
    }
    server.send(requestLine(c));
    const line = await server.nextLine(GOLDEN_TIMEOUT_MS);
    if (line.kind !== 'line') return fail(`the request got ${line.kind}, not a response line`);
    let response: unknown;
    try {
      response = JSON.parse(line.line);
    } catch {
      return fail(`the response is not JSON: ${clip(line.line, 500)}`);
    }
    const exit = await server.close(GOLDEN_TIMEOUT_MS);
    if (exit.rest.length) return fail(`unexpected output after the response: ${clip(exit.rest.join('\n'), 1000)}`);
    if (exit.timedOut || exit.code !== 0) return fail(`exit ${exit.timedOut ? 'timed out' : `code ${exit.code} signal ${exit.signal}`}`);
    return { response };
  } finally {
    server.kill();
  }
}

/** GOLDEN_ACCEPT=1: missing responses are written from the current output; existing ones never are. */
export const ACCEPT = process.env['GOLDEN_ACCEPT'] === '1';

/**
 * Compares a run with the committed response; with GOLDEN_ACCEPT=1 a missing response is written instead.
 * Returns the failure, if any.
 */
export function checkOrAccept(c: GoldenCase, run: CaseRun): string | undefined {
  if (run.failure) return run.failure;
  const expected = committedResponse(c);
  if (expected === undefined) {
    if (!ACCEPT) return `${c.name}: no committed response; run with GOLDEN_ACCEPT=1 to write it from the current output, then check it by hand`;
    const embedded = nonCanonicalEmbeddedJson(run.response);
    if (embedded.length) return `${c.name}: not accepted: ${embedded.join('; ')}`;
    writeFileSync(responsePath(c), responseText(run.response), { flag: 'wx' }); // wx: never overwrite
    return undefined;
  }
  const mismatch = responseMismatch(expected, run.response);
  return mismatch && `${c.name}: ${mismatch}`;
}
