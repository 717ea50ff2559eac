/**
 * @module test/helpers/golden — the wire corpus of test/golden/ (its README.md): its manifest, one case played
 * against a fresh `wiregen serve golden --stdio` process, and the comparison of a response with the committed
 * one (parsed JSON, except JSON held inside a string, which must be canonical and equal byte for byte).
 *
 * Layout: test/golden/manifest.json lists the cases; case `legacy/tools-list` is the pair
 * test/golden/legacy/tools-list.request.json (one line, exactly as sent) and .response.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clip, describeDifference, firstDifference } from './json-diff.ts';
import { ROOT } from './project.ts';
import { judge } from '../../generator/golden/check.ts';
import { type Corpus, type CorpusCase, loadCorpus } from '../../generator/golden/corpus.ts';
import { runStdioCase } from '../../generator/golden/stdio.ts';

export const GOLDEN_DIR = join(ROOT, 'test', 'golden');

import type { Era } from '../../generator/golden/corpus.ts';

export type { Era };

/** The categories a golden corpus must cover, each in both eras. */
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
  /** `reference`: the reference Golden Server's own case (also in test/golden/reference/); `project`: ours. */
  readonly provenance: 'reference' | 'project';
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

/** The corpus as `wiregen golden check` reads it (generator/golden/corpus.ts): the replay goes through it. */
let corpus: Corpus | undefined;
function goldenCorpus(): Corpus {
  corpus ??= loadCorpus(GOLDEN_DIR, { cwd: ROOT });
  return corpus;
}
const corpusCase = (c: GoldenCase): CorpusCase => {
  const found = goldenCorpus().cases.find((x) => x.name === c.name);
  if (!found) throw new Error(`${c.name}: not in test/golden/manifest.json`);
  return found;
};

/**
 * Plays one case on a fresh server, as `wiregen golden check --exact` does (generator/golden/stdio.ts): the
 * legacy preamble (initialize with the case's revision, which must be answered with that revision, then
 * notifications/initialized), the request line as stored, the response read back; then stdin is closed and
 * the server must exit 0 having written nothing else.
 */
export async function runCase(_manifest: GoldenManifest, c: GoldenCase): Promise<CaseRun> {
  const cc = corpusCase(c);
  const run = await runStdioCase(cc, requestLine(c), {
    command: serverCommand(c),
    cwd: ROOT,
    preamble: goldenCorpus().preamble,
    timeoutMs: GOLDEN_TIMEOUT_MS,
    exact: true,
  });
  return run.failure !== undefined ? { failure: `${c.name}: ${run.failure}` } : { response: run.response };
}

/** GOLDEN_ACCEPT=1: missing responses are written from the current output; existing ones never are. */
export const ACCEPT = process.env['GOLDEN_ACCEPT'] === '1';

/**
 * Compares a run with the committed response as `wiregen golden check` does (generator/golden/check.ts
 * `judge`); with GOLDEN_ACCEPT=1 a missing response is written instead (`--accept`). Returns the failure, if any.
 */
export function checkOrAccept(c: GoldenCase, run: CaseRun): string | undefined {
  if (run.failure) return run.failure;
  const outcome = judge(goldenCorpus(), corpusCase(c), { response: run.response, other: [] }, { accept: ACCEPT, cwd: ROOT });
  return outcome.status === 'fail' ? `${c.name}: ${outcome.detail.join('\n')}` : undefined;
}
