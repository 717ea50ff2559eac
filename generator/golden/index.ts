/**
 * @module golden — `wiregen/golden`: golden-file tests of an MCP server as a library. A corpus directory
 * (docs/golden-tests.md; its JSON Schema is `wiregen/golden/corpus.schema.json`) is played against a server
 * given as a command (stdio), a URL (Streamable HTTP, with the command that serves it) or an in-process
 * factory, and each case's response is compared with the committed one. Each case gets a server of its own
 * unless `share` is set. What `wiregen golden check|record` runs, without spawning the CLI.
 */
import { resolve } from 'node:path';
import { type CaseOutcome, type CheckOptions, checkCorpus as checkLoaded, report } from './check.ts';
import { describeDifference, type EmbeddedJson } from './compare.ts';
import { type Era, loadCorpus } from './corpus.ts';
import type { InProcessServer } from './inprocess.ts';
import { recordCase as recordInto } from './record.ts';

export type { EmbeddedJson, Era, InProcessServer };

/** A server started per case (or once, with `share`) from a command, spoken to over its stdio. */
export interface CommandServer {
  /** The program and its arguments, e.g. `['node', 'dist/main.js']`. */
  readonly command: readonly string[];
}

/**
 * A server over Streamable HTTP. With `command`, the command is started per case (once with `share`) and the
 * cases go to `url` once it accepts connections: write `$PORT` in `url` and in the command (or read the `PORT`
 * environment variable) for a free loopback port per server, else servers on the fixed port run one at a
 * time. Without `command`, every case goes to a server already running at `url` (no isolation).
 */
export interface UrlServer {
  readonly url: string;
  readonly command?: readonly string[];
}

/** A server built in this process, called once per case (once with `share`), driven without sockets. */
export type ServerFactory = () => InProcessServer | Promise<InProcessServer>;

/** The server under test. */
export type GoldenServer = CommandServer | UrlServer | ServerFactory;

/** What {@link checkCorpus} and {@link recordCase} take besides the corpus. */
export interface GoldenOptions {
  /** The server under test. */
  readonly server: GoldenServer;
  /** One server for every case, one case at a time. Default false: a server per case. */
  readonly share?: boolean;
  /** Servers (cases) at once when isolated. Default 2. */
  readonly concurrency?: number;
  /** Per message and for start-up, in ms. Default 30 000. */
  readonly timeoutMs?: number;
  /** How strings holding JSON compare: `exact` (byte for byte, canonical; default) or `parsed`. */
  readonly embedded?: EmbeddedJson;
  /** Server arguments per handler set the cases name (`base` adds none unless given). */
  readonly handlers?: Readonly<Record<string, readonly string[]>>;
  /** Server arguments for cases with `"notifications": true`. */
  readonly notifications?: readonly string[];
  /** The revision a handshake preamble negotiates when neither case nor manifest names one. Default 2025-06-18. */
  readonly handshake?: string;
  /** Where the command runs and relative paths resolve from. Default: the process's working directory. */
  readonly cwd?: string;
}

/** Options of {@link checkCorpus}. */
export interface CheckCorpusOptions extends GoldenOptions {
  /** The corpus directory (holding manifest.json). */
  readonly corpus: string;
  /** Only these cases (by name). Default: all. */
  readonly only?: readonly string[];
  /** Write the response files that are missing from the server's answers (never over one). Default false. */
  readonly accept?: boolean;
}

/** Options of {@link recordCase}. */
export interface RecordCaseOptions extends GoldenOptions {
  /** The corpus directory; created, with its manifest, when missing. */
  readonly corpus: string;
  /** The new case's name, e.g. `stateless/tools-list`. */
  readonly name: string;
  /** The request, as JSON text or a value. */
  readonly request: string | object;
  /** The case's era. Default: the name's first segment (`handshake`/`legacy`, `stateless`/`modern`). */
  readonly era?: Era;
  /** The handler set the case needs. Default `base`. */
  readonly set?: string;
}

/** One place where the response differs from the expected one. */
export interface GoldenDifference {
  /** RFC 6901 JSON pointer into the response (`""` is the whole message). */
  readonly pointer: string;
  /** The expected value there (undefined: absent). */
  readonly expected: unknown;
  /** The value the server sent there (undefined: absent). */
  readonly actual: unknown;
  /** One line: `/result/isError: unexpected member: expected (absent), got false`. */
  readonly message: string;
}

/** The result of one case. */
export interface GoldenCaseResult {
  readonly name: string;
  /** `pass`, `fail`, or `accepted` (its response file was written). */
  readonly status: 'pass' | 'fail' | 'accepted';
  /** The differences when the response differs (empty otherwise). */
  readonly differences: readonly GoldenDifference[];
  /** Why the case failed when it is not a difference (no answer, no response file, server failed). */
  readonly failure?: string;
  /** The lines a report prints under the case. */
  readonly lines: readonly string[];
  /** The response the server sent, parsed (undefined when none came). */
  readonly response?: unknown;
}

function checkOptions(o: GoldenOptions, cwd: string): CheckOptions {
  const s = o.server;
  const base = {
    share: o.share ?? false,
    mapping: { handlers: o.handlers ?? {}, ...(o.notifications ? { notifications: o.notifications } : {}) },
    cwd,
    ...(o.concurrency !== undefined ? { parallel: o.concurrency } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.embedded !== undefined ? { embedded: o.embedded } : {}),
  };
  if (typeof s === 'function') return { ...base, inProcess: s };
  if ('url' in s && s.url !== undefined) return { ...base, url: s.url, ...(s.command ? { command: s.command } : {}) };
  if (!('command' in s) || !s.command?.length) throw new TypeError('wiregen/golden: the server is a command, a URL or a factory');
  return { ...base, command: s.command };
}

function resultOf(o: CaseOutcome): GoldenCaseResult {
  const differences = (o.differences ?? []).map((d) => ({ pointer: d.path, expected: d.expected, actual: d.actual, message: describeDifference(d) }));
  const failure = o.status === 'fail' && !o.differences?.length ? o.detail.join('\n') : undefined;
  return {
    name: o.name,
    status: o.status,
    differences,
    ...(failure !== undefined ? { failure } : {}),
    lines: o.detail,
    ...(o.run?.response !== undefined ? { response: o.run.response } : {}),
  };
}

/** Plays every case of a corpus (or `only` some) against the server; the results are in corpus order. */
export async function checkCorpus(options: CheckCorpusOptions): Promise<GoldenCaseResult[]> {
  const cwd = options.cwd ?? process.cwd();
  const corpus = loadCorpus(resolve(cwd, options.corpus), { ...(options.handshake !== undefined ? { handshake: options.handshake } : {}), cwd });
  const only = options.only;
  const unknown = (only ?? []).filter((n) => !corpus.cases.some((c) => c.name === n));
  if (unknown.length) throw new Error(`wiregen/golden: no case ${unknown.join(', ')} in ${corpus.shown}`);
  const cases = only ? corpus.cases.filter((c) => only.includes(c.name)) : corpus.cases;
  const outcomes = await checkLoaded(corpus, { ...checkOptions(options, cwd), accept: options.accept ?? false }, cases);
  return outcomes.map(resultOf);
}

/** Records one new case: writes its request, the server's response and its manifest entry (never over a file). */
export async function recordCase(options: RecordCaseOptions): Promise<GoldenCaseResult> {
  const cwd = options.cwd ?? process.cwd();
  const request = typeof options.request === 'string' ? options.request : JSON.stringify(options.request);
  const outcome = await recordInto(
    resolve(cwd, options.corpus),
    {
      name: options.name,
      request,
      ...(options.set !== undefined ? { handlers: options.set } : {}),
      ...(options.era !== undefined ? { era: options.era } : {}),
    },
    { ...checkOptions(options, cwd), ...(options.handshake !== undefined ? { handshake: options.handshake } : {}) },
  );
  return resultOf(outcome);
}

/** The report `wiregen golden check` prints: failures with their lines indented, then the totals. */
export function formatResults(results: readonly GoldenCaseResult[], verbose = false): string {
  return report(
    results.map((r) => ({ name: r.name, status: r.status, detail: r.lines })),
    verbose,
  ).join('\n');
}
