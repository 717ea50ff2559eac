/**
 * The official MCP conformance runner's server leg against the `conformance` fixture over Streamable HTTP:
 * `--requirements 2026-07-28` (the stateless era) and `--requirements 2025-11-25` (the handshake era, with
 * sessions). Every scored scenario must end with no FAILURE, and (as they do today) no WARNING or SKIPPED;
 * the unscored scenarios that apply to us must pass too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServerLeg, startFixture, tally, type RunningFixture, type ScenarioResult } from './harness.ts';

/** Unscored scenarios the requirement sets run that we implement: they must pass as well. */
const UNSCORED_THAT_APPLY: Record<string, readonly string[]> = {
  '2026-07-28': ['http-header-validation', 'http-custom-header-server-validation', 'json-schema-2020-12'],
  '2025-11-25': ['json-schema-2020-12', 'server-session-lifecycle'],
};

let fixture: RunningFixture;
beforeAll(async () => {
  fixture = await startFixture('conformance');
});
afterAll(async () => {
  if (fixture) expect(await fixture.stop(), 'the fixture exits 0 when stdin closes').toBe(0);
});

function problems(results: readonly ScenarioResult[], statuses: readonly string[]): string[] {
  return results.flatMap((r) =>
    r.checks.filter((c) => statuses.includes(c.status)).map((c) => `${r.scenario}: ${c.id} ${c.status} ${c.errorMessage ?? ''}`),
  );
}

describe.each(['2026-07-28', '2025-11-25'])('conformance runner, --requirements %s', (requirements) => {
  let results: ScenarioResult[] = [];
  beforeAll(async () => {
    ({ results } = await runServerLeg(fixture.url, requirements));
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
      expect({ scenario: name, FAILURE: counts.FAILURE, WARNING: counts.WARNING }).toEqual({ scenario: name, FAILURE: 0, WARNING: 0 });
    }
  });
});
