/**
 * The official conformance runner's client leg (issue 9 item 3) against our McpClient: the runner launches
 * test/mcp-client/conformance-client.ts once per client scenario (@modelcontextprotocol/conformance) and scores the traffic
 * its scenario servers saw. Both requirement sets run at once (about a minute on two cores):
 *
 * - `--requirements 2026-07-28`: tools_call, request-metadata, sep-2322-client-request-state,
 *   http-standard-headers, http-custom-headers, http-invalid-tool-headers and json-schema-ref-no-deref must
 *   end with no FAILURE check;
 * - `--requirements 2025-11-25`: every client scenario the runner lists that is not about authorization
 *   (auth/…; the runtime has no OAuth client) must end with no FAILURE either.
 *
 * WARNING, SKIPPED and INFO checks are printed with the status table (afterAll), not failed on, except where a
 * test below asks for a SUCCESS the runtime should earn.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLeg, scoredScenarios, tally, type Leg, type ScenarioResult } from '../conformance/harness.ts';
import { ROOT } from '../helpers/project.ts';

/** The 2026-07-28 client scenarios issue 9 names. */
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
const LEG_TIMEOUT_MS = 150_000;
const DRIVER = `${process.execPath} --import tsx ${join(ROOT, 'test/mcp-client/conformance-client.ts')}`;
// The runner splits --command on spaces (@modelcontextprotocol/conformance): a path with a space would break it silently.
if (/\s/.test(process.execPath) || /\s/.test(ROOT)) throw new Error(`the runner cannot launch a command with spaces in a path: ${DRIVER}`);

const listed = { '2026-07-28': await scoredScenarios('2026-07-28', 'client'), '2025-11-25': await scoredScenarios('2025-11-25', 'client') };
const NON_AUTH_2025 = listed['2025-11-25'].filter((s) => !s.startsWith('auth/'));

/** The client leg for `requirements`: the runner launches DRIVER once per client scenario. */
function runClientLeg(requirements: keyof typeof listed): Promise<Leg> {
  return runLeg('client', DRIVER, requirements, { timeoutMs: LEG_TIMEOUT_MS, scored: listed[requirements] });
}

const legs = new Map<string, Leg>();
beforeAll(async () => {
  const [modern, legacy] = await Promise.all([runClientLeg('2026-07-28'), runClientLeg('2025-11-25')]);
  legs.set('2026-07-28', modern).set('2025-11-25', legacy);
}, 2 * LEG_TIMEOUT_MS);

function result(requirements: string, scenario: string): ScenarioResult {
  const found = legs.get(requirements)?.results.find((r) => r.scenario === scenario);
  if (!found) throw new Error(`${scenario} has no checks.json for --requirements ${requirements}`);
  return found;
}

/** The scenario's FAILURE checks, one line each. */
function failures(requirements: string, scenario: string): string[] {
  return result(requirements, scenario)
    .checks.filter((c) => c.status === 'FAILURE')
    .map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
}

/** The driver's JSON lines for a scenario (test/mcp-client/conformance-client.ts writes one per step). */
function driverLog(requirements: string, scenario: string): Record<string, unknown>[] {
  const outDir = legs.get(requirements)!.outDir;
  const entry = readdirSync(outDir).find((e) => e.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '') === scenario);
  if (!entry) throw new Error(`no output folder for ${scenario} in ${outDir}`);
  return readFileSync(join(outDir, entry, 'stdout.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('client leg, --requirements 2026-07-28', () => {
  it('lists the seven client scenarios issue 9 names', () => {
    expect(listed['2026-07-28']).toEqual(expect.arrayContaining(REQUIRED_2026));
  });

  it.each(REQUIRED_2026)('%s: no FAILURE check', (scenario) => {
    expect(result('2026-07-28', scenario).checks.length).toBeGreaterThan(0);
    expect(failures('2026-07-28', scenario)).toEqual([]);
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

describe('client leg, --requirements 2025-11-25 (not authorization)', () => {
  it('lists the non-authorization client scenarios', () => {
    expect(NON_AUTH_2025).toEqual(expect.arrayContaining(['initialize', 'tools_call']));
  });

  it.each(NON_AUTH_2025)('%s: no FAILURE check', (scenario) => {
    expect(result('2025-11-25', scenario).checks.length).toBeGreaterThan(0);
    expect(failures('2025-11-25', scenario)).toEqual([]);
  });
});

afterAll(() => {
  const rows: string[] = [];
  for (const [requirements, leg] of legs) {
    const wanted = requirements === '2026-07-28' ? REQUIRED_2026 : NON_AUTH_2025;
    for (const r of leg.results.filter((x) => wanted.includes(x.scenario))) {
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
