/**
 * @module acts/run/run — a conformance run: the agent's card read once, a webhook receiver started, then
 * every selected test on each binding asked for, one report per binding (§13); or, with the client harness,
 * the client tests (§10) against this repository's client. Tests run one after another.
 */
import { applyErrata, ERRATA } from '../format/errata.ts';
import type { ActsBinding, Level, Suite, Test } from '../format/model.ts';
import { type ActsReport, buildReport } from '../report.ts';
import type { Binding, Target } from '../wire/exchange.ts';
import { startWebhookReceiver } from '../wire/webhook.ts';
import { startClientHarness } from './client.ts';
import { skipReason } from './preconditions.ts';
import type { TestResult } from './result.ts';
import { runTest, type TestEnvironment } from './test.ts';

export interface RunOptions {
  readonly suites: readonly Suite[];
  /** The agent's base URL; undefined runs the client tests instead. */
  readonly agentUrl?: string;
  readonly bindings: readonly Binding[];
  /** The least strict level run: must runs must tests only, should must and should, may all. */
  readonly level: Level;
  readonly variables: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** §11 prefixes the agent declares; undefined: all of them. */
  readonly behaviors?: ReadonlySet<string>;
  readonly onProgress?: (line: string) => void;
  /** Run the suites as published, without the runner's corrections (format/errata.ts). */
  readonly noErrata?: boolean;
}

/** The card could not be read: the run cannot start. */
export class AgentUnreachableError extends Error {}

const LEVELS: readonly Level[] = ['must', 'should', 'may'];
/** A card's protocolBinding → ACTS's binding name (§3.2: HTTP+JSON is `rest`). */
const BINDING_OF: Readonly<Record<string, ActsBinding>> = { JSONRPC: 'jsonrpc', 'HTTP+JSON': 'rest', GRPC: 'grpc' };
const isClientTest = (t: Test) => t.steps.some((s) => s.kind === 'client');

async function readAgentCard(base: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const url = new URL('/.well-known/agent-card.json', base).href;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    throw new AgentUnreachableError(`cannot read the agent card at ${url}: ${(e as Error).message}${cause ? ` (${cause})` : ''}`);
  }
  const text = await res.text();
  if (!res.ok) throw new AgentUnreachableError(`the agent card at ${url} answered HTTP ${res.status}`);
  try {
    const card = JSON.parse(text) as unknown;
    if (typeof card === 'object' && card !== null && !Array.isArray(card)) return card as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new AgentUnreachableError(`the agent card at ${url} is not a JSON object`);
}

/** Runs the selected tests; one report per binding (the client run reports as jsonrpc, its payloads' binding). */
export async function runConformance(options: RunOptions): Promise<ActsReport[]> {
  const corrected = applyErrata(options.suites, options.noErrata ? [] : ERRATA);
  for (const e of corrected.stale) options.onProgress?.(`erratum ${e.id} not applied: ${e.test}'s ${e.pointer} is no longer the value it corrects`);
  const suitesRun = corrected.suites;
  const withErrata = (r: TestResult): TestResult => {
    const ids = corrected.applied.get(r.id);
    return ids ? { ...r, errata: ids } : r;
  };
  const allowed = LEVELS.slice(0, LEVELS.indexOf(options.level) + 1);
  // A client run has only the client tests; an agent run reports them skipped.
  const client = options.agentUrl === undefined;
  const selected = suitesRun
    .map((s) => ({ suite: s, tests: s.tests.filter((t) => allowed.includes(t.level) && (!client || isClientTest(t))) }))
    .filter((s) => s.tests.length > 0);
  const total = selected.reduce((n, s) => n + s.tests.length, 0);
  const progress = (n: number, binding: string, t: TestResult) =>
    options.onProgress?.(
      `[${binding} ${n}/${total}] ${t.result.toUpperCase().padEnd(5)} ${t.level.padEnd(6)} ${t.id}${t.result === 'pass' ? '' : `: ${t.skip_reason ?? t.failure?.message ?? ''}`}${t.errata ? ` (corrected: ${t.errata.join(', ')})` : ''}`,
    );

  if (options.agentUrl === undefined) {
    const harness = await startClientHarness();
    const t0 = performance.now();
    const results = new Map<Suite, TestResult[]>();
    let n = 0;
    try {
      const env: TestEnvironment = { target: undefined, variables: options.variables, parse: harness.parse };
      for (const { suite, tests } of selected)
        for (const test of tests) {
          const r = withErrata(await runTest(test, suite, env));
          results.set(suite, [...(results.get(suite) ?? []), r]);
          progress(++n, 'client', r);
        }
    } finally {
      await harness.close();
    }
    const runtime = { name: 'wiregen', version: '0.2.0', language: 'typescript', repository: 'https://github.com/wiregen/wiregen' };
    return [
      buildReport(suitesRun, results, {
        transport: 'jsonrpc',
        sdk: runtime,
        durationMs: Math.round(performance.now() - t0),
        generatedAt: new Date(),
      }),
    ];
  }

  const base = options.agentUrl;
  const card = await readAgentCard(base, options.timeoutMs);
  const interfaces = (Array.isArray(card['supportedInterfaces']) ? card['supportedInterfaces'] : []) as {
    url?: unknown;
    protocolBinding?: unknown;
  }[];
  const offered = [...new Set(interfaces.map((i) => BINDING_OF[String(i.protocolBinding)]).filter((b): b is ActsBinding => b !== undefined))];
  const receiver = await startWebhookReceiver();
  const variables = { SUT_BASE_URL: base, baseUrl: base, webhookUrl: receiver.url, ...options.variables };
  const sdk = {
    name: typeof card['name'] === 'string' ? card['name'] : 'agent',
    version: typeof card['version'] === 'string' ? card['version'] : 'unknown',
    language: 'unknown',
  };
  const reports: ActsReport[] = [];
  try {
    for (const binding of options.bindings) {
      const t0 = performance.now();
      const url = interfaces.find((i) => BINDING_OF[String(i.protocolBinding)] === binding)?.url;
      const target: Target = { binding, base, url: typeof url === 'string' ? url : base, specVersion: '1.0', timeoutMs: options.timeoutMs };
      const env: TestEnvironment = { target, variables };
      const results = new Map<Suite, TestResult[]>();
      let n = 0;
      for (const { suite, tests } of selected)
        for (const test of tests) {
          const skip = isClientTest(test) ? 'a client test (§10): run it with --client' : skipReason(test, binding, card, options.behaviors, offered);
          const r = withErrata(await runTest(test, suite, env, skip));
          results.set(suite, [...(results.get(suite) ?? []), r]);
          progress(++n, binding, r);
        }
      reports.push(
        buildReport(suitesRun, results, { transport: binding, sdk, durationMs: Math.round(performance.now() - t0), generatedAt: new Date() }),
      );
    }
  } finally {
    await receiver.close();
  }
  return reports;
}
