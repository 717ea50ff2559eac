/**
 * @module test/fuzz/harness/a2a-target — fuzzing `wiregen serve research-agent --http 0` over both A2A
 * bindings (https://a2a-protocol.org/latest/specification/): JSON-RPC POSTs to its endpoint, and the HTTP+JSON
 * routes of the generated dispatch table (verb and path filled from the message's params, the rest as body or
 * query, path and verb sometimes mutated). Checked: never a 500 or -32603; a JSON-RPC POST is answered with
 * JSON-RPC 2.0 responses (one, or a stream of them) carrying its id when usable (a string or an integer) and
 * null otherwise; an HTTP+JSON answer is JSON (or events of JSON) and an error is a google.rpc.Status; every
 * answer, or a stream's first event, within 5 s (a stream still open then is let go: a subscription to a
 * task waiting for input stays open by design).
 */
import { methods, type MethodEntry } from '@wiregen/a2a-1.0';
import type { Json } from './corpus.ts';
import { exchange, httpAgent, type FuzzExchange } from './http.ts';
import { fuzz } from './mutate.ts';
import { jsonRpcIdKey, onTheWire, readWritten, stripBom } from './oracle.ts';
import { readyLine, startServe } from './process.ts';
import type { Random } from './random.ts';
import { violation, type TargetReport } from './report.ts';
import { withId } from './stdio-target.ts';

export interface A2aRun {
  readonly jsonrpc: TargetReport;
  readonly rest: TargetReport;
  readonly rng: Random;
  readonly seeds: readonly Json[];
  /** Messages per binding. */
  readonly count: { readonly jsonrpc: number; readonly rest: number };
  readonly answerMs: number;
  readonly maxRssMb: number;
  readonly concurrency: number;
  /** performance.now() past which no more is sent. */
  readonly stopAt: number;
}

/** The servers' default body limit (4 MiB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'a2a-version': '1.0' };

/** The key of the id of a request body (JSON-RPC 2.0's rule), or null when it has no usable one. */
function a2aKey(text: string): string | null {
  try {
    return jsonRpcIdKey((JSON.parse(text) as { id?: unknown }).id) ?? null;
  } catch {
    return null;
  }
}

/** encodeURIComponent of a text that may hold lone surrogates (each becomes U+FFFD, as a UTF-8 encoder writes it). */
const encode = (text: string) =>
  encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** snake_case path variable → the params field (ProtoJSON lowerCamelCase). */
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The HTTP+JSON request for a JSON-RPC message (its method's first route), mutated sometimes. */
function restRequest(rng: Random, seed: Json, serial: number): { method: string; path: string; body?: string } {
  const entry = (methods as Record<string, MethodEntry>)[String(seed['method'])] ?? methods.SendMessage;
  const route = entry.http[0]!;
  const params = structuredClone((seed['params'] ?? {}) as Json);
  let path = route.path.replace(/\{([a-z_]+)(?:=\*)?\}/g, (_, name: string) => {
    const value = params[camel(name)];
    delete params[camel(name)];
    return encode(typeof value === 'string' ? value : `t-${serial}`);
  });
  if (rng.chance(0.15)) path = rng.pick([`${path}/x`, path.replace(/\/[^/]*$/, `/${encode(rng.string(8))}`), '/tasks/%', '/%E0%A4%A', '//tasks']);
  const method = rng.chance(0.05) ? rng.pick(['PUT', 'PATCH', 'DELETE', 'GET', 'POST']) : route.verb;
  if (route.body === '*') return { method, path, body: onTheWire(fuzz(rng, params, serial, false)) };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (typeof value !== 'object') query.set(key, String(value));
  if (rng.chance(0.3)) query.set(rng.pick(['pageSize', 'historyLength', 'status', 'A2A-Version', rng.string(4)]), rng.string(6));
  const q = query.toString();
  return { method, path: q ? `${path}?${q}` : path };
}

export async function fuzzA2a(run: A2aRun): Promise<void> {
  const { rng } = run;
  const server = startServe(['research-agent', '--http', '0', '--exit-on-stdin-close']);
  const sample = () => {
    const mb = server.rssMb() ?? 0;
    run.jsonrpc.maxRssMb = Math.max(run.jsonrpc.maxRssMb, mb);
    run.rest.maxRssMb = Math.max(run.rest.maxRssMb, mb);
  };
  const rss = setInterval(sample, 250);
  const agent = httpAgent(run.concurrency + 1);
  try {
    const ready = await readyLine(server);
    const origin = String(ready['url']);
    let rpcSerial = 0;
    let restSerial = 0;
    const rpcWorker = async () => {
      while (rpcSerial < run.count.jsonrpc && !server.died() && performance.now() < run.stopAt) {
        const n = rpcSerial++;
        const text = onTheWire(fuzz(rng, withId(rng.pick(run.seeds), n), n, false));
        run.jsonrpc.sent++;
        checkJsonRpc(run.jsonrpc, text, await exchange(origin, agent, { path: '/a2a', headers: HEADERS, body: text, timeoutMs: run.answerMs }));
      }
    };
    const restWorker = async () => {
      while (restSerial < run.count.rest && !server.died() && performance.now() < run.stopAt) {
        const n = restSerial++;
        const req = restRequest(rng, rng.pick(run.seeds), n);
        run.rest.sent++;
        const answer = await exchange(origin, agent, {
          method: req.method,
          path: req.path,
          headers: HEADERS,
          ...(req.body !== undefined ? { body: req.body } : {}),
          timeoutMs: run.answerMs,
        });
        checkRest(run.rest, `${req.method} ${req.path} ${req.body ?? ''}`, answer);
      }
    };
    const half = Math.max(1, Math.floor(run.concurrency / 2));
    await Promise.all([...Array.from({ length: half }, rpcWorker), ...Array.from({ length: half }, restWorker)]);
    if (rpcSerial + restSerial < run.count.jsonrpc + run.count.rest && !server.died())
      violation(run.jsonrpc, 'deadline reached', `${rpcSerial + restSerial} of ${run.count.jsonrpc + run.count.rest} sent`);
    const card = await fetch(`${origin}/.well-known/agent-card.json`).catch(() => undefined);
    if (card?.status !== 200) violation(run.jsonrpc, 'server stopped serving', `card: ${card?.status}`);
    await card?.text();
  } finally {
    clearInterval(rss);
    agent.destroy();
    const death = server.died();
    if (death) violation(run.jsonrpc, 'server died', death);
    if (run.jsonrpc.maxRssMb > run.maxRssMb) violation(run.jsonrpc, 'RSS above the bound', `${Math.round(run.jsonrpc.maxRssMb)} MB`);
    await server.stop();
  }
}

const shorten = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length})` : text);

/** An answer that did not come, or came as a 5xx: the violation, or undefined when there is an answer to read. */
function failed(
  report: TargetReport,
  shown: string,
  answer: FuzzExchange | 'timeout' | { error: string },
  oversized: boolean,
): answer is 'timeout' | { error: string } {
  if (answer === 'timeout') {
    violation(report, 'no answer within the deadline', shown);
    return true;
  }
  if ('error' in answer) {
    // A body past the 4 MiB limit is refused (413, Connection: close) before it is read: the rest cannot go.
    if (!(oversized && /EPIPE|ECONNRESET/.test(answer.error))) violation(report, 'connection failed', `${answer.error}: ${shown}`);
    return true;
  }
  report.answers++;
  report.slowestMs = Math.max(report.slowestMs, answer.ms);
  if (answer.status >= 500) {
    violation(report, `HTTP ${answer.status}`, `${answer.body.slice(0, 200)} for ${shown}`);
    return true;
  }
  return false;
}

function checkJsonRpc(report: TargetReport, text: string, answer: FuzzExchange | 'timeout' | { error: string }): void {
  const shown = shorten(text);
  if (failed(report, shown, answer, text.length > MAX_BODY_BYTES)) return;
  const frames = answer.contentType.startsWith('text/event-stream') ? answer.events : [answer.body];
  const key = text.length > MAX_BODY_BYTES ? null : a2aKey(stripBom(text));
  if (frames.length === 0) violation(report, 'a stream with no event', shown);
  for (const frame of frames) {
    const written = readWritten(frame, jsonRpcIdKey);
    if (typeof written === 'string') return violation(report, 'invalid JSON-RPC output', `${written}: ${frame.slice(0, 200)} for ${shown}`);
    if (written.kind !== 'response') return violation(report, 'not a response', `${frame.slice(0, 200)} for ${shown}`);
    if (written.errorCode === -32603) violation(report, 'internal error (-32603)', `${frame.slice(0, 200)} for ${shown}`);
    if (written.key !== key && !(written.key === null && answer.status >= 400))
      violation(report, 'response id differs from the request id', `${written.key} for ${shown}`);
  }
}

function checkRest(report: TargetReport, request: string, answer: FuzzExchange | 'timeout' | { error: string }): void {
  const shown = shorten(request);
  if (failed(report, shown, answer, request.length > MAX_BODY_BYTES)) return;
  const frames = answer.contentType.startsWith('text/event-stream') ? answer.events : answer.body === '' ? [] : [answer.body];
  for (const frame of frames) {
    let value: unknown;
    try {
      value = JSON.parse(frame);
    } catch {
      return violation(report, 'not JSON', `${frame.slice(0, 200)} for ${shown}`);
    }
    if (answer.status < 400 || answer.status === 405) continue;
    const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (!error || !Number.isInteger(error.code) || typeof error.message !== 'string')
      violation(report, 'an error that is not a google.rpc.Status', `${frame.slice(0, 200)} for ${shown}`);
  }
}
