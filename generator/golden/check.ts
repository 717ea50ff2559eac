/**
 * @module golden/check — `wiregen golden check`: every case of a corpus against a server, ours or not. Over
 * stdio each case gets a fresh server (the command plus the case's arguments); over HTTP (`url`) the command,
 * when given, is started once per distinct set of arguments and the cases go to the URL once it accepts
 * connections (without a command, to a server the user runs). Each response is compared with the expected
 * one (compare.ts); a case with no response file is a failure, or with `accept` is written from the answer
 * (never over an existing file).
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { type EmbeddedJson, describeDifference, differences, nonCanonicalEmbeddedJson, responseText } from './compare.ts';
import { type Corpus, type CorpusCase, expectedResponse, requestLine, responsePath } from './corpus.ts';
import { runHttpCase } from './http.ts';
import { argumentsFor, type ServerArguments, ServerProcess, waitForPort } from './server.ts';
import { type CaseRun, runStdioCase } from './stdio.ts';

export interface CheckOptions {
  /** The server command (program first). Required over stdio; over HTTP, optional (started per argument set). */
  readonly command?: readonly string[];
  /** Streamable HTTP endpoint; without it the cases are played over the command's stdio. */
  readonly url?: string;
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
    if (embedded.length) return { name: c.name, status: 'fail', detail: ['not accepted:', ...embedded.map(describeDifference)], run };
    writeFileSync(path, responseText(run.response), { flag: 'wx' }); // wx: never overwrite
    return { name: c.name, status: 'accepted', detail: [`wrote ${shown}`], run };
  }
  const found = differences(expected, run.response, options.embedded ?? 'exact');
  return found.length
    ? { name: c.name, status: 'fail', detail: found.map(describeDifference), run }
    : { name: c.name, status: 'pass', detail: [], run };
}

/** Plays `cases` (default: all of the corpus) and judges each. */
export async function checkCorpus(corpus: Corpus, options: CheckOptions, cases: readonly CorpusCase[] = corpus.cases): Promise<CaseOutcome[]> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const parallel = options.parallel ?? 2;
  const mapping = options.mapping ?? { handlers: {} };
  const cwd = options.cwd ?? process.cwd();
  const planned = cases.map((c) => ({ c, request: requestLine(corpus.dir, c, cwd), args: argumentsFor(c, mapping) }));
  const cannot = (c: CorpusCase, missing: string): CaseOutcome => ({ name: c.name, status: 'fail', detail: [`cannot run: it needs ${missing}`] });
  if (options.url === undefined) {
    const command = options.command ?? [];
    if (!command.length) throw new Error('golden check over stdio needs the server command');
    return pool(planned, parallel, async ({ c, request, args }) => {
      if ('missing' in args) return cannot(c, args.missing);
      const run = await runStdioCase(c, request, {
        command: [...command, ...args.args],
        cwd,
        preamble: corpus.preamble,
        timeoutMs,
        exact: options.exact ?? false,
      });
      return judge(corpus, c, run, options);
    });
  }
  const url = options.url;
  const play = (group: typeof planned) =>
    pool(group, parallel, async ({ c, request }) =>
      judge(corpus, c, await runHttpCase(c, request, { url, preamble: corpus.preamble, timeoutMs }), options),
    );
  const outcomes = new Map<string, CaseOutcome>();
  const runnable = planned.filter((p) => ('missing' in p.args ? (outcomes.set(p.c.name, cannot(p.c, p.args.missing)), false) : true));
  if (!options.command?.length) for (const o of await play(runnable)) outcomes.set(o.name, o);
  else {
    // One server per distinct argument list, one at a time: they listen on the same URL.
    const groups = new Map<string, typeof planned>();
    for (const p of runnable) {
      const key = JSON.stringify('args' in p.args ? p.args.args : []);
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    for (const [key, group] of groups) {
      const server = new ServerProcess([...options.command, ...(JSON.parse(key) as string[])], { cwd });
      try {
        await waitForPort(url, timeoutMs, () => server.alive());
        for (const o of await play(group)) outcomes.set(o.name, o);
      } catch (err) {
        const why = `${(err as Error).message}${server.stderr().trim() ? `\n[stderr]\n${server.stderr().trim().slice(-2000)}` : ''}`;
        for (const { c } of group) outcomes.set(c.name, { name: c.name, status: 'fail', detail: why.split('\n') });
      } finally {
        server.kill();
        await server.finished();
      }
    }
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
