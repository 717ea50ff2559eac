/**
 * Every ACTS suite run by the runner against the `@a2a-js/sdk` 1.3 ACTS agent (sdk-agent.ts) on both bindings.
 * The SDK agent need not pass: this asserts only that the run completes and reports every test on each binding,
 * and prints the tests that did not pass (docs/a2a-conformance.md explains them, `npm run acts:report`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../../generator/acts/run/run.ts';
import { shippedSuites } from '../../generator/acts/suites.ts';
import { startSdkActsAgent, type SdkActsAgent } from './sdk-agent.ts';

let agent: SdkActsAgent;
beforeAll(async () => {
  agent = await startSdkActsAgent({ longRunningMs: 300 });
});
afterAll(() => agent?.close());

it('runs every ACTS test against the SDK agent on both bindings', async () => {
  const reports = await runConformance({
    suites: shippedSuites(),
    agentUrl: agent.url,
    bindings: ['jsonrpc', 'rest'],
    level: 'may',
    variables: {},
    timeoutMs: 5000,
  });
  expect(reports.map((r) => r.transport)).toEqual(['jsonrpc', 'rest']);
  const lines: string[] = [];
  for (const report of reports) {
    expect(report.suites.reduce((n, s) => n + s.tests.length, 0)).toBe(111);
    for (const suite of report.suites)
      for (const t of suite.tests)
        if (t.result === 'fail' || t.result === 'error') lines.push(`${report.transport} ${t.level} ${t.id}: ${t.failure?.message ?? t.result}`);
  }
  console.log(lines.join('\n'));
}, 60_000);
