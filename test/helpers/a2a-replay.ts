/**
 * @module test/helpers/a2a-replay — replays one session of the A2A recordings (test/fixtures/recordings/)
 * (test/fixtures/recordings/a2a_sdk_exchanges.json: an orchestrator and the official SDK's research agent)
 * against `wiregen serve research-agent --http 0` over real HTTP, and compares every message.
 *
 * Format: sessions `{name, description, messages: [{from, to, json, sse?}]}`. A card fetch is recorded as
 * `{"method":"GET","url":…}`, its answer as `{"status","headers":[[name,value]…],"body"}`; JSON-RPC requests
 * and responses as their JSON, each SSE frame as one message with `sse: true`.
 *
 * How each message is compared (test/helpers/a2a-renumber.ts for the renumbering):
 * - the agent's messages, the only ones our side writes, are what a replay counts (`agentMatched` of
 *   `agentTotal`): the card GET's answer matches when status, the recorded headers (names case-insensitive:
 *   Content-Type, ETag) and the body (as JSON) are equal; each JSON-RPC answer (one JSON body, or every SSE
 *   frame in order) when, normalised, it equals the recorded one;
 * - the orchestrator's requests are built from the recording, so they are sanity checks, counted apart
 *   (`requestsMatched` of `requestsTotal`) and never as matches: the card GET is sent to the recorded path;
 *   a JSON-RPC request is sent with the recording's placeholders replaced (server ids by the ids our server
 *   made, the client's own ids by fresh UUIDs), then normalised again, and must give back the recorded
 *   request, i.e. the recording's numbering agrees with the order we saw the ids in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUuidRenumbering, instantiate } from './a2a-renumber.ts';
import { open } from './http-client.ts';
import { describeDifference, firstDifference } from './json-diff.ts';
import { ROOT } from './project.ts';
import { startServer } from './stdio-server.ts';

export interface A2aRecordedMessage {
  readonly from: 'orchestrator' | 'agent';
  readonly to: 'orchestrator' | 'agent';
  readonly json: Record<string, unknown>;
  readonly sse?: boolean;
}

export interface A2aSession {
  readonly name: string;
  readonly description: string;
  readonly messages: readonly A2aRecordedMessage[];
}

export const A2A_RECORDINGS = join(ROOT, 'test/fixtures/recordings/a2a_sdk_exchanges.json');
/** The A2A recordings: 8 sessions, 56 messages in all (test/fixtures/recordings/README.md). */
export const A2A_RECORDED_SESSIONS = 8;
export const A2A_RECORDED_MESSAGES = 56;
/** Of those, the agent's (7 card answers, 18 JSON-RPC answers, 5 SSE frames): what a replay compares. */
export const A2A_RECORDED_AGENT_MESSAGES = 30;
/** And the orchestrator's requests (7 card GETs, 19 JSON-RPC requests): sent as recorded. */
export const A2A_RECORDED_REQUESTS = 26;
/**
 * The research agent on a free port; prints `{"ready":true,"url":…}` and exits 0 when stdin closes
 * (`--exit-on-stdin-close`: the harness stops it by closing stdin, and a test run that dies leaves none behind). The recorded
 * agent was reached at https://research.example.com (its card says so): `--public-url` serves it as deployed there.
 */
export const AGENT_COMMAND = [
  process.execPath,
  'bin/wiregen.mjs',
  'serve',
  'research-agent',
  '--http',
  '0',
  '--exit-on-stdin-close',
  '--public-url',
  'https://research.example.com',
] as const;
/** How long one answer (a JSON body or a whole SSE stream) may take. */
export const ANSWER_TIMEOUT_MS = 10_000;

export function loadA2aSessions(file: string = A2A_RECORDINGS): A2aSession[] {
  return JSON.parse(readFileSync(file, 'utf8')) as A2aSession[];
}

const isCardGet = (json: Record<string, unknown>) => json['method'] === 'GET' && typeof json['url'] === 'string';

/** The recorded answers to the request at `index`: the agent's messages up to the next request. */
export function answersTo(session: A2aSession, index: number): A2aRecordedMessage[] {
  const out: A2aRecordedMessage[] = [];
  for (let i = index + 1; i < session.messages.length && session.messages[i]!.from === 'agent'; i++) out.push(session.messages[i]!);
  return out;
}

/**
 * Whether the request at `index` must go without the A2A-Version header: decided from the recorded answer,
 * which is -32009 VERSION_NOT_SUPPORTED with "A2A version '0.3'…" exactly when the SDK read no header (§3.6.2:
 * an empty version is 0.3). In the recordings that is a2a_errors' SendMessage with id 2; its neighbours
 * (GetTask -32001, `message/send` -32601) carried the header, or they too would have been refused first.
 */
export function sentWithoutVersion(session: A2aSession, index: number): boolean {
  const error = answersTo(session, index)[0]?.json['error'] as { code?: unknown; message?: unknown } | undefined;
  return error?.code === -32009 && String(error.message).includes("'0.3'");
}

export interface ReplayStep {
  readonly index: number;
  /** Who wrote the recorded message: the agent (an answer, compared) or the orchestrator (a request, a sanity check). */
  readonly from: A2aRecordedMessage['from'];
  /** What we sent or received, normalised. */
  readonly actual: unknown;
  readonly matched: boolean;
}

export interface A2aReplayResult {
  /** The agent's recorded messages (answers and SSE frames): what our agent must write. */
  readonly agentTotal: number;
  /** Those our agent wrote equal to the recording. */
  readonly agentMatched: number;
  /** The orchestrator's recorded requests, built from the recording and sent. */
  readonly requestsTotal: number;
  /** Requests whose check held (the card's path; the JSON-RPC request normalised back to the recorded one). */
  readonly requestsMatched: number;
  readonly steps: readonly ReplayStep[];
  /** Every difference, one per line; undefined when all messages matched and the agent exited 0. */
  readonly failure: string | undefined;
}

/** Starts the research agent process and waits for its ready line. */
export function startResearchAgent() {
  return startAgent(AGENT_COMMAND);
}

/** Starts `wiregen serve <agent> --http 0` (or `command`) and waits for its ready line. */
export async function startAgent(command: readonly string[]) {
  const agent = startServer({ command });
  const line = await agent.nextLine(ANSWER_TIMEOUT_MS);
  if (line.kind !== 'line') {
    agent.kill();
    throw new Error(`${command.join(' ')} did not print its ready line (${line.kind}); stderr:\n${agent.stderr()}`);
  }
  const ready = JSON.parse(line.line) as { ready?: boolean; url?: string };
  if (ready.ready !== true || typeof ready.url !== 'string') throw new Error(`unexpected ready line: ${line.line}`);
  return { url: ready.url, process: agent };
}

/** POSTs one JSON-RPC body; resolves with the JSON answer, or every SSE frame once the stream has ended. */
async function post(url: string, body: unknown, version: boolean): Promise<{ status: number; messages: unknown[]; sse: boolean }> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(version ? { 'a2a-version': '1.0' } : {}) };
  const exchange = await open(`${url}/a2a`, { headers, body: JSON.stringify(body) });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    exchange.ended.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ANSWER_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (timedOut) exchange.close();
  const sse = String(exchange.headers['content-type'] ?? '').startsWith('text/event-stream');
  if (sse) return { status: exchange.status, messages: [...exchange.frames], sse };
  return { status: exchange.status, messages: exchange.text ? [JSON.parse(exchange.text)] : [], sse };
}

/** Replays `session` against a fresh research agent process. */
export async function replayA2aSession(session: A2aSession): Promise<A2aReplayResult> {
  const { url, process: agent } = await startResearchAgent();
  const ids = createUuidRenumbering();
  const clientIds = new Map<string, string>();
  const steps: ReplayStep[] = [];
  const failures: string[] = [];
  const check = (index: number, actual: unknown) => {
    const d = firstDifference(session.messages[index]!.json, actual);
    steps.push({ index, from: session.messages[index]!.from, actual, matched: d === undefined });
    if (d) failures.push(`#${index} (${session.messages[index]!.from}): ${describeDifference(d)}`);
  };
  try {
    for (let i = 0; i < session.messages.length;) {
      const request = session.messages[i]!;
      const answers = answersTo(session, i);
      if (request.from !== 'orchestrator') throw new Error(`#${i}: an agent message with no request before it`);
      if (isCardGet(request.json)) {
        const path = new URL(String(request.json['url'])).pathname;
        const res = await fetch(`${url}${path}`);
        const text = await res.text();
        check(i, { method: 'GET', url: new URL(path, String(request.json['url'])).href });
        const recorded = answers[0]?.json['headers'] as [string, string][] | undefined;
        const headers = (recorded ?? []).map(([name]) => [name, res.headers.get(name)]);
        if (answers[0]) check(i + 1, { body: JSON.parse(text), headers, status: res.status });
      } else {
        const sendable = instantiate(request.json, ids, clientIds);
        check(i, ids.normalise(sendable));
        const got = await post(url, sendable, !sentWithoutVersion(session, i));
        if (got.sse !== (answers[0]?.sse === true))
          failures.push(`#${i + 1}: answered ${got.sse ? 'with SSE' : 'with JSON'}, recorded ${answers[0]?.sse ? 'as SSE' : 'as JSON'}`);
        if (got.status !== 200) failures.push(`#${i}: HTTP ${got.status} (JSON-RPC answers are HTTP 200)`);
        got.messages.forEach((message, k) => {
          if (k < answers.length) check(i + 1 + k, ids.normalise(message));
          else failures.push(`#${i}: unexpected extra answer ${JSON.stringify(message)}`);
        });
        if (got.messages.length < answers.length) failures.push(`#${i}: ${answers.length} answers recorded, ${got.messages.length} received`);
      }
      i += 1 + answers.length;
    }
  } catch (err) {
    failures.push(`replay stopped: ${(err as Error).message}`);
  } finally {
    const exit = await agent.close();
    if (exit.code !== 0 || exit.timedOut)
      failures.push(`agent exited with ${exit.code ?? exit.signal}${exit.timedOut ? ' (killed after timeout)' : ''}; stderr:\n${agent.stderr()}`);
  }
  const count = (from: A2aRecordedMessage['from']) => ({
    total: session.messages.filter((m) => m.from === from).length,
    matched: steps.filter((s) => s.from === from && s.matched).length,
  });
  const [answers, requests] = [count('agent'), count('orchestrator')];
  return {
    agentTotal: answers.total,
    agentMatched: answers.matched,
    requestsTotal: requests.total,
    requestsMatched: requests.matched,
    steps,
    failure: failures.length ? failures.join('\n') : undefined,
  };
}
