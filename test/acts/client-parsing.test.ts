/**
 * The shipped client-parsing suite (ACTS §10, the A2A project's CLIENT-* tests) against this repository's
 * A2A client (runtime/a2a), as `wiregen a2a-conformance --client` runs it. The expectations are the suite's.
 * CLIENT-PARSE-003 as published gives history messages no `messageId`, which A2A 1.0 requires
 * (Message.messageId), and the client checks every result against the schema: it passes under the runner's
 * erratum `message-id` and fails as published. The three `should` tests fail for the same kind of reason
 * (A2A 0.3 file parts; cards without the fields 1.0 requires) and stay visible.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../generator/acts/run/run.ts';
import { selectSuites } from '../../generator/acts/suites.ts';

describe('client-parsing against our client', () => {
  it('parses every must payload that is valid A2A 1.0, and names why it refuses the others', async () => {
    const [report] = await runConformance({
      suites: selectSuites(['client-parsing']),
      bindings: ['jsonrpc'],
      level: 'may',
      variables: {},
      timeoutMs: 5000,
    });
    const tests = report!.suites.flatMap((s) => s.tests);
    expect(tests).toHaveLength(8);
    const result = Object.fromEntries(tests.map((t) => [t.id, t]));
    for (const id of ['CLIENT-PARSE-001', 'CLIENT-PARSE-002', 'CLIENT-PARSE-004', 'CLIENT-PARSE-005'])
      expect(result[id]!.result, `${id}: ${result[id]!.failure?.message}`).toBe('pass');
    expect(result['CLIENT-PARSE-003']).toMatchObject({ result: 'pass', errata: ['message-id'] });
    expect(result['CLIENT-PARSE-006']!.failure!.message).toMatch(/the result does not match the A2A 1\.0 schema: \/artifacts\/2\/parts\/0/);
    for (const id of ['CLIENT-AUTH-001', 'CLIENT-CAP-001'])
      expect(result[id]!.failure!.message).toMatch(/is not a valid A2A 1\.0 AgentCard: \(root\): must have required property 'description'/);
    expect(report!.summary.by_level.must).toEqual({ total: 5, passed: 5, failed: 0, skipped: 0, errors: 0 });
  });

  it('refuses CLIENT-PARSE-003 as published (--no-errata): its history messages have no messageId', async () => {
    const [report] = await runConformance({
      suites: selectSuites(['client-parsing']),
      bindings: ['jsonrpc'],
      level: 'must',
      variables: {},
      timeoutMs: 5000,
      noErrata: true,
    });
    const test = report!.suites.flatMap((s) => s.tests).find((t) => t.id === 'CLIENT-PARSE-003');
    expect(test!.failure!.message).toMatch(/\/history\/0 must have required property 'messageId'/);
  });
});
