/**
 * npm run acts:report: runs the ACTS SUT behaviour probes (test/acts/agent-probes.ts: each §11.2 prefix and the
 * two refusals the suites expect of the agent) against our ACTS test agent (samples/acts-agent.ts) and the
 * `@a2a-js/sdk` 1.3 one (test/acts/sdk-agent.ts), both bindings each, on loopback, and writes the table between
 * `<!-- acts-results:start -->` and `<!-- acts-results:end -->` in docs/a2a-conformance.md (the file and the
 * markers are added when missing). Deterministic: verdicts and reasons only, no timings. `--help` says so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenA2aHttp } from '../runtime/a2a/http.ts';
import { A2aServer } from '../runtime/a2a/server.ts';
import { actsAgent } from '../samples/acts-agent.ts';
import { Caller, endpointsOf, PROBES, type Binding, type Endpoints } from '../test/acts/agent-probes.ts';
import { startSdkActsAgent } from '../test/acts/sdk-agent.ts';

const START = '<!-- acts-results:start -->';
const END = '<!-- acts-results:end -->';
const LONG_RUNNING_MS = 300;
const BINDINGS: Binding[] = ['jsonrpc', 'http-json'];

/** Why a probe does not pass where we know it: the verdict's explanation for the table. */
const REASONS: Record<string, string> = {
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
try {
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

const section = [
  START,
  '## Results: the ACTS test agent',
  '',
  'Written by `npm run acts:report` (scripts/acts-report.ts); do not edit between the markers. Each row is one SUT',
  'behaviour of acts-specification.md §11.2 (or a refusal the suites expect of the agent), probed on the wire as',
  'the suites state it (test/acts/agent-probes.ts), against our agent (samples/acts-agent.ts) and the same agent',
  'on `@a2a-js/sdk` 1.3 (test/acts/sdk-agent.ts), on each JSON binding; tck-long-running shortened to 300 ms.',
  '',
  '| behaviour | ours, JSON-RPC | ours, HTTP+JSON | SDK, JSON-RPC | SDK, HTTP+JSON | reason for a fail |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
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
process.stdout.write(`acts:report: ${rows.length} behaviours written to docs/a2a-conformance.md\n`);
