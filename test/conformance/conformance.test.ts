/**
 * The official MCP conformance runner's server leg against the `conformance` sample over Streamable HTTP,
 * served resumable (`--resumable`, for server-sse-polling): `--requirements 2026-07-28` (the stateless era),
 * `--requirements 2025-11-25` (the handshake era, with sessions), and `--suite all`, alone (every scenario the
 * runner lists) and per spec version. Every scored scenario must end with no FAILURE, WARNING or SKIPPED; the
 * unscored scenarios that apply to us must pass too; and no scenario of any run may have a FAILURE, nor a
 * WARNING or SKIPPED check that EXPECTED_SKIPPED does not list with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_SKIPPED } from './expected.ts';
import { listedScenarios, runServerLeg, startSample, tally, type RunningSample, type ScenarioResult, type Selection } from './harness.ts';

/** Unscored scenarios the requirement sets run that we implement: they must pass as well. */
const UNSCORED_THAT_APPLY: Record<string, readonly string[]> = {
  '2026-07-28': [
    'http-header-validation',
    'http-custom-header-server-validation',
    'json-schema-2020-12',
    'tasks-lifecycle',
    'tasks-capability-negotiation',
    'tasks-wire-fields',
    'tasks-request-state-removal',
    'tasks-mrtr-input',
    'tasks-request-headers',
    'tasks-dispatch-and-envelope',
    'tasks-required-task-error',
    'tasks-mrtr-composition',
  ],
  '2025-11-25': ['json-schema-2020-12', 'server-session-lifecycle', 'server-sse-polling'],
};

let sample: RunningSample;
beforeAll(async () => {
  sample = await startSample('conformance', 30_000, ['--resumable']);
});
afterAll(async () => {
  if (sample) expect(await sample.stop(), 'the sample exits 0 when stdin closes').toBe(0);
});

function problems(results: readonly ScenarioResult[], statuses: readonly string[]): string[] {
  return results.flatMap((r) =>
    r.checks.filter((c) => statuses.includes(c.status)).map((c) => `${r.scenario}: ${c.id} ${c.status} ${c.errorMessage ?? ''}`),
  );
}

describe.each(['2026-07-28', '2025-11-25'])('conformance runner, --requirements %s', (requirements) => {
  let results: ScenarioResult[] = [];
  beforeAll(async () => {
    ({ results } = await runServerLeg(sample.url, requirements));
  });

  it('runs every scored scenario', () => {
    const scored = results.filter((r) => r.scored);
    expect(scored.length).toBeGreaterThanOrEqual(requirements === '2026-07-28' ? 37 : 30);
    for (const r of scored) expect(r.checks.length, r.scenario).toBeGreaterThan(0);
  });

  it('no scored scenario has a FAILURE', () => {
    expect(
      problems(
        results.filter((r) => r.scored),
        ['FAILURE'],
      ),
    ).toEqual([]);
  });

  it('no scored scenario has a WARNING or SKIPPED check', () => {
    expect(
      problems(
        results.filter((r) => r.scored),
        ['WARNING', 'SKIPPED'],
      ),
    ).toEqual([]);
  });

  it('the unscored scenarios that apply pass', () => {
    for (const name of UNSCORED_THAT_APPLY[requirements]!) {
      const result = results.find((r) => r.scenario === name);
      expect(result, `${name} was run`).toBeDefined();
      const counts = tally(result!);
      expect({ scenario: name, FAILURE: counts.FAILURE, WARNING: counts.WARNING, SKIPPED: counts.SKIPPED }).toEqual({
        scenario: name,
        FAILURE: 0,
        WARNING: 0,
        SKIPPED: 0,
      });
      // A scenario of only INFO checks did not test anything (server-sse-polling without resumability).
      expect(counts.SUCCESS, `${name} has SUCCESS checks`).toBeGreaterThan(0);
    }
  });
});

/** The FAILURE checks, and the WARNING or SKIPPED checks of scenarios EXPECTED_SKIPPED does not list. */
function unexpected(results: readonly ScenarioResult[]): string[] {
  return [
    ...problems(results, ['FAILURE']),
    ...problems(
      results.filter((r) => !(r.scenario in EXPECTED_SKIPPED)),
      ['WARNING', 'SKIPPED'],
    ),
  ];
}

const SUITES: [string, Selection][] = [
  ['--suite all', { suite: 'all', specVersion: '' }],
  ['--suite all --spec-version 2026-07-28', { suite: 'all', specVersion: '2026-07-28' }],
  ['--suite all --spec-version 2025-11-25', { suite: 'all', specVersion: '2025-11-25' }],
];

const suiteResults = new Map<string, ScenarioResult[]>();

describe.each(SUITES)('conformance runner, %s', (name, selection) => {
  let results: ScenarioResult[] = [];
  beforeAll(async () => {
    ({ results } = await runServerLeg(sample.url, selection));
    suiteResults.set(name, results);
  });

  it('no scenario has a FAILURE, nor a WARNING or SKIPPED check that is not expected', () => {
    expect(results.length, name).toBeGreaterThan(0);
    for (const r of results) expect(r.checks.length, r.scenario).toBeGreaterThan(0);
    expect(unexpected(results)).toEqual([]);
  });

  it('an expected SKIPPED scenario has no FAILURE or WARNING either', () => {
    expect(
      problems(
        results.filter((r) => r.scenario in EXPECTED_SKIPPED),
        ['FAILURE', 'WARNING'],
      ),
    ).toEqual([]);
  });
});

describe('conformance runner, --suite all: coverage', () => {
  it('runs every server scenario the runner lists', async () => {
    const listed = await listedScenarios('server');
    expect(listed.length).toBeGreaterThanOrEqual(65);
    expect((suiteResults.get('--suite all') ?? []).map((r) => r.scenario).sort()).toEqual([...listed].sort());
  });
});
