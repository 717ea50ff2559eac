/**
 * @module golden/check — `wiregen golden check`: every case of a corpus against a server, ours or not. By
 * default each case gets a server of its own, so no state carries from case to case: a fresh process over
 * stdio (the command plus the case's arguments), a fresh process per case over HTTP (`url`, with `$PORT` a
 * free port each, else one at a time on the fixed port), a fresh server from an in-process factory. With
 * `share`, one server plays every case (per distinct argument set), one case at a time; without a command,
 * HTTP cases go to a server the user runs. Each response is compared with the expected one (compare.ts); a
 * case with no response file is a failure, or with `accept` is written from the answer (never over a file).
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { type Difference, type EmbeddedJson, describeDifference, differences, nonCanonicalEmbeddedJson, responseText } from './compare.ts';
import { type Corpus, type CorpusCase, expectedResponse, requestLine, responsePath } from './corpus.ts';
import { runHttpCase } from './http.ts';
import type { McpServer } from '@wiregen/runtime/mcp';
import { InProcessConnection, type InProcessServer, serverOf } from './inprocess.ts';
import { argumentsFor, freePort, type LineServer, type ServerArguments, ServerProcess, waitForPort } from './server.ts';
import { type CaseRun, runStdioCase } from './stdio.ts';

export interface CheckOptions {
  /** The server command (program first). Required over stdio; over HTTP, optional (started per argument set). */
  readonly command?: readonly string[];
  /**
   * Streamable HTTP endpoint; without it the cases are played over the command's stdio. `$PORT` in it (and
   * in the command, and the `PORT` environment variable) stands for a free loopback port chosen per server.
   */
  readonly url?: string;
  /** An in-process server: called once per case (once in all with `share`); no command, no URL. */
  readonly inProcess?: () => InProcessServer | Promise<InProcessServer>;
  /**
   * One server for every case, in corpus order, one at a time (its state carries from case to case).
   * Default false: a fresh process (stdio, HTTP with a command) or a fresh server (in-process) per case.
   */
  readonly share?: boolean;
  /** What each case's handler set and notifications add to the command. Default: `base` only. */
  readonly mapping?: ServerArguments;
  /** Write the responses that are missing from the server's answers (never overwrite one). Default false. */
  readonly accept?: boolean;
  /** stdio: nothing but the answers may be written, and the server must exit 0 when stdin closes. Default false. */
  readonly exact?: boolean;
  /** How strings holding JSON compare. Default `exact`. */
  readonly embedded?: EmbeddedJson;
  /** Per line (stdio) or request (HTTP), and for start-up, in ms. Default 30 000. */
  readonly timeoutMs?: number;
  /** Cases run at once (stdio: servers at once). Default 2. */
  readonly parallel?: number;
  /** The server's working directory, and where paths are shown from. Default: the process's. */
  readonly cwd?: string;
}

export type Status = 'pass' | 'fail' | 'accepted';

export interface CaseOutcome {
  readonly name: string;
  readonly status: Status;
  /** What to print under the case: the differences, the failure, or the file written. */
  readonly detail: readonly string[];
  /** The differences found, each with its JSON pointer (none when the case passed or could not run). */
  readonly differences?: readonly Difference[];
  readonly run?: CaseRun;
}

async function pool<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker));
  return results;
}

/** Compares one run with the expected response; with `accept`, writes the response a case lacks. */
export function judge(corpus: Corpus, c: CorpusCase, run: CaseRun, options: CheckOptions = {}): CaseOutcome {
  const cwd = options.cwd ?? process.cwd();
  if (run.failure !== undefined) return { name: c.name, status: 'fail', detail: run.failure.split('\n'), run };
  const expected = expectedResponse(corpus.dir, c, cwd);
  const path = responsePath(corpus.dir, c.name);
  const shown = relative(cwd, path) || path;
  if (expected === undefined) {
    if (!options.accept)
      return {
        name: c.name,
        status: 'fail',
        detail: [`no ${shown}: run with --accept to write it from this server's answer, then check it by hand`],
        run,
      };
    const embedded = options.embedded === 'parsed' ? [] : nonCanonicalEmbeddedJson(run.response);
    if (embedded.length)
      return { name: c.name, status: 'fail', detail: ['not accepted:', ...embedded.map(describeDifference)], differences: embedded, run };
    writeFileSync(path, responseText(run.response), { flag: 'wx' }); // wx: never overwrite
    return { name: c.name, status: 'accepted', detail: [`wrote ${shown}`], run };
  }
  const found = differences(expected, run.response, options.embedded ?? 'exact');
  return found.length
    ? { name: c.name, status: 'fail', detail: found.map(describeDifference), differences: found, run }
    : { name: c.name, status: 'pass', detail: [], run };
}

/** Plays `cases` (default: all of the corpus) and judges each; the outcomes are in the order of `cases`. */
export async function checkCorpus(corpus: Corpus, options: CheckOptions, cases: readonly CorpusCase[] = corpus.cases): Promise<CaseOutcome[]> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const share = options.share ?? false;
  const parallel = share ? 1 : (options.parallel ?? 2);
  const mapping = options.mapping ?? { handlers: {} };
  const cwd = options.cwd ?? process.cwd();
  const planned = cases.map((c) => ({ c, request: requestLine(corpus.dir, c, cwd), args: argumentsFor(c, mapping) }));
  const cannot = (c: CorpusCase, missing: string): CaseOutcome => ({ name: c.name, status: 'fail', detail: [`cannot run: it needs ${missing}`] });
  const exact = options.exact ?? false;
  if (options.url === undefined) {
    const command = options.command ?? [];
    const factory = options.inProcess;
    if (!command.length && !factory) throw new Error('golden check over stdio needs the server command (or an in-process server)');
    // In-process, sharing keeps one server and gives each case a connection of its own (as HTTP sessions do).
    let built: Promise<McpServer> | undefined;
    const open = async (args: readonly string[]): Promise<LineServer> =>
      factory
        ? new InProcessConnection(await (share ? (built ??= serverOf(factory())) : serverOf(factory())))
        : new ServerProcess([...command, ...args], { cwd });
    const sharedBy = new Map<string, { server: LineServer; state: { revision?: string } }>();
    try {
      return await pool(planned, parallel, async ({ c, request, args }) => {
        if ('missing' in args) return cannot(c, args.missing);
        const key = JSON.stringify(args.args);
        let shared = share && !factory ? sharedBy.get(key) : undefined;
        let server: LineServer;
        try {
          if (share && !factory && !shared) sharedBy.set(key, (shared = { server: await open(args.args), state: {} }));
          server = shared?.server ?? (await open(args.args));
        } catch (err) {
          return { name: c.name, status: 'fail', detail: [`the server could not be made: ${(err as Error)?.message ?? String(err)}`] };
        }
        const run = await runStdioCase(c, request, {
          command: [...command, ...args.args],
          server,
          ...(shared ? { shared: shared.state } : {}),
          cwd,
          preamble: corpus.preamble,
          timeoutMs,
          exact: factory ? false : exact,
        });
        return judge(corpus, c, run, options);
      });
    } finally {
      for (const { server } of sharedBy.values()) server.kill();
    }
  }
  const url = options.url;
  const outcomes = new Map<string, CaseOutcome>();
  const runnable = planned.filter((p) => ('missing' in p.args ? (outcomes.set(p.c.name, cannot(p.c, p.args.missing)), false) : true));
  const playOn = (target: string, group: typeof planned, at: number) =>
    pool(group, at, async ({ c, request }) =>
      judge(corpus, c, await runHttpCase(c, request, { url: target, preamble: corpus.preamble, timeoutMs }), options),
    );
  if (!options.command?.length) {
    if (url.includes('$PORT')) throw new Error('golden check: a URL with $PORT needs the command that serves it');
    for (const o of await playOn(url, runnable, options.parallel ?? 2)) outcomes.set(o.name, o);
  } else {
    // One server per group: per case when isolated, else per distinct argument list. Servers on a fixed
    // port run one at a time; with $PORT each gets a free one.
    const groups = new Map<string, typeof planned>();
    for (const p of runnable) {
      const key = share ? JSON.stringify('args' in p.args ? p.args.args : []) : p.c.name;
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    const perPort = url.includes('$PORT');
    await pool([...groups.values()], perPort ? parallel : 1, async (group) => {
      const port = perPort ? String(await freePort()) : '';
      const fill = (text: string) => (perPort ? text.replaceAll('$PORT', port) : text);
      const args = 'args' in group[0]!.args ? group[0]!.args.args : [];
      const target = fill(url);
      const server = new ServerProcess([...options.command!, ...args].map(fill), {
        cwd,
        env: perPort ? { ...process.env, PORT: port } : process.env,
      });
      try {
        await waitForPort(target, timeoutMs, () => server.alive());
        for (const o of await playOn(target, group, share ? 1 : (options.parallel ?? 2))) outcomes.set(o.name, o);
      } catch (err) {
        const why = `${(err as Error).message}${server.stderr().trim() ? `\n[stderr]\n${server.stderr().trim().slice(-2000)}` : ''}`;
        for (const { c } of group) outcomes.set(c.name, { name: c.name, status: 'fail', detail: why.split('\n') });
      } finally {
        server.kill();
        await server.finished();
      }
    });
  }
  return cases.map((c) => outcomes.get(c.name)!);
}

/** The report: one line per case, its details indented below a failure, and the totals. */
export function report(outcomes: readonly CaseOutcome[], verbose = false): string[] {
  const lines: string[] = [];
  for (const o of outcomes) {
    if (o.status === 'pass') {
      if (verbose) lines.push(`pass ${o.name}`);
      continue;
    }
    lines.push(`${o.status === 'fail' ? 'FAIL' : 'accepted'} ${o.name}`, ...o.detail.map((d) => `    ${d}`));
  }
  const count = (s: Status) => outcomes.filter((o) => o.status === s).length;
  const accepted = count('accepted');
  lines.push(`${outcomes.length} cases: ${count('pass')} passed, ${count('fail')} failed${accepted ? `, ${accepted} accepted` : ''}`);
  return lines;
}
