/**
 * @module golden/stdio — one case played on a fresh stdio server: the legacy preamble (its initialize,
 * whose answer must carry the revision asked for, then notifications/initialized), the request line as
 * stored, and the lines read back until the response with the request's id. Notifications and server
 * requests that come before it are kept, not compared. Then stdin is closed; with `exact`, the server must
 * have written nothing else and exit 0 (what test/golden/README.md asks of the Golden Server).
 */
import { clip } from './compare.ts';
import type { CorpusCase, Preamble } from './corpus.ts';
import { type LineServer, ServerProcess } from './server.ts';

/** What one case's run gave. */
export interface CaseRun {
  /** The response, parsed; undefined when the run failed before it. */
  readonly response?: unknown;
  /** Why the run failed (no answer, not JSON, output left over, bad exit), with the server's stderr. */
  readonly failure?: string;
  /** Other messages the server sent before the response (notifications, requests), parsed. */
  readonly other: readonly unknown[];
}

export interface StdioRun {
  /** The server command with the case's arguments (unless `server` is given). */
  readonly command: readonly string[];
  /** The connection to play on instead of a fresh process of `command` (an in-process server, or a shared one). */
  readonly server?: LineServer;
  /**
   * A connection that serves several cases: its handshake is made once (the revision it negotiated is kept
   * here), and it is left open for the next case.
   */
  readonly shared?: { revision?: string };
  readonly cwd?: string;
  readonly preamble: Preamble;
  /** How long to wait for each line and for the exit, in ms. */
  readonly timeoutMs: number;
  /** Nothing but the answers may be written, and the server must exit 0 once stdin closes. */
  readonly exact: boolean;
}

const idOf = (line: string): unknown => (JSON.parse(line) as { id?: unknown }).id;

/** Whether `message` is the response to the request with `id`. */
export function answers(message: unknown, id: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return m['id'] === id && m['method'] === undefined && ('result' in m || 'error' in m);
}

export async function runStdioCase(c: CorpusCase, request: string, run: StdioRun): Promise<CaseRun> {
  const server = run.server ?? new ServerProcess(run.command, run.cwd ? { cwd: run.cwd } : {});
  const shared = run.shared;
  const other: unknown[] = [];
  const fail = (why: string): CaseRun => ({
    failure: `${why}${server.stderr().trim() ? `\n[stderr]\n${clip(server.stderr().trim(), 2000)}` : ''}`,
    other,
  });
  /** Reads until the response to `id`; other messages are kept. */
  const answerTo = async (id: unknown, what: string): Promise<{ message: unknown } | { failure: string }> => {
    for (;;) {
      const next = await server.nextLine(run.timeoutMs);
      if (next.kind !== 'line')
        return { failure: `${what}: no response (${next.kind === 'eof' ? 'the server closed its output' : `nothing within ${run.timeoutMs} ms`})` };
      if (next.line.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(next.line);
      } catch {
        return { failure: `${what}: the server wrote a line that is not JSON: ${clip(next.line, 300)}` };
      }
      if (answers(message, id)) return { message };
      if (run.exact) return { failure: `${what}: the server wrote something before the response: ${clip(next.line, 300)}` };
      other.push(message);
    }
  };
  try {
    if (shared && c.handshake === null && c.era === 'handshake' && shared.revision !== undefined)
      return fail('an initialize case cannot run on a shared connection that was initialized already: run the cases isolated');
    if (shared && c.handshake !== null && shared.revision !== undefined && shared.revision !== c.handshake)
      return fail(`the shared connection negotiated ${shared.revision}, this case needs ${c.handshake}: run the cases isolated`);
    if (c.handshake !== null && shared?.revision === undefined) {
      const initialize = run.preamble.initialize.replaceAll('$REVISION', c.handshake);
      server.send(initialize);
      const init = await answerTo(idOf(initialize), 'the preamble initialize');
      if ('failure' in init) return fail(init.failure);
      const version = (init.message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
      if (version !== c.handshake)
        return fail(`the preamble initialize was not answered with revision ${c.handshake}: ${clip(JSON.stringify(init.message), 500)}`);
      server.send(run.preamble.initialized);
      if (shared) shared.revision = c.handshake;
    }
    server.send(request);
    const got = await answerTo(idOf(request), 'the request');
    if ('failure' in got) return fail(got.failure);
    if (c.handshake === null && c.era === 'handshake' && shared)
      shared.revision = (JSON.parse(request) as { params?: { protocolVersion?: string } }).params?.protocolVersion ?? '';
    if (shared) return { response: got.message, other };
    const exit = await server.close(run.exact ? run.timeoutMs : 2000);
    if (run.exact) {
      if (exit.rest.length) return fail(`unexpected output after the response: ${clip(exit.rest.join('\n'), 1000)}`);
      if (exit.timedOut || exit.code !== 0)
        return fail(`exit ${exit.timedOut ? 'timed out' : `code ${exit.code} signal ${exit.signal}`} once stdin closed`);
    }
    return { response: got.message, other };
  } finally {
    if (!shared) server.kill();
  }
}
