/**
 * @module golden/http — one case played over Streamable HTTP at a URL: a fresh session per legacy case
 * (the preamble's initialize, whose `Mcp-Session-Id` and revision the next POSTs carry; the session DELETEd
 * after), and for a 2026-07-28 case one POST with the headers that revision mirrors from the body
 * (`MCP-Protocol-Version` from `_meta`, `Mcp-Method`, `Mcp-Name` where the manifest names the params field:
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports). The answer is the JSON body
 * or, on an SSE stream, the message with the request's id; the HTTP status is not compared (an error's
 * body is). A tool's `x-mcp-header` arguments are not mirrored: a corpus of such calls needs stdio.
 */
import { mcp, statelessRevisions } from '@wiregen/revisions';
import type { MethodEntry } from '@wiregen/core';
import { sseEvents } from '@wiregen/runtime/transports';
import { clip } from './compare.ts';
import type { CorpusCase, Preamble } from './corpus.ts';
import { answers, type CaseRun } from './stdio.ts';

export interface HttpRun {
  readonly url: string;
  readonly preamble: Preamble;
  readonly timeoutMs: number;
}

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** A header value as 2026-07-28 sends it: plain visible ASCII as is, anything else in the `=?base64?…?=` wrapper. */
const headerValue = (value: string): string =>
  /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value) || value === '' ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

/** The params field each 2026-07-28 method mirrors in Mcp-Name (the newest stateless manifest's `mcpName`). */
async function mirroredNames(): Promise<Readonly<Record<string, string>>> {
  const latest = statelessRevisions[statelessRevisions.length - 1]!;
  const { methods } = await mcp[latest].load();
  return Object.fromEntries(
    (Object.entries(methods) as [string, MethodEntry][]).flatMap(([method, e]) => (e.mcpName === undefined ? [] : [[method, e.mcpName]])),
  );
}

interface Posted {
  readonly status: number;
  readonly session: string | null;
  /** The response to the posted request (undefined for a notification, or when none came). */
  readonly message?: unknown;
  readonly problem?: string;
}

/** POSTs one message and reads what answers it. */
async function post(url: string, body: string, headers: Record<string, string>, other: unknown[], timeoutMs: number): Promise<Posted> {
  const sent = JSON.parse(body) as { id?: unknown; method?: unknown };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const session = res.headers.get('mcp-session-id');
  const type = res.headers.get('content-type') ?? '';
  if (sent.id === undefined) {
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, session };
  }
  if (type.includes('text/event-stream') && res.body) {
    for await (const event of sseEvents(res.body)) {
      if (event.data.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return { status: res.status, session, problem: `an SSE event that is not JSON: ${clip(event.data, 300)}` };
      }
      if (answers(message, sent.id)) return { status: res.status, session, message };
      other.push(message);
    }
    return { status: res.status, session, problem: `HTTP ${res.status}: the SSE stream ended without the response` };
  }
  const text = await res.text();
  try {
    return { status: res.status, session, message: JSON.parse(text) };
  } catch {
    return { status: res.status, session, problem: `HTTP ${res.status} with a body that is not JSON: ${clip(text, 300) || '(empty)'}` };
  }
}

export async function runHttpCase(c: CorpusCase, request: string, run: HttpRun): Promise<CaseRun> {
  const other: unknown[] = [];
  const fail = (why: string): CaseRun => ({ failure: why, other });
  let session: string | null = null;
  let version: string | undefined;
  try {
    if (c.handshake !== null) {
      const init = await post(run.url, run.preamble.initialize.replaceAll('$REVISION', c.handshake), {}, other, run.timeoutMs);
      if (init.problem) return fail(`the preamble initialize: ${init.problem}`);
      const got = (init.message as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
      if (got !== c.handshake)
        return fail(`the preamble initialize was not answered with revision ${c.handshake}: ${clip(JSON.stringify(init.message), 500)}`);
      session = init.session;
      version = c.handshake;
      const initialized = await post(run.url, run.preamble.initialized, headersOf(session, version), other, run.timeoutMs);
      if (initialized.status >= 300) return fail(`notifications/initialized: HTTP ${initialized.status}`);
    }
    const parsed = JSON.parse(request) as { method: string; params?: Record<string, unknown> };
    const headers = headersOf(session, version);
    if (c.era === 'stateless') {
      const meta = parsed.params?.['_meta'];
      const asked = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[META_VERSION] : undefined;
      if (typeof asked === 'string') headers['mcp-protocol-version'] = asked;
      headers['mcp-method'] = parsed.method;
      const field = (await mirroredNames())[parsed.method];
      const value = field === undefined ? undefined : parsed.params?.[field];
      if (typeof value === 'string') headers['mcp-name'] = headerValue(value);
    }
    const answer = await post(run.url, request, headers, other, run.timeoutMs);
    if (answer.problem) return fail(`the request: ${answer.problem}`);
    if (c.handshake === null && answer.session) session = answer.session;
    return { response: answer.message, other };
  } catch (err) {
    return fail(`HTTP ${run.url}: ${(err as Error).message}`);
  } finally {
    if (session)
      await fetch(run.url, { method: 'DELETE', headers: headersOf(session, version) }).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
  }
}

function headersOf(session: string | null, version: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (session) headers['mcp-session-id'] = session;
  if (version) headers['mcp-protocol-version'] = version;
  return headers;
}
