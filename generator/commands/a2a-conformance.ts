/**
 * @module commands/a2a-conformance — `wiregen a2a-conformance <agent-url>`: runs the A2A project's
 * conformance suites (ACTS, generator/acts/suites/) against an A2A agent on its JSON-RPC and HTTP+JSON
 * bindings, or with `--client` the client-parsing tests against this repository's A2A client (the runner is
 * in acts/).
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXIT_BAD_INPUT, EXIT_DIFFERENT, EXIT_OK } from '../errors.ts';
import { parseCommand } from './args.ts';
import { CliError, type Command, usageError } from './command.ts';

const HELP = `Usage: wiregen a2a-conformance <agent-url> [options]
       wiregen a2a-conformance --client [options]

Runs the A2A Conformance Test Suite (ACTS 1.0, the A2A project's suites shipped with wiregen: 14 suites, 111
tests) against the A2A agent at <agent-url> (its base URL: /.well-known/agent-card.json is read there, and
each binding's endpoint is taken from the card's supportedInterfaces). Tests whose preconditions the card
does not meet (a capability, a binding) are skipped with the reason. Push notification tests get a webhook
receiver on 127.0.0.1 as {{webhookUrl}}. With --client, the client tests (§10) run against wiregen's own
A2A client instead, with no agent.

Options:
  --suite <id|file>        a suite id (discovery, streaming, …), a shipped file's name (core-operations), or
                           an ACTS file of your own (repeatable; default: every shipped suite)
  --binding <b>            jsonrpc, http-json or both (default both)
  --level <level>          must (must tests only), should (must and should) or may (all; default)
  --json <file|dir/>       write the §13 JSON report there; with both bindings, -jsonrpc and -rest are added to
                           the file's name; a directory gets §13.5's names (acts-report-<sdk>-<binding>-<time>.json)
  --var <NAME=value>       a variable for the suites, above the documents' own (repeatable)
  --behaviors <list|file>  the §11 behaviour prefixes the agent implements (comma-separated, or a YAML file of
                           §11.1); tests needing others are skipped (default: all are assumed)
  --timeout <ms>           per request, and for a stream to end (default 30000)
  --client                 run the client tests against wiregen's client (no <agent-url>)
  --all                    list every test in the table, not only those that did not pass
  --no-errata              run the suites exactly as published, without the runner's corrections of tests
                           that contradict A2A 1.0 (each correction applied is listed under the table)

Progress goes to stderr, one line per test; the table and the summary by level to stdout.
Exit: 0 every must test passed (or was skipped), 1 some must test failed or errored, 2 bad input (a flag, an
ACTS file: file:line:col: message) or an agent whose card cannot be read.

Examples:
  wiregen a2a-conformance http://127.0.0.1:41250 --binding jsonrpc --level must
  wiregen a2a-conformance http://127.0.0.1:41250 --suite streaming --json reports/
  wiregen a2a-conformance --client`;

const OPTIONS = {
  suite: { type: 'string', multiple: true },
  binding: { type: 'string' },
  level: { type: 'string' },
  json: { type: 'string' },
  var: { type: 'string', multiple: true },
  behaviors: { type: 'string' },
  timeout: { type: 'string' },
  client: { type: 'boolean' },
  all: { type: 'boolean' },
  'no-errata': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const NAME = 'a2a-conformance';

/** The declared behaviours: a comma list, or a §11.1 sut-behaviors YAML file. */
async function behaviorsOf(text: string | undefined): Promise<Set<string> | undefined> {
  if (text === undefined) return undefined;
  if (!existsSync(text))
    return new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  const { parse } = await import('yaml');
  const doc = parse(readFileSync(text, 'utf8')) as { behaviors?: { prefix?: unknown }[] } | null;
  if (!Array.isArray(doc?.behaviors))
    throw usageError(NAME, `--behaviors ${text}: not a sut-behaviors file (§11.1: behaviors: [{prefix, description}])`);
  return new Set(doc.behaviors.map((b) => String(b.prefix)));
}

/** Where each report goes (see --json in the help). */
function reportPaths(json: string, transports: readonly string[], names: readonly string[]): string[] {
  const isDir = json.endsWith('/') || (existsSync(json) && statSync(json).isDirectory());
  if (isDir) return names.map((n) => join(json, n));
  if (transports.length === 1) return [json];
  return transports.map((t) => json.replace(/(\.json)?$/, `-${t}$1`));
}

export const a2aConformance: Command = {
  summary: [['a2a-conformance <agent-url>', 'run the A2A conformance suites (ACTS) against an agent, or --client']],
  help: HELP,
  async run(args, { out, err }) {
    const { values, positionals } = parseCommand(NAME, args, OPTIONS);
    if (values.help) return (out(HELP), EXIT_OK);
    const [agentUrl, ...extra] = positionals;
    if (extra.length) throw usageError(NAME, `unexpected ${extra.join(' ')} (one agent URL)`);
    if (values.client && agentUrl !== undefined) throw usageError(NAME, '--client runs without an agent: drop the URL, or --client');
    if (!values.client && agentUrl === undefined) throw usageError(NAME, 'give the agent URL (or --client) (wiregen a2a-conformance --help)');
    if (agentUrl !== undefined && !/^https?:\/\/[^/]/.test(agentUrl)) throw usageError(NAME, `${JSON.stringify(agentUrl)} is not an http(s) URL`);
    const binding = values.binding ?? 'both';
    if (!['jsonrpc', 'http-json', 'both'].includes(binding))
      throw usageError(NAME, `--binding is jsonrpc, http-json or both, not ${JSON.stringify(binding)}`);
    const level = values.level ?? 'may';
    if (level !== 'must' && level !== 'should' && level !== 'may')
      throw usageError(NAME, `--level is must, should or may, not ${JSON.stringify(level)}`);
    const timeout = values.timeout ?? '30000';
    if (!/^\d+$/.test(timeout) || Number(timeout) < 1)
      throw usageError(NAME, `--timeout ${JSON.stringify(timeout)} is not a positive number of milliseconds`);
    const variables: Record<string, string> = {};
    for (const pair of values.var ?? []) {
      const at = pair.indexOf('=');
      if (at < 1) throw usageError(NAME, `--var ${JSON.stringify(pair)} is not NAME=value`);
      variables[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const behaviors = await behaviorsOf(values.behaviors);
    const { selectSuites } = await import('../acts/suites.ts');
    const suites = selectSuites(values.suite ?? []);
    const { AgentUnreachableError, runConformance } = await import('../acts/run/run.ts');
    const { reportFileName, reportTable } = await import('../acts/report.ts');
    let reports: Awaited<ReturnType<typeof runConformance>>;
    try {
      reports = await runConformance({
        suites,
        ...(agentUrl !== undefined ? { agentUrl } : {}),
        bindings: binding === 'both' ? ['jsonrpc', 'rest'] : binding === 'jsonrpc' ? ['jsonrpc'] : ['rest'],
        level,
        variables,
        timeoutMs: Number(timeout),
        ...(behaviors ? { behaviors } : {}),
        onProgress: (line) => err(line),
        ...(values['no-errata'] ? { noErrata: true } : {}),
      });
    } catch (e) {
      if (e instanceof AgentUnreachableError) throw new CliError([`wiregen ${NAME}: ${e.message}`], EXIT_BAD_INPUT);
      throw e;
    }
    for (const r of reports) reportTable(r, values.all === true).forEach((l) => out(l));
    if (values.json !== undefined) {
      const paths = reportPaths(
        values.json,
        reports.map((r) => r.transport),
        reports.map(reportFileName),
      );
      reports.forEach((r, i) => {
        mkdirSync(dirname(paths[i]!), { recursive: true });
        writeFileSync(paths[i]!, `${JSON.stringify(r, null, 2)}\n`);
        err(`report: ${paths[i]}`);
      });
    }
    const mustFailed = reports.some((r) => r.summary.by_level.must.failed + r.summary.by_level.must.errors > 0);
    return mustFailed ? EXIT_DIFFERENT : EXIT_OK;
  },
};
