/**
 * The runner's corrections of shipped tests (generator/acts/format/errata.ts) and its reading of §12.4 for raw
 * bodies (a message without messageId gets one): applied while the suite has the value corrected, reported as
 * not applied when it does not, and never touching the suites as loaded.
 */
import { describe, expect, it } from 'vitest';
import { applyErrata, ERRATA, type Erratum } from '../../generator/acts/format/errata.ts';
import type { Suite, Test } from '../../generator/acts/format/model.ts';
import { shippedSuites } from '../../generator/acts/suites.ts';
import { buildReport, reportTable } from '../../generator/acts/report.ts';
import { withMessageIds } from '../../generator/acts/wire/exchange.ts';

const testOf = (suites: readonly Suite[], id: string): Test => suites.flatMap((s) => s.tests).find((t) => t.id === id)!;
const oneOf = (t: Test) =>
  (t.steps[0] as unknown as { expect: { body: { supportedInterfaces: { items: { protocolBinding: { one_of: string[] } } } } } }).expect.body
    .supportedInterfaces.items.protocolBinding.one_of;

describe('errata', () => {
  it('corrects CARD-DISC-002 to A2A 1.0 binding names, on a copy, and says which test ran under it', () => {
    const suites = shippedSuites();
    const { suites: corrected, applied, stale } = applyErrata(suites);
    expect(oneOf(testOf(corrected, 'CARD-DISC-002'))).toEqual(['JSONRPC', 'GRPC', 'HTTP+JSON']);
    expect(oneOf(testOf(suites, 'CARD-DISC-002'))).toEqual(['JSONRPC', 'GRPC', 'REST']);
    expect(Object.fromEntries(applied)).toEqual({ 'CARD-DISC-002': ['binding-name'], 'CLIENT-PARSE-003': ['message-id'] });
    expect(stale).toEqual([]);
    expect(testOf(corrected, 'CARD-DISC-003')).toBe(testOf(suites, 'CARD-DISC-003'));
  });

  it('leaves a test that no longer has the corrected value as it is, and reports the erratum', () => {
    const fixed: Erratum = { ...ERRATA[0]!, was: ['JSONRPC', 'GRPC', 'SOMETHING-ELSE'] };
    const missing: Erratum = { ...ERRATA[0]!, id: 'gone', pointer: '/steps/7/expect' };
    const { suites, applied, stale } = applyErrata(shippedSuites(), [fixed, missing]);
    expect(oneOf(testOf(suites, 'CARD-DISC-002'))).toEqual(['JSONRPC', 'GRPC', 'REST']);
    expect(applied.size).toBe(0);
    expect(stale.map((e) => e.id)).toEqual(['binding-name', 'gone']);
  });

  it('lists under the table each test run under a correction', () => {
    const suites = shippedSuites().filter((s) => s.id === 'discovery');
    const results = new Map([
      [suites[0]!, [{ id: 'CARD-DISC-002', name: 'n', level: 'must' as const, result: 'pass' as const, duration_ms: 1, errata: ['binding-name'] }]],
    ]);
    const lines = reportTable(
      buildReport(suites, results, { transport: 'rest', sdk: { name: 'a', version: '1', language: 'ts' }, durationMs: 1, generatedAt: new Date(0) }),
    );
    expect(lines.find((l) => l.startsWith('corrected'))).toMatch(
      /^corrected CARD-DISC-002 \(pass\) by erratum binding-name: A2A 1\.0 names the HTTP binding HTTP\+JSON/,
    );
  });

  it('runs nothing corrected with no errata', () => {
    const { applied, stale } = applyErrata(shippedSuites(), []);
    expect([applied.size, stale.length]).toEqual([0, 0]);
  });
});

describe('raw bodies and messageId (§12.4)', () => {
  it("fills a JSON-RPC params.message's missing messageId", () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } } };
    const sent = withMessageIds(body) as { params: { message: { messageId: string; role: string } } };
    expect(sent.params.message.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.params.message.role).toBe('ROLE_USER');
    expect(body.params.message).not.toHaveProperty('messageId');
  });

  it("fills an HTTP+JSON body's message, and keeps a messageId the test wrote", () => {
    expect((withMessageIds({ message: { role: 'ROLE_USER', parts: [] } }) as { message: object }).message).toHaveProperty('messageId');
    const written = { jsonrpc: '2.0', params: { message: { messageId: 'm-1', parts: [] } } };
    expect(withMessageIds(written)).toEqual(written);
  });

  it('leaves bodies without a message alone', () => {
    for (const body of [{ jsonrpc: '2.0', method: 'GetTask', params: { id: 't' } }, [1, 2], 'text', null, { message: 'not an object' }])
      expect(withMessageIds(body)).toEqual(body);
  });
});
