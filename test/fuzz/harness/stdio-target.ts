/**
 * @module test/fuzz/harness/stdio-target — fuzzing `wiregen serve recorded-server --stdio`. Messages go out
 * in windows of WINDOW, each closed by a ping with an id of its own: answers with an id are matched to their
 * request (exactly one each, within 5 s), answers with id null are counted against what the window's messages
 * owe (the oracle), anything else is a violation; every line the server writes must be JSON-RPC 2.0. The
 * server's own requests (elicitation, sampling) are declined at once, so no tool waits for the fuzzer.
 */
import { createInterface } from 'node:readline';
import { expectationOf, INTERNAL_ERROR, onTheWire, readWritten, type Expectation } from './oracle.ts';
import { probeLine, type Json } from './corpus.ts';
import { fuzz } from './mutate.ts';
import { startServe, type ServerProcess } from './process.ts';
import type { Random } from './random.ts';
import { violation, type TargetReport } from './report.ts';

const WINDOW = 25;
/** The line limit of `serve --stdio` (runtime/transports/stdio.ts DEFAULT_MAX_LINE_BYTES). */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface StdioRun {
  readonly report: TargetReport;
  readonly rng: Random;
  readonly seeds: readonly Json[];
  /** Sent unmutated first (the handshake era's initialize), and awaited. */
  readonly opening?: readonly Json[];
  readonly raw: readonly string[];
  readonly count: number;
  readonly answerMs: number;
  readonly maxRssMb: number;
  /** performance.now() past which no more is sent. */
  readonly stopAt: number;
  /** Server command instead of `wiregen serve recorded-server --stdio` (argv). */
  readonly command?: readonly string[];
}

/** A copy of `seed` whose id (when it has one) is `serial`, as a number or a string. */
export function withId(seed: Json, serial: number): Json {
  return Object.hasOwn(seed, 'id') ? { ...seed, id: serial % 2 ? serial : `fz-${serial}` } : seed;
}

/** What the server owes one text written to its stdin, per line it splits into. */
function lineExpectations(text: string): Expectation[] {
  return text.split('\n').map((piece) => {
    const line = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
    if (line.trim() === '') return { kind: 'none' };
    if (Buffer.byteLength(line) > MAX_LINE_BYTES) return { kind: 'null-answer' };
    return expectationOf(line);
  });
}

export async function fuzzStdio(run: StdioRun): Promise<void> {
  const { report, rng } = run;
  const server: ServerProcess = startServe(['recorded-server', '--stdio'], run.command);
  // By key: when a mutation made two requests share an id (0, -1, ""), each is owed its answer.
  const outstanding = new Map<string, { at: number; text: string; owed: number }>();
  let nulls = 0;
  let barrier: { key: string; resolve: () => void } | undefined;
  const lines = createInterface({ input: server.child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    const written = readWritten(line);
    if (typeof written === 'string') return violation(report, 'invalid JSON-RPC output', `${written}: ${line.slice(0, 200)}`);
    if (written.kind === 'request') {
      // Declined: a tool that asked for input then ends.
      server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: written.id, error: { code: -32601, message: 'the fuzzer declines' } })}\n`);
      return;
    }
    if (written.kind === 'notification') return;
    report.answers++;
    if (written.errorCode === INTERNAL_ERROR) violation(report, 'internal error (-32603)', line.slice(0, 300));
    if (written.key === null) return void nulls++;
    if (barrier && written.key === barrier.key) return barrier.resolve();
    const sent = outstanding.get(written.key);
    if (!sent) return violation(report, 'answer to no outstanding request', line.slice(0, 300));
    if (--sent.owed === 0) outstanding.delete(written.key);
    report.slowestMs = Math.max(report.slowestMs, performance.now() - sent.at);
  });
  const rss = setInterval(() => (report.maxRssMb = Math.max(report.maxRssMb, server.rssMb() ?? 0)), 250);
  const write = (text: string) => server.child.stdin.write(`${text}\n`);
  const closeWindow = async (n: number, owed: { min: number; max: number }, texts: string[]): Promise<boolean> => {
    const key = `s:barrier-${n}`;
    const reached = new Promise<boolean>((resolve) => {
      barrier = { key, resolve: () => resolve(true) };
      setTimeout(() => resolve(false), run.answerMs);
    });
    write(JSON.stringify({ jsonrpc: '2.0', id: `barrier-${n}`, method: 'ping' }));
    const ok = await reached;
    barrier = undefined;
    if (!ok) {
      violation(report, 'no answer within the deadline', `ping barrier ${n} after: ${texts.join(' | ').slice(0, 400)}`);
      return !server.died();
    }
    if (nulls < owed.min || nulls > owed.max)
      violation(report, 'id-null answers differ from what was owed', `${nulls} for ${owed.min}..${owed.max}: ${texts.join(' | ').slice(0, 400)}`);
    nulls = 0;
    const now = performance.now();
    for (const [key, sent] of outstanding)
      if (now - sent.at > run.answerMs) {
        violation(report, 'no answer within the deadline', `${key}: ${sent.text.slice(0, 300)}`);
        outstanding.delete(key);
      }
    return true;
  };

  try {
    for (const [i, message] of (run.opening ?? []).entries()) {
      const id = `open-${i}`;
      write(JSON.stringify(Object.hasOwn(message, 'id') ? { ...message, id } : message));
      if (Object.hasOwn(message, 'id')) outstanding.set(`s:${id}`, { at: performance.now(), text: 'opening', owed: 1 });
    }
    let serial = 0;
    for (let window = 0; serial < run.count && performance.now() < run.stopAt; window++) {
      const owed = { min: 0, max: 0 };
      const texts: string[] = [];
      for (let k = 0; k < WINDOW && serial < run.count; k++, serial++) {
        const seed = rng.chance(0.02) && run.raw.length ? undefined : rng.pick(run.seeds);
        const text = onTheWire(seed === undefined ? probeLine(rng.pick(run.raw), serial) : fuzz(rng, withId(seed, serial), serial, true));
        texts.push(text.length > 200 ? `${text.slice(0, 200)}…(${text.length})` : text);
        for (const expected of lineExpectations(text)) {
          if (expected.kind === 'answer') {
            const already = outstanding.get(expected.key);
            if (already) already.owed++;
            else outstanding.set(expected.key, { at: performance.now(), text, owed: 1 });
          } else if (expected.kind === 'null-answer') (owed.min++, owed.max++);
          else if (expected.kind === 'null-or-none') owed.max++;
        }
        write(text);
        report.sent++;
      }
      if (!(await closeWindow(window, owed, texts)) || server.died()) break;
    }
    if (serial < run.count && !server.died()) violation(report, 'deadline reached', `${serial} of ${run.count} sent`);
    // The last answers, then: still serving?
    const end = performance.now() + run.answerMs;
    while (outstanding.size && performance.now() < end && !server.died()) await new Promise((r) => setTimeout(r, 50));
    for (const [key, sent] of outstanding) violation(report, 'no answer within the deadline', `${key}: ${sent.text.slice(0, 300)}`);
    if (!server.died() && !(await closeWindow(-1, { min: 0, max: 0 }, ['final ping']))) violation(report, 'server stopped serving', 'final ping');
  } finally {
    clearInterval(rss);
    const death = server.died();
    if (death) violation(report, 'server died', death);
    if (report.maxRssMb > run.maxRssMb) violation(report, 'RSS above the bound', `${Math.round(report.maxRssMb)} MB > ${run.maxRssMb} MB`);
    await server.stop();
  }
}
