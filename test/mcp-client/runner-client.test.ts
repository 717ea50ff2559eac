/**
 * The official conformance runner's client leg against our McpClient: the
 * runner launches test/mcp-client/conformance-client.ts once per client scenario and scores the traffic its
 * scenario servers (and authorization servers) saw. Both requirement sets run, one after the other, then the
 * 2025-03-26 back-compat suite:
 *
 * - `--requirements 2026-07-28`: tools_call, request-metadata, sep-2322-client-request-state,
 *   http-standard-headers, http-custom-headers, http-invalid-tool-headers and json-schema-ref-no-deref must
 *   end with no FAILURE check;
 * - `--requirements 2025-11-25`: every client scenario the runner lists must end with no FAILURE either;
 * - authorization: every `auth/…` scenario either set runs, scored or an extension (client credentials, DPoP,
 *   enterprise-managed authorization, workload identity), and both `--suite backcompat --spec-version
 *   2025-03-26` scenarios must end with no FAILURE; the scored ones with no WARNING either. The runner writes
 *   them in nested folders (`auth/<name>-<time>/`), which the harness reads;
 * - `--suite all`: every client scenario the runner knows (`list --client`) runs and ends with no FAILURE, and
 *   no SKIPPED check but those test/conformance/expected.ts lists with their reasons; the skills scenarios
 *   (SEP-2640) end SUCCESS: the client listed the skills, read none ahead of need, and refused each tampered one.
 *
 * Other WARNING, SKIPPED and INFO checks are printed with the status table (afterAll), not failed on, except
 * where a test below asks for a SUCCESS the runtime should earn.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_CLIENT_SKIPPED } from '../conformance/expected.ts';
import { listedScenarios, resultFolders, runLeg, scoredScenarios, tally, type Leg, type ScenarioResult } from '../conformance/harness.ts';
import { ROOT } from '../helpers/project.ts';

/** The 2026-07-28 client scenarios a client must pass. */
const REQUIRED_2026 = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
];
/** The whole runner part must stay well under the test timeout. */
const LEG_TIMEOUT_MS = 240_000;
/**
 * The runner starts every scenario of a set at once (about 40 clients on two cores, twice over): each client
 * gets 90 s instead of the runner's default 30, and the driver gives up 2 s before (it reads the variable).
 */
const SCENARIO_TIMEOUT_MS = 90_000;
const DRIVER_ENV = { WIREGEN_CONFORMANCE_RUN_LIMIT_MS: String(SCENARIO_TIMEOUT_MS - 2_000) };
const DRIVER = `${process.execPath} --import tsx ${join(ROOT, 'test/mcp-client/conformance-client.ts')}`;
// The runner splits --command on spaces (@modelcontextprotocol/conformance): a path with a space would break it silently.
if (/\s/.test(process.execPath) || /\s/.test(ROOT)) throw new Error(`the runner cannot launch a command with spaces in a path: ${DRIVER}`);

const listed = { '2026-07-28': await scoredScenarios('2026-07-28', 'client'), '2025-11-25': await scoredScenarios('2025-11-25', 'client') };
const NON_AUTH_2025 = listed['2025-11-25'].filter((s) => !s.startsWith('auth/'));
/** Every client scenario the runner knows, whatever its version or suite (`--suite all` runs them all). */
const EVERY = await listedScenarios('client');
/** The skills extension's client scenarios (SEP-2640), each with the one check it scores. */
const SKILLS: Record<string, string> = {
  'sep-2640-client-no-prefetch': 'sep-2640-host-no-prefetch',
  'sep-2640-client-verify-digest': 'sep-2640-host-verify-digest',
  'sep-2640-client-verify-size': 'sep-2640-host-size-mismatch-failure',
  'sep-2640-client-verify-frontmatter': 'sep-2640-host-frontmatter-comparison',
};
/** The 2025-03-26 authorization scenarios, run by `--suite backcompat --spec-version 2025-03-26` (no requirement set holds them). */
const BACKCOMPAT = ['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'];
/** The authorization extensions each requirement set runs unscored. */
const AUTH_EXTENSIONS = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

/** The client leg for `requirements`: the runner launches DRIVER once per client scenario. */
function runClientLeg(requirements: keyof typeof listed): Promise<Leg> {
  return runLeg('client', DRIVER, requirements, {
    timeoutMs: LEG_TIMEOUT_MS,
    scored: listed[requirements],
    scenarioTimeoutMs: SCENARIO_TIMEOUT_MS,
    env: DRIVER_ENV,
  });
}

const legs = new Map<string, Leg>();
beforeAll(async () => {
  // One set after the other: the runner starts all of a set's scenarios at once (about 40 clients, each
  // authorizing with its own authorization server), and two sets at once overload two cores (minutes instead of seconds).
  legs.set('2026-07-28', await runClientLeg('2026-07-28'));
  legs.set('2025-11-25', await runClientLeg('2025-11-25'));
  const backcompat = await runLeg(
    'client',
    DRIVER,
    { suite: 'backcompat', specVersion: '2025-03-26' },
    {
      timeoutMs: LEG_TIMEOUT_MS,
      scenarioTimeoutMs: SCENARIO_TIMEOUT_MS,
      env: DRIVER_ENV,
    },
  );
  legs.set('2025-03-26', backcompat);
  // Every scenario at once (about 50 clients): the same per-scenario limit, one more leg of the same bound.
  const all = () =>
    runLeg(
      'client',
      DRIVER,
      { suite: 'all', specVersion: '' },
      { timeoutMs: LEG_TIMEOUT_MS, scenarioTimeoutMs: SCENARIO_TIMEOUT_MS, env: DRIVER_ENV },
    );
  let leg = await all();
  // With about 50 clients starting at once on two cores, a scenario server's own request to its client can
  // time out before the client is up ("Request timed out", seen once in three full runs): such a leg runs
  // once more, and its second run is the one asserted, whatever it shows.
  const timedOut = leg.results.filter((r) => r.checks.some((c) => c.status === 'FAILURE' && /timed out/i.test(c.errorMessage ?? '')));
  if (timedOut.length) {
    console.log(`--suite all ran again: a request timed out in ${timedOut.map((r) => r.scenario).join(', ')}`);
    rmSync(leg.outDir, { recursive: true, force: true });
    leg = await all();
  }
  legs.set('all', leg);
}, 5 * LEG_TIMEOUT_MS);

function result(requirements: string, scenario: string): ScenarioResult {
  const found = legs.get(requirements)?.results.find((r) => r.scenario === scenario);
  if (!found) throw new Error(`${scenario} has no checks.json for --requirements ${requirements}`);
  return found;
}

/**
 * The scenario's FAILURE checks, one line each; when there are any, the driver's last output lines follow
 * (its steps, each exchange's status and time), so that a failure in CI says what the client saw.
 */
function failures(requirements: string, scenario: string): string[] {
  const failed = result(requirements, scenario)
    .checks.filter((c) => c.status === 'FAILURE')
    .map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
  return failed.length ? [...failed, ...driverOutput(requirements, scenario)] : [];
}

/** The runner's output folder of a scenario (its checks.json, the driver's stdout.txt and stderr.txt). */
function scenarioFolder(requirements: string, scenario: string): { dir: string } | undefined {
  return resultFolders(legs.get(requirements)!.outDir).find((f) => f.scenario === scenario);
}

/** The last lines the driver wrote for a scenario, stdout then stderr, each line marked with its stream. */
function driverOutput(requirements: string, scenario: string, lines = 25): string[] {
  const folder = scenarioFolder(requirements, scenario);
  if (!folder) return ['(no output folder)'];
  return ['stdout.txt', 'stderr.txt'].flatMap((name) => {
    let text = '';
    try {
      text = readFileSync(join(folder.dir, name), 'utf8');
    } catch {
      return [`(no ${name})`];
    }
    return text
      .split('\n')
      .filter((l) => l.trim())
      .slice(-lines)
      .map((l) => `${name.slice(0, 6)}| ${l}`);
  });
}

/** The driver's JSON lines for a scenario (test/mcp-client/conformance-client.ts writes one per step). */
function driverLog(requirements: string, scenario: string): Record<string, unknown>[] {
  const folder = scenarioFolder(requirements, scenario);
  if (!folder) throw new Error(`no output folder for ${scenario} in ${legs.get(requirements)!.outDir}`);
  return readFileSync(join(folder.dir, 'stdout.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The scenario's WARNING checks, one line each. */
function warnings(requirements: string, scenario: string): string[] {
  return result(requirements, scenario)
    .checks.filter((c) => c.status === 'WARNING')
    .map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
}

describe('client leg, --requirements 2026-07-28', () => {
  it('lists the seven required client scenarios', () => {
    expect(listed['2026-07-28']).toEqual(expect.arrayContaining(REQUIRED_2026));
  });

  it.each(REQUIRED_2026)('%s: no FAILURE check', (scenario) => {
    expect(result('2026-07-28', scenario).checks.length).toBeGreaterThan(0);
    expect(failures('2026-07-28', scenario)).toEqual([]);
  });

  it("a failure would come with the driver's output: its steps, as the runner kept them", () => {
    expect(driverOutput('2026-07-28', 'tools_call')).toEqual(expect.arrayContaining([expect.stringMatching(/^stdout\| \{"step":"tools\/call"/)]));
  });

  it('request-metadata: after -32022 the client retries with a version from error.data.supported (SEP-2575)', () => {
    const retry = result('2026-07-28', 'request-metadata').checks.find((c) => c.id === 'sep-2575-client-retry-supported-version');
    expect(retry?.status, 'the client gave up on the first -32022 instead of retrying with 2026-07-28').toBe('SUCCESS');
  });

  it('sep-2322-client-request-state: a result without resultType is taken as complete, not refused', () => {
    const call = driverLog('2026-07-28', 'sep-2322-client-request-state').find(
      (e) => e['step'] === 'tools/call' && e['name'] === 'test_mrtr_no_result_type',
    );
    expect(call, 'the driver called test_mrtr_no_result_type').toBeDefined();
    expect(call!['error'], 'schema 2026-07-28 Result.resultType: "the client MUST treat the absent field as complete"').toBeUndefined();
  });
});

describe('client leg: json-schema-2020-12-preservation (run unscored by 2026-07-28, scored by 2025-11-25)', () => {
  it.each(['2026-07-28', '2025-11-25'])('--requirements %s: the echoed inputSchema keeps every keyword (no FAILURE)', (requirements) => {
    const checks = result(requirements, 'json-schema-2020-12-preservation').checks;
    expect(checks.find((c) => c.id === 'json-schema-2020-12-client-$schema-preserved')?.status).toBe('SUCCESS');
    expect(failures(requirements, 'json-schema-2020-12-preservation')).toEqual([]);
  });
});

describe('client leg, --requirements 2025-11-25 (not authorization)', () => {
  it('lists the non-authorization client scenarios', () => {
    expect(NON_AUTH_2025).toEqual(expect.arrayContaining(['initialize', 'tools_call']));
  });

  it.each(NON_AUTH_2025)('%s: no FAILURE check', (scenario) => {
    expect(result('2025-11-25', scenario).checks.length).toBeGreaterThan(0);
    expect(failures('2025-11-25', scenario)).toEqual([]);
  });
});

/** Every authorization scenario of a requirement set: its scored ones, then the extensions it runs. */
const authOf = (requirements: keyof typeof listed) => [...listed[requirements].filter((s) => s.startsWith('auth/')), ...AUTH_EXTENSIONS];

describe.each(['2026-07-28', '2025-11-25'] as const)('client leg, --requirements %s, authorization', (requirements) => {
  it('runs the scored authorization scenarios and the extensions', () => {
    expect(listed[requirements].filter((s) => s.startsWith('auth/')).length).toBe(requirements === '2026-07-28' ? 25 : 14);
    const ran = legs.get(requirements)!.results.map((r) => r.scenario);
    expect(ran).toEqual(expect.arrayContaining(authOf(requirements)));
  });

  it.each(authOf(requirements))('%s: no FAILURE check', (scenario) => {
    expect(result(requirements, scenario).checks.length).toBeGreaterThan(0);
    expect(failures(requirements, scenario)).toEqual([]);
  });

  it.each(listed[requirements].filter((s) => s.startsWith('auth/')))('%s (scored): no WARNING check', (scenario) => {
    expect(warnings(requirements, scenario)).toEqual([]);
  });

  it('resource-mismatch, iss and issuer refusals: the driver stopped with the check named, before any token was asked for', () => {
    if (requirements !== '2026-07-28') return;
    const refusals: Record<string, RegExp> = {
      'auth/resource-mismatch': /"resource" https:\/\/evil\.example\.com\/mcp is not the server/,
      'auth/metadata-issuer-mismatch': /"issuer" "https:\/\/attacker\.example\.com" is not/,
      'auth/iss-wrong-issuer': /unexpected "iss"/,
      'auth/iss-normalized': /unexpected "iss"/,
      'auth/iss-supported-missing': /"iss" \(issuer\) missing/,
      'auth/scope-retry-limit': /403 insufficient_scope/,
    };
    for (const [scenario, message] of Object.entries(refusals)) {
      const connect = driverLog(requirements, scenario).find((e) => e['step'] === 'connect');
      expect((connect?.['error'] as { message?: string } | undefined)?.message, scenario).toMatch(message);
    }
  });
});

describe('client leg, --suite backcompat --spec-version 2025-03-26', () => {
  it.each(BACKCOMPAT)('%s: no FAILURE check', (scenario) => {
    expect(result('2025-03-26', scenario).checks.length).toBeGreaterThan(0);
    expect(failures('2025-03-26', scenario)).toEqual([]);
  });
});

describe('client leg, --suite all', () => {
  it('runs every client scenario the runner lists', () => {
    expect(EVERY).toEqual(expect.arrayContaining(Object.keys(SKILLS)));
    expect(
      legs
        .get('all')!
        .results.map((r) => r.scenario)
        .sort(),
    ).toEqual([...EVERY].sort());
  });

  it.each(EVERY)('%s: no FAILURE check', (scenario) => {
    expect(result('all', scenario).checks.length).toBeGreaterThan(0);
    expect(failures('all', scenario)).toEqual([]);
  });

  it('no SKIPPED check but the expected ones (test/conformance/expected.ts)', () => {
    const unexpected = legs
      .get('all')!
      .results.flatMap((r) =>
        r.checks
          .filter((c) => c.status === 'SKIPPED' && EXPECTED_CLIENT_SKIPPED[r.scenario]?.check !== c.id)
          .map((c) => `${r.scenario} ${c.id}: ${c.errorMessage ?? ''}`),
      );
    expect(unexpected).toEqual([]);
  });

  it.each(Object.entries(SKILLS))('%s: %s ends SUCCESS', (scenario, check) => {
    expect(result('all', scenario).checks.find((c) => c.id === check)?.status).toBe('SUCCESS');
  });

  it('the verify scenarios: the driver loaded the tampered skill, refused it naming the check, and read nothing after', () => {
    const refusals: Record<string, string> = {
      'sep-2640-client-verify-digest': 'sha256:',
      'sep-2640-client-verify-size': 'bytes where the entry says',
      'sep-2640-client-verify-frontmatter': 'frontmatter field "description"',
    };
    for (const [scenario, message] of Object.entries(refusals)) {
      const log = driverLog('all', scenario);
      const load = log.find((e) => e['step'] === 'skills/load');
      expect((load?.['error'] as { message?: string } | undefined)?.message, scenario).toContain(message);
      expect(
        log.filter((e) => e['step'] === 'skills/read'),
        scenario,
      ).toEqual([]);
    }
    expect(driverLog('all', 'sep-2640-client-no-prefetch').filter((e) => e['method'] === 'resources/read')).toEqual([]);
  });
});

describe('client leg: no token value in what the driver printed', () => {
  it('stdout and stderr of every authorization scenario hold no access token, secret or JWT', () => {
    for (const leg of legs.values())
      for (const { scenario, dir } of resultFolders(leg.outDir).filter((f) => f.scenario.startsWith('auth/'))) {
        const printed = ['stdout.txt', 'stderr.txt'].map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
        // The runner's tokens start test-token / cc-token; JWTs (DPoP-bound tokens, assertions) start eyJ.
        expect(printed.match(/test-token-\S*|cc-token-\S*|eyJ[\w-]{10,}|test-secret-\d+|pre-registered-secret/g), scenario).toBeNull();
      }
  });
});

afterAll(() => {
  const rows: string[] = [];
  for (const [requirements, leg] of legs) {
    for (const r of leg.results) {
      const t = tally(r);
      const notable = r.checks.filter((c) => c.status !== 'SUCCESS').map((c) => `${c.status} ${c.id}`);
      rows.push(
        `${requirements} ${r.scenario}: S${t.SUCCESS} W${t.WARNING} F${t.FAILURE} K${t.SKIPPED} I${t.INFO}${notable.length ? ` (${[...new Set(notable)].join(', ')})` : ''}`,
      );
    }
    rmSync(leg.outDir, { recursive: true, force: true });
  }
  console.log(`client leg (S SUCCESS, W WARNING, F FAILURE, K SKIPPED, I INFO):\n  ${rows.join('\n  ')}`);
});
