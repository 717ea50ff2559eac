/**
 * npm run acts:report: runs every ACTS suite (the runner, generator/acts/run/run.ts) and the SUT behaviour probes (test/acts/agent-probes.ts: each §11.2 prefix and the
 * two refusals the suites expect of the agent) against our ACTS test agent (samples/acts-agent.ts) and the
 * `@a2a-js/sdk` 1.3 one (test/acts/sdk-agent.ts), both bindings each, on loopback, and writes the table between
 * `<!-- acts-results:start -->` and `<!-- acts-results:end -->` in docs/a2a-conformance.md (the file and the
 * markers are added when missing). Deterministic: verdicts and reasons only, no timings. `--help` says so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRATA } from '../generator/acts/format/errata.ts';
import { runConformance } from '../generator/acts/run/run.ts';
import { shippedSuites } from '../generator/acts/suites.ts';
import type { ActsReport } from '../generator/acts/report.ts';
import { listenA2aHttp } from '../runtime/a2a/http.ts';
import { A2aServer } from '../runtime/a2a/server.ts';
import { actsAgent } from '../samples/acts-agent.ts';
import { Caller, endpointsOf, PROBES, type Binding, type Endpoints } from '../test/acts/agent-probes.ts';
import { NOT_PASSING } from '../test/acts/agent-expected.ts';
import { startSdkActsAgent } from '../test/acts/sdk-agent.ts';

const START = '<!-- acts-results:start -->';
const END = '<!-- acts-results:end -->';
const LONG_RUNNING_MS = 300;
const BINDINGS: Binding[] = ['jsonrpc', 'http-json'];

/** Why the SDK agent does not pass an ACTS test (`<test id>`, or `<binding> <test id>` for one binding). */
const SDK_REASONS: Record<string, string> = {
  'CORE-SEND-004': "SDK: parts are not compared with the card's defaultInputModes (no ContentTypeNotSupportedError)",
  'CORE-CTX-001': "SDK: takes a client's context id, as a2a.proto's Message allows; refusing it is a choice (ours makes it)",
  'CORE-HIST-005': "suite: reads history[2] as the client's third message; the history also holds the agent's questions",
  'jsonrpc CORE-ERR-008':
    'SDK: takes a raw SendMessage whose params carry taskId beside the message (not a SendMessageRequest field in A2A 1.0; the task id goes in Message.taskId), ignores it and answers a new task instead of an error',
  'CORE-ERR-007': 'suite: error.data as an object; CORE-ERR-008 and A2A 1.0 have an array of details',
  'VER-NEG-002': 'ours and the SDK: no A2A-Version header is 0.3 (A2A §3.6.2), answered VersionNotSupportedError',
  'DM-FMT-003': "suite: expects no contextId on the agent's message; a2a.proto requires it on server messages",
  'DM-ART-003': "suite: expects a 0.3 `file` member; A2A 1.0's Part has raw, filename, mediaType",
  'DM-ART-004': "suite: expects a 0.3 `fileUrl` member; A2A 1.0's Part has url, filename, mediaType",
  'REST-PD-001': "suite: expects RFC 9457 problem details; A2A 1.0's HTTP+JSON errors are google.rpc.Status",
};

/** A failure message without what changes from run to run (ports, ids). */
const stable = (text: string) =>
  text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<agent>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .slice(0, 160);

/** Why a probe does not pass where we know it: the verdict's explanation for the table. */
const REASONS: Record<string, string> = {
  'sdk client context refused':
    'the SDK takes a context id the client made up, as a2a.proto\'s Message allows ("if set, the message will be associated with the given context"); refusing it is our agent\'s choice, for ACTS CORE-CTX-001',
  'sdk unsupported part refused':
    "the SDK's DefaultRequestHandler does not compare parts with the card's defaultInputModes, so a data part is taken (ContentTypeNotSupportedError is never raised)",
};

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(
    'Usage: npm run acts:report\n\nRuns the ACTS behaviour probes against our agent and the SDK agent and rewrites\nthe acts-results section of docs/a2a-conformance.md.\n',
  );
  process.exit(0);
}
if (args.length) {
  process.stderr.write(`acts:report: unknown argument ${args[0]} (see --help)\n`);
  process.exit(2);
}

async function endpointsAt(url: string): Promise<Endpoints> {
  return endpointsOf((await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>);
}

async function verdict(endpoints: Endpoints, binding: Binding, name: string): Promise<string> {
  const probe = PROBES[name]!;
  return Promise.race([
    probe(new Caller(binding, endpoints[binding]), LONG_RUNNING_MS).then(
      () => 'pass',
      (err: unknown) => `fail (${(err as Error).message.split(';')[0]})`,
    ),
    new Promise<string>((r) => setTimeout(() => r('fail (no answer in 5 s)'), 5000).unref()),
  ]);
}

const server = new A2aServer(actsAgent({ longRunningMs: LONG_RUNNING_MS }));
const ours = await listenA2aHttp(server);
server.advertiseAt(ours.url);
const sdk = await startSdkActsAgent({ longRunningMs: LONG_RUNNING_MS });
const rows: string[] = [];
const testRows: string[] = [];
const mustLines: string[] = [];
const run = (agentUrl: string) =>
  runConformance({ suites: shippedSuites(), agentUrl, bindings: ['jsonrpc', 'rest'], level: 'may', variables: {}, timeoutMs: 10_000 });
try {
  const [oursReports, sdkReports] = [await run(ours.url), await run(sdk.url)];
  const verdicts = (reports: ActsReport[]) => {
    const out = new Map<string, { result: string; message?: string; errata?: readonly string[] }>();
    for (const r of reports)
      for (const suite of r.suites)
        for (const t of suite.tests)
          out.set(`${r.transport} ${t.id}`, {
            result: t.result,
            ...(t.failure ? { message: t.failure.message } : {}),
            ...(t.errata ? { errata: t.errata } : {}),
          });
    return out;
  };
  const [o, k] = [verdicts(oursReports), verdicts(sdkReports)];
  for (const [who, reports] of [
    ['our agent', oursReports],
    ['the SDK agent', sdkReports],
  ] as const)
    mustLines.push(
      `- ${who}: ${reports
        .map((r) => {
          const m = r.summary.by_level.must;
          return `${r.transport === 'rest' ? 'HTTP+JSON' : 'JSON-RPC'} ${m.passed}/${m.total - m.skipped} must tests passed (${m.skipped} skipped)`;
        })
        .join(', ')}`,
    );
  for (const suite of oursReports[0]!.suites)
    for (const t of suite.tests) {
      const cells: string[] = [];
      const reasons = { ours: new Set<string>(), sdk: new Set<string>() };
      const corrected = new Set<string>();
      for (const [who, map] of [
        ['ours', o],
        ['sdk', k],
      ] as const)
        for (const b of ['jsonrpc', 'rest']) {
          const v = map.get(`${b} ${t.id}`)!;
          cells.push(v.errata ? `${v.result}*` : v.result);
          for (const id of v.errata ?? []) corrected.add(id);
          if (v.result === 'fail' || v.result === 'error') {
            const known = who === 'ours' ? NOT_PASSING[`${b} ${t.id}`] : (SDK_REASONS[`${b} ${t.id}`] ?? SDK_REASONS[t.id]);
            reasons[who].add(known ?? stable(v.message ?? v.result));
          }
        }
      const [mine, theirs] = [[...reasons.ours].join('; '), [...reasons.sdk].join('; ')];
      const reason =
        mine === theirs
          ? mine
          : [mine && `ours: ${mine.replace(/^ours: /, '')}`, theirs && `SDK agent: ${theirs.replace(/^SDK: /, '')}`].filter(Boolean).join('; ');
      const skip = t.result === 'skip' && t.skip_reason ? `skipped: ${stable(t.skip_reason)}` : '';
      const errata = [...corrected].map((id) => `\\* run under the runner's erratum ${id}: ${ERRATA.find((e) => e.id === id)?.reason}`);
      testRows.push(`| ${suite.id} | ${t.id} | ${t.level} | ${cells.join(' | ')} | ${[reason || skip, ...errata].filter(Boolean).join('; ')} |`);
    }
  const [oursAt, sdkAt] = [await endpointsAt(ours.url), await endpointsAt(sdk.url)];
  for (const name of Object.keys(PROBES)) {
    const cells: string[] = [];
    const reasons: string[] = [];
    for (const [who, at] of [
      ['ours', oursAt],
      ['sdk', sdkAt],
    ] as const)
      for (const binding of BINDINGS) {
        const v = await verdict(at, binding, name);
        cells.push(v === 'pass' ? 'pass' : 'fail');
        if (v !== 'pass') reasons.push(`${who === 'sdk' ? 'SDK' : 'ours'}: ${REASONS[`${who} ${name}`] ?? v}`);
      }
    rows.push(`| \`${name}\` | ${cells.join(' | ')} | ${[...new Set(reasons)].join('; ') || ''} |`);
  }
} finally {
  await ours.close();
  await sdk.close();
}

/** Why our client does not parse a client-parsing payload. */
const CLIENT_REASONS: Record<string, string> = {
  'CLIENT-PARSE-006': "suite: file and fileUrl parts in A2A 0.3's shape; A2A 1.0's Part has raw or url with filename and mediaType",
  'CLIENT-AUTH-001': 'suite: a card without the fields A2A 1.0 requires (description, version, capabilities, skills, …)',
  'CLIENT-CAP-001': 'suite: a card without the fields A2A 1.0 requires (description, version, capabilities, skills, …)',
};
const clientRows: string[] = [];
const [clientReport] = await runConformance({ suites: shippedSuites(), bindings: ['jsonrpc'], level: 'may', variables: {}, timeoutMs: 5000 });
for (const t of clientReport!.suites.flatMap((s) => s.tests)) {
  const errata = (t.errata ?? []).map((id) => `\\* run under the runner's erratum ${id}: ${ERRATA.find((e) => e.id === id)?.reason}`);
  const why = t.result === 'pass' ? '' : (CLIENT_REASONS[t.id] ?? stable(t.failure?.message ?? t.result));
  clientRows.push(`| ${t.id} | ${t.level} | ${t.result}${t.errata ? '*' : ''} | ${[why, ...errata].filter(Boolean).join('; ')} |`);
}

const section = [
  START,
  '## Results: the ACTS test agent',
  '',
  'Written by `npm run acts:report` (scripts/acts-report.ts); do not edit between the markers. Every shipped',
  "ACTS test, run by `wiregen a2a-conformance`'s runner on each binding against our ACTS test agent",
  '(samples/acts-agent.ts) and the same agent on `@a2a-js/sdk` 1.3 (test/acts/sdk-agent.ts); the reason says',
  "whose reading a non-pass is: the suite's, the runner's, the SDK's, or ours (test/acts/agent-expected.ts).",
  '',
  ...mustLines,
  '',
  "A `*` marks a test run under one of the runner's errata (generator/acts/format/errata.ts): a correction of a",
  'test that contradicts A2A 1.0, named in the reason; `wiregen a2a-conformance --no-errata` runs the suites as published.',
  '',
  '| suite | test | level | ours, JSON-RPC | ours, HTTP+JSON | SDK, JSON-RPC | SDK, HTTP+JSON | reason |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...testRows,
  '',
  '### The behaviours',
  '',
  'Each row is one SUT',
  'behaviour of acts-specification.md §11.2 (or a refusal the suites expect of the agent), probed on the wire as',
  'the suites state it (test/acts/agent-probes.ts), against our agent (samples/acts-agent.ts) and the same agent',
  'on `@a2a-js/sdk` 1.3 (test/acts/sdk-agent.ts), on each JSON binding; tck-long-running shortened to 300 ms.',
  '',
  '| behaviour | ours, JSON-RPC | ours, HTTP+JSON | SDK, JSON-RPC | SDK, HTTP+JSON | reason for a fail |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  '### Our A2A client',
  '',
  "The client-parsing tests (§10), run by `wiregen a2a-conformance --client` against wiregen's A2A client",
  '(runtime/a2a), which checks every answer against the A2A 1.0 schema.',
  '',
  '| test | level | result | reason |',
  '| --- | --- | --- | --- |',
  ...clientRows,
  END,
].join('\n');

const file = resolve(fileURLToPath(new URL('..', import.meta.url)), 'docs/a2a-conformance.md');
const before = existsSync(file)
  ? readFileSync(file, 'utf8')
  : "# A2A conformance\n\nHow wiregen runs the A2A project's conformance suites (ACTS) and what they find against our agent.\n";
const at = before.indexOf(START);
const end = before.indexOf(END);
const after = at >= 0 && end > at ? before.slice(0, at) + section + before.slice(end + END.length) : `${before.trimEnd()}\n\n${section}\n`;
writeFileSync(file, after);
process.stdout.write(`acts:report: ${testRows.length} tests and ${rows.length} behaviours written to docs/a2a-conformance.md\n`);
