/**
 * @module test/fuzz/harness/mcp-http-target — fuzzing `wiregen serve recorded-server --http 0` (Streamable
 * HTTP, https://modelcontextprotocol.io/specification/2026-07-28/basic/transports). Each fuzzed message is one
 * POST, most without a session (2026-07-28, with the headers its method mirrors), some in a handshake-era
 * session opened first; a few with headers mutated too. Checked: never a 500 or -32603; a request with a
 * usable id gets exactly one response carrying it (a JSON body, or the last event of a stream) unless refused
 * at the HTTP level (4xx, id null); a notification or response gets 202 or a 4xx refusal; every body and
 * event is JSON-RPC 2.0; every answer within 5 s.
 */
import type { Json } from './corpus.ts';
import { exchange, httpAgent, type FuzzExchange } from './http.ts';
import { expectationOf, INTERNAL_ERROR, onTheWire, readWritten, stripBom } from './oracle.ts';
import { fuzz } from './mutate.ts';
import { readyLine, startServe } from './process.ts';
import type { Random } from './random.ts';
import { violation, type TargetReport } from './report.ts';
import { withId } from './stdio-target.ts';
import { MAX_BODY_BYTES } from './a2a-target.ts';

export interface HttpRun {
  readonly report: TargetReport;
  readonly rng: Random;
  readonly stateless: readonly Json[];
  /** Handshake-era messages; the first is the initialize that opens the session. */
  readonly handshake: readonly Json[];
  readonly count: number;
  readonly answerMs: number;
  readonly maxRssMb: number;
  readonly concurrency: number;
  /** performance.now() past which no more is sent. */
  readonly stopAt: number;
}

const ACCEPT = 'application/json, text/event-stream';
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

/** The headers a 2026-07-28 POST of `text` mirrors (read from the text when it still parses). */
function statelessHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return headers;
  }
  if (value === null || typeof value !== 'object') return headers;
  const { method, params } = value as { method?: unknown; params?: { name?: unknown; uri?: unknown } };
  if (typeof method === 'string' && HEADER_SAFE.test(method)) headers['mcp-method'] = method;
  const name = method === 'resources/read' ? params?.uri : params?.name;
  if (typeof name === 'string' && HEADER_SAFE.test(name)) headers['mcp-name'] = name;
  return headers;
}

/** Sometimes, one header made wrong. */
function mutateHeaders(rng: Random, headers: Record<string, string | string[]>): Record<string, string | string[]> {
  if (!rng.chance(0.1)) return headers;
  const out = { ...headers };
  switch (rng.int(6)) {
    case 0:
      delete out['accept'];
      break;
    case 1:
      out['content-type'] = 'text/plain';
      break;
    case 2:
      out['mcp-protocol-version'] = rng.pick(['2025-11-25', '1999-01-01', '']);
      break;
    case 3:
      out['origin'] = 'http://evil.example';
      break;
    case 4:
      out['mcp-protocol-version'] = ['2026-07-28', '2026-07-28'];
      break;
    default:
      out['mcp-session-id'] = 'no-such-session';
  }
  return out;
}

export async function fuzzMcpHttp(run: HttpRun): Promise<void> {
  const { report, rng } = run;
  const server = startServe(['recorded-server', '--http', '0', '--exit-on-stdin-close']);
  const rss = setInterval(() => (report.maxRssMb = Math.max(report.maxRssMb, server.rssMb() ?? 0)), 250);
  const agent = httpAgent(run.concurrency + 2);
  try {
    const ready = await readyLine(server);
    const url = new URL(String(ready['url']));
    const origin = url.origin;
    const path = url.pathname;
    // The handshake-era session the handshake messages are sent in.
    const session = await openSession(origin, path);
    let serial = 0;
    const worker = async () => {
      while (serial < run.count && !server.died() && performance.now() < run.stopAt) {
        const n = serial++;
        const inSession = session !== undefined && rng.chance(0.3);
        const seed = inSession ? rng.pick(run.handshake.slice(1)) : rng.pick(run.stateless);
        const text = onTheWire(fuzz(rng, withId(seed, n), n, false));
        const base: Record<string, string | string[]> = inSession
          ? { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' }
          : statelessHeaders(text);
        const headers = mutateHeaders(rng, base);
        report.sent++;
        const answer = await exchange(origin, agent, {
          path,
          headers,
          body: text,
          timeoutMs: run.answerMs,
          onEvent: (data) => declineServerRequest(origin, path, session, data),
        });
        check(run, text, answer);
      }
    };
    await Promise.all(Array.from({ length: run.concurrency }, worker));
    if (serial < run.count && !server.died()) violation(report, 'deadline reached', `${serial} of ${run.count} sent`);
    const final = await exchange(origin, agent, {
      path,
      headers: statelessHeaders('{"method":"server/discover"}'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'final',
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
      timeoutMs: run.answerMs,
    });
    if (typeof final !== 'object' || !('status' in final) || final.status !== 200) violation(report, 'server stopped serving', JSON.stringify(final));
  } finally {
    clearInterval(rss);
    agent.destroy();
    const death = server.died();
    if (death) violation(report, 'server died', death);
    if (report.maxRssMb > run.maxRssMb) violation(report, 'RSS above the bound', `${Math.round(report.maxRssMb)} MB > ${run.maxRssMb} MB`);
    await server.stop();
  }
}

/** Opens a handshake-era session (initialize, then notifications/initialized); its Mcp-Session-Id. */
async function openSession(origin: string, path: string): Promise<string | undefined> {
  const headers = { 'content-type': 'application/json', accept: ACCEPT };
  const res = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'session',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {}, sampling: {} }, clientInfo: { name: 'wiregen-fuzz', version: '1' } },
    }),
  });
  await res.text();
  const id = res.headers.get('mcp-session-id') ?? undefined;
  if (id)
    await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    }).then((r) => r.text());
  return id;
}

/** A server request in a session's stream (elicitation, sampling) is declined, so its tool call ends. */
function declineServerRequest(origin: string, path: string, session: string | undefined, data: string): void {
  const written = readWritten(data);
  if (typeof written === 'string' || written.kind !== 'request' || !session) return;
  void fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: written.id, error: { code: -32601, message: 'the fuzzer declines' } }),
  })
    .then((r) => r.text())
    .catch(() => {});
}

function check(run: HttpRun, text: string, answer: FuzzExchange | 'timeout' | { error: string }): void {
  const { report } = run;
  const shown = text.length > 300 ? `${text.slice(0, 300)}…(${text.length})` : text;
  if (answer === 'timeout') return violation(report, 'no answer within the deadline', shown);
  if ('error' in answer) {
    // A body past the 4 MiB limit is refused (413, Connection: close) before it is read: the rest cannot go.
    if (!(text.length > MAX_BODY_BYTES && /EPIPE|ECONNRESET/.test(answer.error))) violation(report, 'connection failed', `${answer.error}: ${shown}`);
    return;
  }
  report.answers++;
  report.slowestMs = Math.max(report.slowestMs, answer.ms);
  if (answer.status >= 500) return violation(report, `HTTP ${answer.status}`, `${answer.body.slice(0, 200)} for ${shown}`);
  const expected = text.length > MAX_BODY_BYTES ? { kind: 'null-answer' as const } : expectationOf(stripBom(text), true);
  const frames = answer.contentType.startsWith('text/event-stream') ? answer.events : answer.body === '' ? [] : [answer.body];
  let response: { key: string | null } | undefined;
  for (const frame of frames) {
    const written = readWritten(frame);
    if (typeof written === 'string') return violation(report, 'invalid JSON-RPC output', `${written}: ${frame.slice(0, 200)} for ${shown}`);
    if (written.kind !== 'response') continue;
    if (response) return violation(report, 'more than one response', shown);
    if (written.errorCode === INTERNAL_ERROR) violation(report, 'internal error (-32603)', `${frame.slice(0, 200)} for ${shown}`);
    response = written;
  }
  if (answer.status === 202) {
    if (frames.length) violation(report, '202 with a body', shown);
    if (expected.kind === 'answer') violation(report, 'a request answered 202', shown);
    return;
  }
  if (!response) return violation(report, `HTTP ${answer.status} without a JSON-RPC response`, shown);
  if (expected.kind === 'answer') {
    if (response.key !== expected.key && !(response.key === null && answer.status >= 400))
      violation(report, 'response id differs from the request id', `${response.key} for ${shown}`);
  } else if (response.key !== null) violation(report, 'an id answered that was not a usable request id', `${response.key} for ${shown}`);
  else if (answer.status < 400) violation(report, 'a refusal with a 2xx status', shown);
}
